// A login's connections send the headers every connection of the server sends: the configured ones
// and its headers helper's (a `headers_helper` command, a real node script here: support/
// helper-script.ts, or the host's function). On real sockets: an MCP server with its own authorization server on 127.0.0.1
// (support/oauth-grant-server.ts) that lets in a request carrying its key, and otherwise answers
// 401 with its OAuth metadata. The config is read from a real mcp.json, as a person writes it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config/load.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { loginToServer } from '../src/oauth/login.js';
import type { McpHeadersHelper, McpHeadersRequest } from '../src/transport/headers-helper-rules.js';
import type { McpServerConfig } from '../src/types.js';
import { type HelperScript, helperScript } from './support/helper-script.js';
import {
  type OAuthGrantServerOptions,
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from './support/oauth-grant-server.js';
import { ownLogins } from './support/own-logins.js';

const KEY = 'gateway-key-5e0d3b9a7c41';
const cleanups: Array<() => Promise<void> | void> = [];
let dir: string;
let helper: HelperScript;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-login-headers-'));
  helper = await helperScript(dir);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function server(options: OAuthGrantServerOptions = {}): Promise<RunningOAuthGrantServer> {
  const running = await startOAuthGrantServer({
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethods: ['none'],
    ...options,
  });
  cleanups.push(() => running.stop());
  return running;
}

/** The server as an mcp.json names it, with the helper script as its `headers_helper` or none. */
async function configOf(url: string, withHelper: boolean): Promise<McpServerConfig> {
  const entry = {
    type: 'http',
    url,
    headers: { 'X-Team': 'search' },
    ...(withHelper ? { headers_helper: helper.words } : {}),
  };
  const file = join(dir, 'mcp.json');
  await writeFile(file, JSON.stringify({ servers: { keyed: entry } }));
  const { servers, diagnostics } = await loadMcpConfig(file);
  expect(diagnostics).toEqual([]);
  const [config] = servers;
  if (config === undefined) throw new Error('no server read');
  return config;
}

function login(config: McpServerConfig, headersHelper?: McpHeadersHelper) {
  const logins = ownLogins();
  cleanups.push(() => logins.remove());
  return loginToServer({
    config,
    store: logins.store,
    onAuthorizationUrl: () => {},
    // The browser: follows the authorization endpoint's redirect to the login's callback.
    openUrl: async (url) => void (await fetch(url)).body?.cancel(),
    timeoutMs: 20_000,
    ...(headersHelper === undefined ? {} : { headersHelper }),
  });
}

const mcpRequests = (running: RunningOAuthGrantServer) =>
  running.requests.filter((request) => request.path === '/mcp');

describe("a login's check without a token", () => {
  it("sends what the entry's headers_helper prints: a server its key lets in needs no login", async () => {
    const running = await server({ keyHeader: ['X-Api-Key', KEY] });
    await helper.print({ 'X-Api-Key': KEY });
    const error = await login(await configOf(running.url, true)).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_not_needed')).toBe(true);
    expect((error as Error).message).toBe(
      'MCP server "keyed" needs no login: it answered without one and lists 1 tool. Nothing was stored.',
    );
    // No OAuth flow was begun: nothing registered, nobody sent to the authorization endpoint.
    expect(running.authorizations).toEqual([]);
    expect(running.requests.filter((r) => r.path !== '/mcp')).toEqual([]);
    expect(await helper.runs()).toEqual(['connect']);
    for (const request of mcpRequests(running)) {
      expect(request.headers['x-api-key']).toBe(KEY);
      expect(request.headers['x-team']).toBe('search');
    }
  });

  it("sends what the host's function gives, asked as a connection asks it", async () => {
    const running = await server({ keyHeader: ['X-Api-Key', KEY] });
    const asked: Omit<McpHeadersRequest, 'signal'>[] = [];
    const host: McpHeadersHelper = ({ server, url, reason }) => {
      asked.push({ server, url, reason });
      return { 'X-Api-Key': KEY };
    };
    const error = await login(await configOf(running.url, false), host).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_not_needed')).toBe(true);
    expect(running.authorizations).toEqual([]);
    expect(asked).toEqual([{ server: 'keyed', url: running.url, reason: 'connect' }]);
  });

  it('a helper that gives no headers ends the login there, naming it: nothing is sent to the server', async () => {
    const running = await server({ keyHeader: ['X-Api-Key', KEY] });
    const error = await login(await configOf(running.url, true)).catch((e: unknown) => e);
    expect(isMcpError(error, 'headers_helper_failed')).toBe(true);
    expect((error as Error).message).toContain('MCP server "keyed": its headers helper');
    expect((error as Error).message).toContain('exited with code 3');
    expect(running.requests).toEqual([]);
    expect(await helper.runs()).toEqual(['connect']);
  });

  it("an Authorization of the helper's that the server refuses twice is its challenge: the login's token wins over it", async () => {
    const running = await server({ challengeScope: 'read' });
    await helper.print({ Authorization: `Bearer ${KEY}` });
    const result = await login(await configOf(running.url, true));
    expect(result.toolCount).toBe(1);
    // The scope the refusal named is the one asked for.
    expect(running.authorizations.map((query) => query.get('scope'))).toEqual(['read']);
    expect(running.bearers.at(-1)).toBe(running.issued.at(-1));
    expect(await helper.runs()).toEqual(['connect', 'refused', 'connect']);
  });
});

describe("a login's check with the new token", () => {
  it("sends the host's function's headers too: a gateway that wants its key besides the token", async () => {
    const running = await server({
      // The gateway in front of the server: nothing reaches it without the key.
      intercept: (request) =>
        request.path === '/mcp' && request.headers['x-gateway'] !== KEY
          ? { status: 403, body: { error: 'no gateway key' } }
          : undefined,
    });
    const host: McpHeadersHelper = () => ({ 'X-Gateway': KEY });
    const result = await login(await configOf(running.url, false), host);
    expect(result.toolCount).toBe(1);
    expect(running.authorizations).toHaveLength(1);
    for (const request of mcpRequests(running)) expect(request.headers['x-gateway']).toBe(KEY);
  });
});
