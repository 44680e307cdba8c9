// McpRegistry on real server processes: parallel connect, isolation of failures, statuses with
// their source and without secrets, disconnecting one server, prompts across servers.
import { join } from 'node:path';
import { freeLoopbackPort } from '@epoch-agent/testkit';
import type { Transport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpSchemaCache } from '../src/cache.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { HttpServerConfig, McpServerStatus, StdioServerConfig } from '../src/types.js';
import { serverLaunch, waitForPids } from './stdio-helpers.js';
import {
  type Behavior,
  isRunning,
  memoryLogger,
  recordDir,
  recordingConfig,
  records,
} from './support/recording.js';

const ALL = { tools: {}, resources: {}, prompts: {} };

let dir: ReturnType<typeof recordDir>;
let registries: McpRegistry[] = [];

beforeEach(() => {
  dir = recordDir();
});

afterEach(async () => {
  await Promise.all(registries.map((registry) => registry.disconnectAll()));
  registries = [];
  dir.remove();
});

function registry(options: ConstructorParameters<typeof McpRegistry>[0] = {}): McpRegistry {
  // The schema cache goes to this test's temp dir, never to the real EPOCH_HOME.
  const schemaCache = new McpSchemaCache({ dir: join(dir.path, 'schema-cache') });
  const created = new McpRegistry({ schemaCache, ...options });
  registries.push(created);
  return created;
}

function server(
  name: string,
  behavior: Behavior = {},
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return recordingConfig(name, join(dir.path, `${name}.jsonl`), behavior, overrides);
}

function pidOf(name: string): number {
  const pid = records(join(dir.path, `${name}.jsonl`)).find((r) => r.event === 'start')?.pid;
  if (pid === undefined) throw new Error(`${name} never started`);
  return pid;
}

function byName(statuses: readonly McpServerStatus[]): Record<string, McpServerStatus> {
  return Object.fromEntries(statuses.map((status) => [status.name, status]));
}

