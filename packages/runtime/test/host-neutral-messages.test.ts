// What a host reads about its own servers names no front end: a host server is in no file and a
// host has no `epoch` command, so its statuses and errors never say "epoch mcp …" or "mcp.json".
// Real servers: the fixture server that never answers initialize or a call, and an HTTP server
// that refuses every request (401) as one that wants a login does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMcpError, prefixedName } from '@epoch-agent/plugin-mcp';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidServer, rejection, useRuntimeHome } from './runtime-helpers.js';

const test = useRuntimeHome();
const FRONT_END_WORDS = /epoch mcp|mcp\.json|connect_timeout/;

let refusing: Server;
let url: string;

beforeAll(async () => {
  refusing = createServer((_req, res) => {
    res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="test"' }).end();
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((resolve) => refusing.close(resolve));
});

describe("a host server's statuses and errors", () => {
  it('a connect that times out and a server that needs a login say so without front-end advice', async () => {
    const runtime = await test.build({
      registry: { schemaCache: null },
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: {
          // The connect timeout is what this test is about: the server never answers initialize.
          stuck: { ...pidServer('--never-start'), connectTimeout: 1 },
          locked: { transport: 'http', url },
        },
      },
    });
    const byName = new Map(runtime.mcp.statuses().map((status) => [status.name, status]));
    const stuck = byName.get('acme__stuck');
    expect(stuck?.state).toBe('failed');
    if (stuck?.state !== 'failed') return;
    expect(stuck.error.code).toBe('connect_timeout');
    expect(stuck.error.message).toContain('a longer connect timeout');
    expect(stuck.error.message).not.toMatch(FRONT_END_WORDS);

    const locked = byName.get('acme__locked');
    expect(locked?.state).toBe('needsLogin');
    if (locked?.state !== 'needsLogin') return;
    expect(locked.error.message).toMatch(/needs a (new )?login/);
    expect(locked.error.message).not.toMatch(FRONT_END_WORDS);
  });

  it('a call that times out, and a call to a server turned off, name no front end', async () => {
    const runtime = await test.build({
      registry: { schemaCache: null },
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: {
          // `slow` answers only when cancelled; the request timeout is what this test is about.
          slow: { command: process.execPath, args: [FIXTURE_SERVER, '--catalog=cli'], timeout: 1 },
          off: { ...pidServer(), enabled: false },
        },
      },
    });
    const tool = runtime.tools.get(prefixedName('acme__slow', 'slow'));
    if (tool === undefined) throw new Error('no slow tool');
    const timedOut = await rejection(tool.execute({}, { signal: new AbortController().signal }));
    expect(isMcpError(timedOut, 'request_timeout')).toBe(true);
    expect((timedOut as Error).message).toContain('a longer request timeout');
    expect((timedOut as Error).message).not.toMatch(FRONT_END_WORDS);

    const disabled = await rejection(runtime.mcp.reconnect('acme__off'));
    expect(isMcpError(disabled, 'server_disabled')).toBe(true);
    expect((disabled as Error).message).not.toMatch(FRONT_END_WORDS);
  });
});
