import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../src/types.js';
import {
  type Behavior,
  isRunning,
  records,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { rejection, waitForState } from './support/waiting.js';

const servers = useRecordingClients();

// Long enough that a test sees the series waiting; the watchdog's own tests use short ones.
const WAITING_SERIES = [60_000];

function start(behavior: Behavior, config: Partial<StdioServerConfig> = {}) {
  return servers.start(behavior, { name: 'life', config, reconnectDelaysMs: WAITING_SERIES });
}

function serverPid(file: string): number {
  const pid = records(file).find((r) => r.event === 'start')?.pid;
  if (pid === undefined) throw new Error('the server never started');
  return pid;
}

function maxActive(file: string): number {
  return Math.max(0, ...records(file).map((r) => r.active ?? 0));
}

describe('supports_parallel', () => {
  it('false: calls to the server never overlap', async () => {
    const { client, file } = start({}, { supportsParallel: false });
    await client.connect();
    await Promise.all([1, 2, 3].map(() => client.callTool('sleep', { ms: 150 })));
    expect(records(file).filter((r) => r.event === 'call-start')).toHaveLength(3);
    expect(maxActive(file)).toBe(1);
  });

  it('true: calls run concurrently', async () => {
    // The calls end only once the test releases them: all three are seen running at once.
    const release = join(servers.dir(), 'release');
    const { client, file } = start({ release }, { supportsParallel: true });
    await client.connect();
    const calls = Promise.all([1, 2, 3].map(() => client.callTool('sleep', { ms: 300 })));
    await waitForRecords(file, (e) => e.filter((r) => r.event === 'call-start').length === 3);
    writeFileSync(release, '');
    await calls;
    expect(maxActive(file)).toBe(3);
  });

  it('a queued call that is aborted leaves the queue without ever reaching the server', async () => {
    // The first call holds the queue until the test releases it, after the abort.
    const release = join(servers.dir(), 'release');
    const { client, file } = start({ release }, { supportsParallel: false });
    await client.connect();
    const first = client.callTool('sleep', { ms: 300 });
    const stop = new AbortController();
    const queued = client.callTool('echo', { text: 'never' }, stop.signal);
    await waitForRecords(file, (e) => e.some((r) => r.event === 'call-start'));
    stop.abort();
    const error = await rejection(queued);
    expect(error.code).toBe('aborted');
    expect(error.message).toContain('never sent');
    writeFileSync(release, '');
    await first;
    const after = await client.callTool('echo', { text: 'next' });
    expect(after.content).toEqual([{ type: 'text', text: 'next' }]);
    const calls = requests(file, 'tools/call').map((r) => r.in?.params?.arguments);
    expect(calls).toEqual([{ ms: 300 }, { text: 'next' }]);
  });
});

describe('connect', () => {
  it('is idempotent: concurrent and repeated connects share one server process', async () => {
    const { client, file, states } = start({ delayMs: { initialize: 100 } });
    await Promise.all([client.connect(), client.connect()]);
    await client.connect();
    expect(records(file).filter((r) => r.event === 'start')).toHaveLength(1);
    expect(requests(file, 'initialize')).toHaveLength(1);
    expect(states.map((state) => state.kind)).toEqual(['connecting', 'connected']);
    const state = client.state;
    expect(state.kind === 'connected' && state.serverInfo).toEqual({
      name: 'recording-server',
      version: '1.2.3',
    });
    expect(state.kind === 'connected' && state.tools.map((t) => t.name)).toEqual([
      'echo',
      'sleep',
      'hang',
      'exit',
    ]);
  });

  it('connect_timeout fails the connect, and the server process is reaped', async () => {
    const { client, file } = start({ delayMs: { initialize: 10_000 } }, { connectTimeoutMs: 300 });
    const error = await rejection(client.connect());
    expect(error.code).toBe('connect_timeout');
    expect(error.message).toContain('"life"');
    expect(error.message).toContain('a longer connect timeout');
    expect(error.message).not.toMatch(/epoch mcp|mcp\.json/);
    const state = client.state;
    expect(state.kind === 'failed' && state.code).toBe('connect_timeout');
    expect(isRunning(serverPid(file))).toBe(false);
  });

  it('connect_timeout is one deadline across initialize and the first tools/list', async () => {
    // Each step alone fits in the 400 ms; together they do not.
    const { client } = start(
      { delayMs: { initialize: 250, 'tools/list': 250 } },
      { connectTimeoutMs: 400 },
    );
    const error = await rejection(client.connect());
    expect(error.code).toBe('connect_timeout');
  });

  it('a missing command fails with a message that names it and PATH, without advice for embedders', async () => {
    const { client } = start({}, { command: 'epoch-no-such-command-xyz' });
    const error = await rejection(client.connect());
    expect(error.code).toBe('command_not_found');
    const state = client.state;
    if (state.kind !== 'failed') throw new Error(`expected failed, got ${state.kind}`);
    expect(state.message).toContain('epoch-no-such-command-xyz');
    expect(state.message).toContain('PATH');
    expect(state.message).not.toContain('EMBEDDING.md');
  });

  it('a server that crashes on start fails with its stderr tail', async () => {
    const { client } = start({ stderr: 'boom: config missing', exitAtStart: 3 });
    const error = await rejection(client.connect());
    expect(error.code).toBe('connect_failed');
    const state = client.state;
    expect(state.kind === 'failed' && state.stderrTail).toContain('boom: config missing');
  });

  it('connect() while a reconnect series waits makes its attempt at once', async () => {
    const { client, file } = start({}, { connectTimeoutMs: 20_000 });
    await client.connect();
    await client.callTool('exit', {}).catch(() => {});
    await waitForState(client, 'reconnecting');
    await client.connect();
    expect(client.state.kind).toBe('connected');
    expect(records(file).filter((r) => r.event === 'start')).toHaveLength(2);
  });
});

describe('close', () => {
  it('settles everything: the call in flight and the queued call reject with connection_closed', async () => {
    const { client, file, states } = start({}, { supportsParallel: false });
    await client.connect();
    const pid = serverPid(file);
    const inFlight = rejection(client.callTool('hang', {}));
    const queued = rejection(client.callTool('echo', { text: 'x' }));
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'tools/call'));
    await client.close();
    expect((await inFlight).code).toBe('connection_closed');
    const queuedError = await queued;
    expect(queuedError.code).toBe('connection_closed');
    expect(queuedError.tool).toBe('echo');
    expect(client.state.kind).toBe('disconnected');
    expect(states.at(-1)?.kind).toBe('disconnected');
    expect(isRunning(pid)).toBe(false);
    const after = await rejection(client.callTool('echo', { text: 'x' }));
    expect(after.code).toBe('connection_closed');
  });

  it('during connect ends the attempt: connect rejects and the process is reaped', async () => {
    const { client, file } = start({ delayMs: { initialize: 10_000 } });
    const connecting = client.connect();
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'initialize'));
    await client.close();
    expect((await rejection(connecting)).code).toBe('connection_closed');
    expect(client.state.kind).toBe('disconnected');
    expect(isRunning(serverPid(file))).toBe(false);
  });
});

describe('a server that exits on its own', () => {
  it('becomes reconnecting with its stderr tail, and its call rejects with connection_closed', async () => {
    const { client } = start({});
    await client.connect();
    const error = await rejection(client.callTool('exit', {}));
    expect(error.code).toBe('connection_closed');
    await waitForState(client, 'reconnecting');
    const state = client.state;
    if (state.kind !== 'reconnecting') throw new Error('unreachable');
    expect(state.error.message).toContain('"life"');
    expect(state.stderrTail).toContain('fatal: exit tool called');
    // A call now fails at once instead of hanging.
    expect((await rejection(client.callTool('echo', { text: 'x' }))).code).toBe(
      'connection_closed',
    );
  });
});