describe('connectAll', () => {
  it('connects servers in parallel: three servers that each answer only once all three run', async () => {
    // One after another, the first would wait for the other two until its connect_timeout and fail;
    // no clock decides it. (How long a parallel start takes is npm run bench's to measure.)
    const barrier = { file: join(dir.path, 'barrier'), count: 3 };
    const statuses = await registry().connectAll(
      ['a', 'b', 'c'].map((name) => server(name, { barrier })),
      'user',
    );
    expect(statuses.map((s) => s.state)).toEqual(['connected', 'connected', 'connected']);
  });

  it('one missing command and one crash on start do not affect the good server', async () => {
    const reg = registry();
    const statuses = byName(
      await reg.connectAll(
        [
          server('good'),
          server('missing', {}, { command: 'epoch-no-such-command-xyz' }),
          server('crash', { stderr: 'crash: cannot open database', exitAtStart: 1 }),
        ],
        'user',
      ),
    );
    expect(statuses.good).toMatchObject({ state: 'connected', toolCount: 4, source: 'user' });
    expect(statuses.good?.state === 'connected' && statuses.good.serverInfo).toEqual({
      name: 'recording-server',
      version: '1.2.3',
    });
    const missing = statuses.missing;
    if (missing?.state !== 'failed') throw new Error(`missing: ${missing?.state}`);
    expect(missing.error.code).toBe('command_not_found');
    expect(missing.error.message).toContain('epoch-no-such-command-xyz');
    expect(missing.error.message).toContain('PATH');
    const crash = statuses.crash;
    if (crash?.state !== 'failed') throw new Error(`crash: ${crash?.state}`);
    expect(crash.stderrTail).toContain('crash: cannot open database');
    // The good one works.
    const echo = reg.tools().find((tool) => tool.name === 'mcp__good__echo');
    const result = await echo?.execute(
      { text: 'still here' },
      { signal: new AbortController().signal },
    );
    expect(result?.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(reg.tools().every((tool) => tool.name.startsWith('mcp__good__'))).toBe(true);
  });

  it("command not found: the status tells the user what to do; only the host's logger hears about embedding", async () => {
    const logger = memoryLogger();
    const reg = registry({ logger });
    // npx nowhere on the PATH the child would get: a machine without Node.
    const config = server('docs', {}, { command: 'npx', env: { PATH: dir.path } });
    const [status] = await reg.connectAll([config], 'user');
    if (status?.state !== 'failed') throw new Error(`expected failed, got ${status?.state}`);
    expect(status.error).toEqual({
      code: 'command_not_found',
      message:
        'MCP server "docs": command "npx" was not found on PATH. Install it ("npx" comes with Node.js), or give its full path in "command".',
    });
    const forHosts = logger.lines.filter((line) => line.message.includes('EMBEDDING.md'));
    expect(forHosts).toHaveLength(1);
    expect(forHosts[0]).toMatchObject({ level: 'warn', fields: { server: 'docs' } });
    expect(forHosts[0]?.message).toContain('prepend the directory of the node it ships');
  });

  it('every status carries the source it was connected with', async () => {
    const reg = registry();
    await reg.connectAll([server('u')], 'user');
    await reg.connectAll([server('ns__h')], 'host');
    await reg.connectAll(
      [server('plug__p', {}, { command: 'epoch-no-such-command-xyz' })],
      'plugin',
    );
    expect(reg.statuses().map((s) => [s.name, s.source, s.state])).toEqual([
      ['u', 'user', 'connected'],
      ['ns__h', 'host', 'connected'],
      ['plug__p', 'plugin', 'failed'],
    ]);
  });

  it('a name already registered is refused before anything starts', async () => {
    const reg = registry();
    await reg.connectAll([server('same')], 'host');
    const error = await reg
      .connectAll([server('other'), server('same')], 'user')
      .catch((e: unknown) => e);
    expect(isMcpError(error, 'duplicate_server')).toBe(true);
    expect(reg.statuses().map((s) => s.name)).toEqual(['same']);
    expect(records(join(dir.path, 'other.jsonl'))).toEqual([]);
  });

  it('reports status changes as events: connecting, then connected or failed', async () => {
    const reg = registry();
    const events: string[] = [];
    const stop = reg.onStatus((status) => events.push(`${status.name}:${status.state}`));
    await reg.connectAll(
      [server('ok'), server('bad', {}, { command: 'epoch-no-such-command-xyz' })],
      'user',
    );
    stop();
    await reg.disconnect('ok');
    expect(events.filter((e) => e.startsWith('ok:'))).toEqual(['ok:connecting', 'ok:connected']);
    expect(events.filter((e) => e.startsWith('bad:'))).toEqual(['bad:connecting', 'bad:failed']);
  });
});

describe('statuses', () => {
  it('hold no secret: not from env, headers, URL userinfo or query, nor from stderr', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const port = await freeLoopbackPort(); // nothing listens there: the remote ones fail
    const remote: HttpServerConfig = {
      ...server('remote'),
      transport: 'http',
      url: `http://user:${secret}@127.0.0.1:${port}/mcp?token=${secret}`,
      headers: { Authorization: `Bearer ${secret}`, 'X-Api-Key': secret },
    };
    const logger = memoryLogger();
    const reg = registry({ logger });
    await reg.connectAll(
      [
        server('env-ok', {}, { env: { API_TOKEN: secret } }),
        // Prints its env to stderr, then dies: the tail must not carry the value.
        server(
          'env-leak',
          { echoEnv: 'API_TOKEN', exitAtStart: 1 },
          { env: { API_TOKEN: secret } },
        ),
        remote,
        { ...remote, name: 'remote-sse', transport: 'sse' },
      ],
      'user',
    );
    const statuses = byName(reg.statuses());
    expect(statuses['env-ok']?.state).toBe('connected');
    const leak = statuses['env-leak'];
    expect(leak?.state === 'failed' && leak.stderrTail).toContain('env API_TOKEN=<redacted>');
    expect(statuses.remote?.state).toBe('failed');
    expect(statuses['remote-sse']?.state).toBe('failed');
    expect(statuses.remote?.target).toContain(`127.0.0.1:${port}/mcp`);
    const everything = JSON.stringify(reg.statuses());
    expect(everything).not.toContain(secret);
    expect(JSON.stringify(logger.lines)).not.toContain(secret);
  });
});

