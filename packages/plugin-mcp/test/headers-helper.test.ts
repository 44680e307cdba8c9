// Headers from a command (`headers_helper`) and from a host's function, on real sockets and real
// child processes: a server on 127.0.0.1 that takes only the token it holds now, and a helper
// script that prints the token a file holds and writes down each time it runs (and why). The
// config is read from a real mcp.json, as a person writes it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteConfig, waitUntil } from '@epoch-agent/testkit';
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeLaunch, launchKey } from '../src/config/launch.js';
import { loadMcpConfig } from '../src/config/load.js';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';
import { serverRedactor } from '../src/secrets.js';
import { headersSource } from '../src/transport/headers-helper.js';
import type { McpServerConfig, McpServerStatus, RemoteServerConfig } from '../src/types.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';

const cleanups: Array<() => Promise<void> | void> = [];
let dir: string;
/** What the server takes now, and what the helper prints now. */
let accepted = 'tok-first-4f1c9a77';
let printed = 'tok-first-4f1c9a77';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-headers-helper-'));
  accepted = 'tok-first-4f1c9a77';
  printed = accepted;
  await writeFile(join(dir, 'token'), printed);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

// The helper: prints {"Authorization": "Bearer <the token file>"} (or what MODE says), and writes
// the reason it was asked for into runs.log.
const HELPER = `
const fs = require('node:fs');
const path = require('node:path');
const here = path.dirname(process.argv[1]);
fs.appendFileSync(path.join(here, 'runs.log'), process.env.EPOCH_MCP_HEADERS_REASON + ' ' + process.env.EPOCH_MCP_SERVER_NAME + '\\n');
const mode = process.argv[2] ?? 'ok';
if (mode === 'fail') { process.stderr.write('no credentials\\n'); process.exit(3); }
if (mode === 'text') { process.stdout.write('Bearer not-json'); process.exit(0); }
if (mode === 'huge') { process.stdout.write('x'.repeat(200000)); process.exit(0); }
if (mode === 'array') { process.stdout.write('[1]'); process.exit(0); }
if (mode === 'hang') {
  const grandchild = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  fs.writeFileSync(path.join(here, 'grandchild.pid'), String(grandchild.pid));
  setInterval(() => {}, 1000);
  return;
}
const token = fs.readFileSync(path.join(here, 'token'), 'utf8');
process.stdout.write(JSON.stringify({ Authorization: 'Bearer ' + token, 'X-Tenant': 'acme' }));
`;

async function server(
  mode: 'http' | 'sse' = 'http',
  refuseWith: 401 | 403 = 401,
): Promise<RunningHttpMcpServer> {
  const running = await startHttpMcpServer({
    mode,
    header: ['authorization', () => `Bearer ${accepted}`],
    refuseWith,
  });
  cleanups.push(() => running.stop());
  return running;
}

/** A real mcp.json holding one remote server with `entry`, read as the runtime reads it. */
async function configOf(url: string, entry: object): Promise<McpServerConfig> {
  await writeFile(join(dir, 'helper.cjs'), HELPER);
  const file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({ servers: { keyed: { type: 'http', url, connect_timeout: 20, ...entry } } }),
  );
  const { servers, diagnostics } = await loadMcpConfig(file);
  expect(diagnostics).toEqual([]);
  const [config] = servers;
  if (config === undefined) throw new Error('no server read');
  return config;
}

async function runs(): Promise<string[]> {
  const text = await readFile(join(dir, 'runs.log'), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '');
}

