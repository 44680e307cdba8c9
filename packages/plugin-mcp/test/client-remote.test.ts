// The remote transports (SSE and Streamable HTTP) through the SDK's own transports, on real sockets
// on 127.0.0.1: configured headers reach every request (the SSE GET stream included), a timeout is
// cancelled on the server, and the reference server works in both modes.

import {
  type RunningEverything,
  remoteConfig,
  startEverything,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import type { RemoteServerConfig } from '../src/types.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function remote<T extends 'sse' | 'http'>(
  transport: T,
  url: string,
  overrides: Partial<RemoteServerConfig<T>> = {},
): RemoteServerConfig<T> {
  return remoteConfig(`remote-${transport}`, transport, url, {
    timeoutMs: 300_000,
    connectTimeoutMs: 20_000,
    ...overrides,
  });
}

async function fixture(mode: 'sse' | 'http'): Promise<RunningHttpMcpServer> {
  const server = await startHttpMcpServer({ mode, header: ['x-api-key', 'k-123'] });
  cleanups.push(() => server.stop());
  return server;
}

// No OAuth login for any of these servers: a 401 must be needsLogin, never a stored token's refresh.
function client(config: RemoteServerConfig<'sse' | 'http'>): McpClient {
  const logins = ownLogins();
  cleanups.push(async () => logins.remove());
  const created = new McpClient({ config, createTransport: logins.createTransport });
  cleanups.push(() => created.close());
  return created;
}

describe.each(['sse', 'http'] as const)('%s transport', (mode) => {
  it('sends the configured headers on every request, the event stream included', async () => {
    const server = await fixture(mode);
    const c = client(remote(mode, server.url, { headers: { 'X-Api-Key': 'k-123' } }));
    await c.connect();
    const result = await c.callTool('echo', { text: 'over http' });
    expect(result.content).toEqual([{ type: 'text', text: 'over http' }]);
    await c.ping();
    await c.close();
    const rpcs = server.records.map((r) => r.rpc).filter((rpc) => rpc !== undefined);
    expect(rpcs).toEqual(
      expect.arrayContaining([
        'initialize',
        'notifications/initialized',
        'tools/list',
        'tools/call',
        'ping',
      ]),
    );
    // The event stream: SSE's GET that the whole session hangs on, Streamable HTTP's optional GET.
    expect(server.records.filter((r) => r.httpMethod === 'GET')).toHaveLength(1);
    expect(server.records.length).toBeGreaterThanOrEqual(6);
    expect(server.records.filter((r) => r.header !== 'k-123')).toEqual([]);
  });

  it('without the header the server requires, connect ends in needsLogin (HTTP 401)', async () => {
    const server = await fixture(mode);
    const c = client(remote(mode, server.url, { connectTimeoutMs: 5_000 }));
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'needs_login')).toBe(true);
    const state = c.state;
    if (state.kind !== 'needsLogin') throw new Error(`expected needsLogin, got ${state.kind}`);
    expect(state.message).toMatch(/needs a (new )?login/);
    expect(state.message).not.toMatch(/epoch mcp|mcp\.json/);
  });

  it('a timed-out call is cancelled on the server with its request id', async () => {
    const server = await fixture(mode);
    const c = client(
      remote(mode, server.url, { headers: { 'X-Api-Key': 'k-123' }, timeoutMs: 300 }),
    );
    await c.connect();
    const error = await c.callTool('hang', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'request_timeout')).toBe(true);
    const call = server.records.find((r) => r.rpc === 'tools/call');
    await waitUntil(
      () => server.records.some((r) => r.rpc === 'notifications/cancelled'),
      'the cancellation to reach the server',
    );
    const cancelled = server.records.find((r) => r.rpc === 'notifications/cancelled');
    expect(call?.id).toBeTypeOf('number');
    expect(cancelled?.params?.requestId).toBe(call?.id);
  });
});

describe.each(['sse', 'http'] as const)('reference server (server-everything) over %s', (mode) => {
  it('connects, lists tools and prompts, and calls echo', async () => {
    const everything: RunningEverything = await startEverything(mode);
    cleanups.push(() => everything.stop());
    if (everything.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
    const c = client(remote(mode, everything.endpoint.url));
    await c.connect();
    const state = c.state;
    if (state.kind !== 'connected') throw new Error(`expected connected, got ${state.kind}`);
    expect(state.tools.map((t) => t.name)).toContain('echo');
    const result = await c.callTool('echo', { message: 'hi everything' });
    expect(JSON.stringify(result.content)).toContain('hi everything');
    expect((await c.listPrompts()).length).toBeGreaterThan(0);
    expect((await c.listResources()).length).toBeGreaterThan(0);
  });
});