describe('disconnect', () => {
  it('closes and reaps one server and leaves the others connected', async () => {
    const reg = registry();
    const configs = [server('keep1'), server('drop'), server('keep2')];
    await reg.connectAll(configs, 'user');
    const dropPid = pidOf('drop');
    const events: McpServerStatus[] = [];
    reg.onStatus((status) => events.push(status));
    await reg.disconnect('drop');
    expect(isRunning(dropPid)).toBe(false);
    expect(events.map((e) => [e.name, e.state])).toEqual([['drop', 'disconnected']]);
    expect(reg.statuses().map((s) => [s.name, s.state])).toEqual([
      ['keep1', 'connected'],
      ['keep2', 'connected'],
    ]);
    expect(isRunning(pidOf('keep1'))).toBe(true);
    expect(reg.configOf('drop')).toBeUndefined();
    expect(reg.configOf('keep2')).toBe(configs[2]);
    expect(reg.tools().some((tool) => tool.name.startsWith('mcp__drop__'))).toBe(false);
    const echo = reg.tools().find((tool) => tool.name === 'mcp__keep2__echo');
    const result = await echo?.execute({ text: 'ok' }, { signal: new AbortController().signal });
    expect(result?.content).toEqual([{ type: 'text', text: 'ok' }]);
    // The name is free again.
    await reg.connectAll([server('drop')], 'user');
    expect(reg.configOf('drop')).toBeDefined();
  });

  it('the grace periods come from the options: a 20 s stdin grace is waited, not the 500 ms default', async () => {
    const reg = registry({ reap: { stdinGraceMs: 20_000, termGraceMs: 100 } });
    // The yardstick: the same server in a registry whose grace is three times the default. Once
    // its disconnect (started later) is done, a server given the default grace would be gone: it
    // dies on the SIGTERM that follows the grace.
    const yardstick = registry({ reap: { stdinGraceMs: 1_500, termGraceMs: 100 } });
    const pidFile = join(dir.path, 'patient.pids');
    const { command, args, env } = serverLaunch({ flags: ['--ignore-eof'], pidFile });
    const { name: _, ...measure } = serverLaunch({
      flags: ['--ignore-eof'],
      pidFile: join(dir.path, 'measure.pids'),
    });
    await reg.connectAll([server('patient', {}, { command, args, env })], 'user');
    await yardstick.connectAll([server('measure', {}, measure)], 'user');
    const [pid = 0] = await waitForPids(pidFile, 1);

    const closing = reg.disconnect('patient');
    await yardstick.disconnect('measure');
    expect(isRunning(pid)).toBe(true);
    process.kill(pid, 'SIGTERM');
    await closing;
    expect(isRunning(pid)).toBe(false);
  });

  it('disconnectAll closes every server', async () => {
    const reg = registry();
    await reg.connectAll([server('x'), server('y')], 'user');
    const pids = [pidOf('x'), pidOf('y')];
    await reg.disconnectAll();
    expect(reg.statuses()).toEqual([]);
    expect(pids.map(isRunning)).toEqual([false, false]);
  });
});

describe('prompts and tools', () => {
  it('lists prompts of every server that offers them, named mcp__<server>__<prompt>, and gets one', async () => {
    const reg = registry();
    await reg.connectAll(
      [server('p1', { capabilities: ALL }), server('p2', { capabilities: ALL }), server('t')],
      'user',
    );
    const prompts = await reg.listPrompts();
    expect(prompts.map((p) => [p.server, p.prompt.name])).toEqual([
      ['p1', 'greet'],
      ['p2', 'greet'],
    ]);
    // Named like tools: the name a host shows, by the same provider-safe rules.
    expect(prompts.map((p) => p.name)).toEqual(['mcp__p1__greet', 'mcp__p2__greet']);
    expect((await reg.promptsOf('p2')).map((p) => p.name)).toEqual(['mcp__p2__greet']);
    const result = await reg.getPrompt('p2', 'greet', { who: 'grace' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'hello grace' });
    const unknown = await reg.getPrompt('nope', 'greet').catch((e: unknown) => e);
    expect(isMcpError(unknown, 'unknown_server')).toBe(true);
  });

  it('tools() names tools mcp__<server>__<tool>, with resource tools for servers that declare resources', async () => {
    const reg = registry({ toolNameMaxLength: 64 });
    await reg.connectAll([server('r', { capabilities: ALL })], 'user');
    expect(reg.tools().map((tool) => tool.name)).toEqual([
      'mcp__r__echo',
      'mcp__r__sleep',
      'mcp__r__hang',
      'mcp__r__exit',
      'mcp__r__list_resources',
      'mcp__r__read_resource',
    ]);
  });
});

describe('injected transport factory', () => {
  it('drives registry logic without a process: a transport that cannot start is a failed status', async () => {
    const broken: Transport = {
      start: () => Promise.reject(new Error('socket refused by test factory')),
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const reg = registry({
      createTransport: () => ({
        transport: broken,
        stderrTail: () => '',
        close: () => broken.close(),
      }),
    });
    const [status] = await reg.connectAll([server('fake')], 'host');
    if (status?.state !== 'failed') throw new Error(`expected failed, got ${status?.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toContain('socket refused by test factory');
    expect(status.source).toBe('host');
  });
});