/** Everything a person or model could read of the client: statuses and log lines. */
const readable: string[] = [];
function client(config: McpServerConfig): McpClient {
  const logins = ownLogins();
  cleanups.push(() => logins.remove());
  const log = (message: string, fields?: object) =>
    readable.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const created = new McpClient({
    config,
    createTransport: logins.createTransport,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  created.onStateChange((state) => readable.push(JSON.stringify(state)));
  cleanups.push(() => created.close());
  return created;
}

const helper = (mode = 'ok') => ({
  headers_helper: [process.execPath, join(dir, 'helper.cjs'), mode],
});

describe('headers_helper', () => {
  it('is run before the first request, and what it prints is on every request, over "headers"', async () => {
    const running = await server();
    const config = await configOf(running.url, {
      headers: { 'X-Tenant': 'written', 'X-Kept': 'yes' },
      ...helper(),
    });
    const c = client(config);
    await c.connect();
    await c.callTool('echo', { text: 'hi' });
    expect(await runs()).toEqual(['connect keyed']);
    expect(running.records.length).toBeGreaterThan(2);
    for (const record of running.records) expect(record.header).toBe(`Bearer ${accepted}`);
  });

  it('its headers win over "headers" of the same name; the others of "headers" are still sent', async () => {
    const entry = { headers: { 'X-Tenant': 'written', 'X-Kept': 'yes' }, ...helper() };
    for (const header of [
      ['x-tenant', 'acme'],
      ['x-kept', 'yes'],
    ] as const) {
      const running = await startHttpMcpServer({ mode: 'http', header });
      cleanups.push(() => running.stop());
      const c = client(await configOf(running.url, entry));
      await c.connect();
      expect(running.records.map((r) => r.header)).toEqual(running.records.map(() => header[1]));
      await c.close();
    }
  });

  it('over SSE too: the event stream and the messages carry it', async () => {
    const running = await server('sse');
    const c = client(await configOf(running.url, { ...helper(), type: 'sse' }));
    await c.connect();
    await c.callTool('echo', { text: 'hi' });
    expect(running.records.some((r) => r.httpMethod === 'GET')).toBe(true);
    for (const record of running.records) expect(record.header).toBe(`Bearer ${accepted}`);
    expect(await runs()).toEqual(['connect keyed']);
  });

  it.each([401, 403] as const)(
    'is run again after a %i, once, and the request goes through with what it prints then',
    async (status) => {
      const running = await server('http', status);
      const c = client(await configOf(running.url, helper()));
      await c.connect();
      // The credential rotates: the server takes only the new one, which the helper now prints.
      accepted = 'tok-second-81be20cd';
      await writeFile(join(dir, 'token'), accepted);
      const result = await c.callTool('echo', { text: 'after rotation' });
      expect(result.content).toEqual([{ type: 'text', text: 'after rotation' }]);
      expect(await runs()).toEqual(['connect keyed', 'refused keyed']);
      expect(c.state.kind).toBe('connected');
    },
  );

  it('a server that refuses what it prints after the second run too: needsLogin, and no third run', async () => {
    const running = await server();
    accepted = 'tok-nobody-has-this-one';
    const c = client(await configOf(running.url, helper()));
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'needs_login')).toBe(true);
    expect((error as Error).message).toContain(
      'MCP server "keyed" needs other credentials: it refused the Authorization its headers helper gave',
    );
    expect(c.state.kind).toBe('needsLogin');
    expect(await runs()).toEqual(['connect keyed', 'refused keyed']);
  });

  it.each([
    ['fail', 'exited with code 3'],
    ['text', 'printed something that is not JSON'],
    ['array', 'printed no JSON object of headers'],
    ['huge', 'printed more than 64 KiB and was stopped'],
  ])(
    'a helper that %s is headers_helper_failed, naming the server and the program; nothing is sent',
    async (mode, why) => {
      const running = await server();
      const c = client(await configOf(running.url, helper(mode)));
      const error = await c.connect().catch((e: unknown) => e);
      expect(isMcpError(error, 'headers_helper_failed')).toBe(true);
      const { message } = error as Error;
      expect(message).toContain('MCP server "keyed"');
      expect(message).toContain(why);
      expect(message).toContain(process.execPath);
      expect(message).not.toContain('not-json');
      expect(running.records).toEqual([]);
      expect(c.state).toMatchObject({ kind: 'failed', code: 'headers_helper_failed' });
    },
  );

  it('a program that is not there is said so', async () => {
    const running = await server();
    const c = client(await configOf(running.url, { headers_helper: ['./no-such-helper'] }));
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'headers_helper_failed')).toBe(true);
    expect((error as Error).message).toContain(`"${join(dir, 'no-such-helper')}" was not found`);
  });

  it('what it prints is never in a state, a log line or an error', async () => {
    const running = await server();
    readable.length = 0;
    const c = client(await configOf(running.url, { ...helper(), timeout: 30 }));
    await c.connect();
    accepted = 'tok-nobody-has-this-one';
    await writeFile(join(dir, 'token'), 'tok-rotated-55aa01ee');
    const error = await c.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
    readable.push(String((error as Error).message), JSON.stringify(c.state));
    // A server that echoes it back (a tool result shown to a person, a saved result) has it blanked.
    readable.push(c.redactor('echoed: Bearer tok-first-4f1c9a77 and tok-rotated-55aa01ee'));
    const text = readable.join('\n');
    expect(text.length).toBeGreaterThan(100);
    for (const secret of ['tok-first-4f1c9a77', 'tok-rotated-55aa01ee']) {
      expect(text).not.toContain(secret);
    }
  });

  it('is part of what an approval covers: its words change the launch key and are shown', async () => {
    const url = 'http://127.0.0.1:9/mcp';
    const without = await configOf(url, {});
    const withHelper = await configOf(url, helper());
    const other = await configOf(url, helper('fail'));
    expect(launchKey(withHelper)).not.toBe(launchKey(without));
    expect(launchKey(other)).not.toBe(launchKey(withHelper));
    expect(describeLaunch(withHelper).headersHelper).toEqual([
      process.execPath,
      join(dir, 'helper.cjs'),
      'ok',
    ]);
  });

  it('is reported where written when it is not a list of words', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(
      file,
      JSON.stringify({
        servers: {
          a: { type: 'http', url: 'http://127.0.0.1:9/mcp', headersHelper: 'gcloud auth token' },
          b: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers_helper: [] },
          c: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers_helper: ['a', 'x\u0000y'] },
        },
      }),
    );
    const { servers, diagnostics } = await loadMcpConfig(file);
    expect(servers).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('headersHelper must be a command as a list of words'),
      expect.stringContaining('"headers_helper" of server "b" needs the program to run'),
      expect.stringContaining('word 1 of "headers_helper" of server "c" holds a NUL character'),
    ]);
  });
});

