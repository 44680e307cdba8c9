// Connection life over the remote transports, on real sockets on 127.0.0.1
// (support/http-mcp-server.ts): a Streamable HTTP session the server forgot is re-initialized
// once and the call sent again; a 401 is `needsLogin` and never retried; a server that goes away
// is noticed without any keepalive: a Streamable HTTP one when a request (here its event stream's
// retry) is refused, a legacy SSE one from its event stream.
import { remoteConfig, startEverything } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import type { McpConnectionState } from '../src/connection/state.js';
import type { RemoteServerConfig } from '../src/types.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';
import { failsAtOnce, rejection, waitForState } from './support/waiting.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(
  options: Parameters<typeof startHttpMcpServer>[0],
): Promise<RunningHttpMcpServer> {
  const running = await startHttpMcpServer(options);
  cleanups.push(() => running.stop());
  return running;
}

function client(
  transport: 'sse' | 'http',
  url: string,
  headers: Record<string, string> = {},
): { client: McpClient; states: McpConnectionState[] } {
  const config: RemoteServerConfig<typeof transport> = remoteConfig('far', transport, url, {
    headers,
    connectTimeoutMs: 5_000,
  });
  // No OAuth login for the server: a 401 must be needsLogin, never a stored token's refresh.
  const logins = ownLogins();
  cleanups.push(async () => logins.remove());
  const created = new McpClient({
    config,
    reconnectDelaysMs: [50, 100, 200],
    createTransport: logins.createTransport,
  });
  cleanups.push(() => created.close());
  const states: McpConnectionState[] = [];
  created.onStateChange((state) => states.push(state));
  return { client: created, states };
}

/**
 * Resolves once a reconnect series started now, on a client of another server that goes away, has
 * given up: a positive event later than any attempt of the same series scheduled before it.
 */
async function aSeriesLater(): Promise<void> {
  const other = await server({ mode: 'sse' });
  const { client: sentinel } = client('sse', other.url);
  await sentinel.connect();
  await other.stop();
  await waitForState(sentinel, 'failed');
}

function rpcs(running: RunningHttpMcpServer, rpc: string): number {
  return running.records.filter((r) => r.rpc === rpc).length;
}

describe('Streamable HTTP session the server forgot (404)', () => {
  it('is initialized again once, and the call is sent again and answers', async () => {
    const running = await server({ mode: 'http' });
    const { client: c, states } = client('http', running.url);
    await c.connect();
    await c.callTool('echo', { text: 'one' });
    running.expireSessions();
    const result = await c.callTool('echo', { text: 'two' });
    expect(result.content).toEqual([{ type: 'text', text: 'two' }]);
    expect(rpcs(running, 'initialize')).toBe(2);
    // "two" went out twice: refused with 404 on the old session, answered on the new one.
    const calls = running.records.filter((r) => r.rpc === 'tools/call');
    expect(calls.map((r) => r.params?.arguments)).toEqual([
      { text: 'one' },
      { text: 'two' },
      { text: 'two' },
    ]);
    const order = running.records.map((r) => r.rpc).filter((rpc) => rpc !== undefined);
    const refused = order.indexOf('tools/call', order.indexOf('tools/call') + 1);
    // The new connection starts from the era the first one met (this 2025 server answered its
    // server/discover with "method not found"): straight to initialize, no second probe.
    expect(order.filter((rpc) => rpc === 'server/discover')).toHaveLength(1);
    expect(order.slice(refused)).toEqual([
      'tools/call',
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
    ]);
    // Transparent: the server was never anything but connected.
    expect(new Set(states.map((s) => s.kind))).toEqual(new Set(['connecting', 'connected']));
  });

  it('is initialized again only once per call: a second 404 fails the call', async () => {
    const running = await server({ mode: 'http', fault: 'forgetOnCall' });
    const { client: c } = client('http', running.url);
    await c.connect();
    const error = await rejection(c.callTool('echo', { text: 'lost' }));
    expect(error.code).toBe('request_failed');
    expect(error.message).toContain('MCP server "far": tools/call "echo" failed');
    expect(error.message).toContain('answered 404 again');
    expect(rpcs(running, 'initialize')).toBe(2);
    expect(rpcs(running, 'tools/call')).toBe(2);
    expect(c.state.kind).toBe('connected');
  });
});

describe.each(['sse', 'http'] as const)('HTTP 401 over %s', (mode) => {
  it('is needsLogin: never retried, and a call gets the login message at once', async () => {
    const running = await server({ mode, header: ['x-api-key', 'k-123'] });
    const { client: c } = client(mode, running.url, { 'X-Api-Key': 'wrong' });
    const error = await rejection(c.connect());
    expect(error.code).toBe('needs_login');
    const state = c.state;
    if (state.kind !== 'needsLogin') throw new Error(`expected needsLogin, got ${state.kind}`);
    expect(state.message).toMatch(/needs a (new )?login/);
    expect(state.message).not.toMatch(/epoch mcp|mcp\.json/);
    expect(state.message).not.toContain('wrong');
    const refused = running.records.length;
    expect(refused).toBe(1);

    // No watchdog: nothing is asked again. A whole series (50, 100, 200 ms) that another client
    // starts after this point runs its course first; any attempt scheduled here would come sooner.
    const states = c.state;
    await aSeriesLater();
    expect(c.state).toBe(states);
    expect(running.records.length).toBe(refused);
    // At once: nothing is sent and nothing is waited for; the state stays the one it was.
    const calling = c.callTool('echo', { text: 'x' });
    const call = await failsAtOnce(calling);
    expect(call.code).toBe('needs_login');
    expect(call.message).toMatch(/needs a (new )?login/);
    expect(running.records.length).toBe(refused);
    expect(c.state).toBe(states);

    // An explicit reconnect asks once more, and stops at the same answer.
    expect((await rejection(c.reconnect())).code).toBe('needs_login');
    expect(running.records.length).toBe(refused + 1);
  });
});

describe('Streamable HTTP server that goes away', () => {
  it("the reference server: noticed from its event stream's retry (no call, no keepalive), ECONNREFUSED named", async () => {
    const everything = await startEverything('http');
    cleanups.push(() => everything.stop());
    if (everything.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
    const { client: c, states } = client('http', everything.endpoint.url);
    await c.connect();
    await everything.stop();
    // The SDK retries the GET stream after 1 s; that retry is the request that finds it gone: no
    // call is made and keepalive is off, so nothing else could.
    await waitForState(c, 'reconnecting');
    const down = c.state;
    if (down.kind !== 'reconnecting') throw new Error('unreachable');
    expect(down.error.message).toMatch(
      /^MCP server "far" cannot be reached any more: the connection was refused \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/,
    );
    await waitForState(c, 'failed');
    expect(states.filter((s) => s.kind === 'reconnecting')).toHaveLength(3);
  });
});

describe('legacy SSE server that goes away', () => {
  it('is noticed from its event stream at once (no keepalive), then failed after the series', async () => {
    const running = await server({ mode: 'sse' });
    const { client: c, states } = client('sse', running.url);
    await c.connect();
    await running.stop();
    await waitForState(c, 'reconnecting');
    // Noticed by the end of its event stream (no call is made, keepalive is off).
    const down = c.state;
    expect(down.kind === 'reconnecting' && down.error.message).toContain('SSE event stream');
    await waitForState(c, 'failed');
    const attempts = states.flatMap((s) => (s.kind === 'reconnecting' ? [s.attempt] : []));
    expect(attempts).toEqual([1, 2, 3]);
  });
});