describe("the schedule and bounds of a helper (the connection's headers source)", () => {
  const scrub = serverRedactor(remoteConfig('keyed', 'http', 'http://127.0.0.1:9/mcp'));
  const ping = (url: string, fetch: FetchLike) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      }),
    });

  it('is run again before a request once what it gave is older than its lifetime', async () => {
    const running = await server();
    const config = await configOf(running.url, helper());
    const source = headersSource({ config: remote(config), scrub, lifetimeMs: 1 });
    const fetch = source?.fetch(globalThis.fetch) as FetchLike;
    expect((await ping(running.url, fetch)).status).toBe(200);
    // Its lifetime is 1 ms: the next request is made once that has surely passed.
    const first = Date.now();
    await waitUntil(() => Date.now() - first > 2, 'its lifetime to pass');
    expect((await ping(running.url, fetch)).status).toBe(200);
    expect(await runs()).toEqual(['connect keyed', 'expired keyed']);
  });

  it('one that does not finish in time is stopped with everything it started', async () => {
    const running = await server();
    const config = await configOf(running.url, helper('hang'));
    const source = headersSource({ config: remote(config), scrub, timeoutMs: 1_000 });
    const fetch = source?.fetch(globalThis.fetch) as FetchLike;
    const error = await ping(running.url, fetch).catch((e: unknown) => e);
    expect(isMcpError(error, 'headers_helper_failed')).toBe(true);
    expect((error as Error).message).toContain('did not finish within 1 s and was stopped');
    const pid = Number(await readFile(join(dir, 'grandchild.pid'), 'utf8'));
    await waitUntil(() => !alive(pid), 'the grandchild to be gone');
    expect(running.records).toEqual([]);
  });
});

function remote(config: McpServerConfig): RemoteServerConfig<'sse' | 'http'> {
  if (config.transport === 'stdio') throw new Error('a remote server was written');
  return config;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a host's headers helper (registry option)", () => {
  it('is asked before the first request and after a 401, with the server and the reason', async () => {
    const running = await server();
    const asked: string[] = [];
    const logins = ownLogins();
    cleanups.push(() => logins.remove());
    const registry = new McpRegistry({
      schemaCache: null,
      createTransport: logins.createTransport,
      headersHelper: ({ server, reason, url }) => {
        asked.push(`${reason} ${server} ${url === running.url}`);
        return { authorization: `Bearer ${printed}` };
      },
    });
    cleanups.push(() => registry.disconnectAll());
    const config = await configOf(running.url, {});
    await registry.connectAll([config], 'host');
    const status = registry.statuses()[0] as McpServerStatus;
    expect(status.state).toBe('connected');
    accepted = 'tok-host-second-7d3e';
    printed = accepted;
    const echo = registry.tools().find((t) => t.name === 'mcp__keyed__echo');
    await echo?.execute({ text: 'x' }, { signal: AbortSignal.timeout(10_000) });
    expect(asked).toEqual(['connect keyed true', 'refused keyed true']);
  });
});
