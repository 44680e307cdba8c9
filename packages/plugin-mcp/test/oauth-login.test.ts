// What an interactive login asks for and whom it trusts, on real sockets: an MCP server with its
// own authorization server on 127.0.0.1 (support/oauth-grant-server.ts) records every
// authorization, registration and token request. The scopes (found where the server states them,
// accumulating across step-ups, `offline_access` only where the authorization server lists it),
// the authorization response's issuer (RFC 9207), a server that moves to another authorization
// server, and how the client registers (application_type, a Client ID Metadata Document).
import { freeLoopbackPort, remoteConfig, startModernHttp } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { loginToServer } from '../src/oauth/login.js';
import type { HttpServerConfig, McpOAuthConfig } from '../src/types.js';
import {
  type OAuthGrantServerOptions,
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from './support/oauth-grant-server.js';
import { type OwnLogins, ownLogins } from './support/own-logins.js';

const CLIENT_METADATA_URL = 'https://epoch.example/oauth/client.json';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly server: RunningOAuthGrantServer;
  readonly logins: OwnLogins;
  readonly config: HttpServerConfig;
  login(): ReturnType<typeof loginToServer>;
  /** A client of the server as the agent has one, with the logins of `logins`. */
  client(): McpClient;
}

async function setup(
  options: OAuthGrantServerOptions = {},
  oauth?: McpOAuthConfig,
): Promise<Setup> {
  const server = await startOAuthGrantServer({
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethods: ['none'],
    ...options,
  });
  cleanups.push(() => server.stop());
  const logins = ownLogins();
  cleanups.push(() => logins.remove());
  const config = remoteConfig('scoped', 'http', server.url, oauth === undefined ? {} : { oauth });
  return {
    server,
    logins,
    config,
    login: () =>
      loginToServer({
        config,
        store: logins.store,
        onAuthorizationUrl: () => {},
        openUrl,
        timeoutMs: 10_000,
      }),
    client: () => {
      const client = new McpClient({ config, createTransport: logins.createTransport });
      cleanups.push(() => client.close());
      return client;
    },
  };
}

/** The browser: it follows the authorization endpoint's redirect to the login's callback. */
async function openUrl(url: string): Promise<void> {
  await (await fetch(url)).body?.cancel();
}

/** The scope of each authorization request so far. */
const asked = (server: RunningOAuthGrantServer) =>
  server.authorizations.map((query) => query.get('scope'));

const registrations = (server: RunningOAuthGrantServer) =>
  server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/register'));

describe('a login to a server that speaks only 2026-07-28', () => {
  it('negotiates the revision as the agent does, without a token and with the new one', async () => {
    const modern = await startModernHttp(['--modern-only']);
    cleanups.push(() => modern.stop());
    const s = await setup({ upstream: modern.url, challengeScope: 'read' });
    // The server's four tools, listed over a connection that spoke 2026-07-28: a bare 2025
    // initialize it refuses.
    expect((await s.login()).toolCount).toBe(4);
    expect(asked(s.server)).toEqual(['read']);
    const mcp = s.server.requests.filter((r) => r.path === '/mcp');
    for (const request of mcp) expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(mcp.map((r) => JSON.parse(r.body).method)).toEqual([
      'server/discover',
      'server/discover',
      'tools/list',
    ]);
  });
});

describe('the scope a login asks for', () => {
  it('is the one the server names when it refuses tools/list, though it let the handshake through', async () => {
    const s = await setup({ openHandshake: true, challengeScope: 'read' });
    await s.login();
    expect(asked(s.server)).toEqual(['read']);
  });

  it('accumulates across step-ups: each login asks again for all that the ones before asked', async () => {
    const s = await setup({ challengeScope: 'read', toolScopes: { edit: 'write', wipe: 'admin' } });
    await s.login();
    const client = s.client();
    await client.connect();
    const edit = await client.callTool('edit', {}).catch((e: unknown) => e);
    expect(isMcpError(edit, 'insufficient_scope')).toBe(true);
    await s.login();
    await client.reconnect();
    await client.callTool('edit', {});
    const wipe = await client.callTool('wipe', {}).catch((e: unknown) => e);
    expect(isMcpError(wipe, 'insufficient_scope')).toBe(true);
    await s.login();
    await client.reconnect();
    // The third login still asks for `write`, which only the second one's step-up named.
    expect(asked(s.server)).toEqual(['read', 'read write', 'read write admin']);
    await client.callTool('edit', {});
    await client.callTool('wipe', {});
  });

  it('adds offline_access where the authorization server lists it, and registers for refresh tokens', async () => {
    const s = await setup({ challengeScope: 'read', scopesSupported: ['read', 'offline_access'] });
    await s.login();
    expect(asked(s.server)).toEqual(['read offline_access']);
    const [registration] = registrations(s.server);
    expect(JSON.parse(registration?.body ?? '{}').grant_types).toContain('refresh_token');
  });

  it('does not add offline_access where the authorization server does not list it', async () => {
    const s = await setup({ challengeScope: 'read', scopesSupported: ['read'] });
    await s.login();
    expect(asked(s.server)).toEqual(['read']);
  });

  it('is remembered for the next login without the offline_access the SDK added', async () => {
    // The next login adds it again only if the authorization server still lists it then.
    const s = await setup({ challengeScope: 'read', scopesSupported: ['read', 'offline_access'] });
    await s.login();
    expect((await s.logins.store.load(s.server.url))?.requiredScope).toBe('read');
  });
});

describe('the issuer of the authorization response (RFC 9207)', () => {
  it.each([
    [
      'carries none though its metadata promises one',
      { issParameter: 'none' },
      'carried no issuer',
    ],
    ['names another authorization server', { issParameter: 'other' }, 'named an issuer'],
  ] as const)(
    'an answer that %s: refused before the code is used, naming the server and what to do',
    async (_what, options, why) => {
      const s = await setup({ issParameterSupported: true, ...options });
      const error = await s.login().catch((e: unknown) => e);
      expect(isMcpError(error, 'login_failed')).toBe(true);
      const { message } = error as Error;
      expect(message).toContain('Login to MCP server "scoped" was stopped');
      expect(message).toContain(why);
      expect(message).toContain('Log in again');
      expect(message).not.toContain('epoch mcp');
      // The issuer it was sent is the other side's text: not shown.
      expect(message).not.toContain('mix-up.example');
      expect(s.server.tokenRequests).toEqual([]);
      expect(await s.logins.store.load(s.server.url)).toBeUndefined();
    },
  );

  it.each([
    [
      'another authorization server',
      'other',
      'was stopped: the authorization response named an issuer',
    ],
    ['its own', 'issuer', 'was refused by the authorization server (access_denied)'],
  ] as const)(
    'an error answer with the iss of %s is reported as that',
    async (_whose, issParameter, shown) => {
      const s = await setup({
        issParameterSupported: true,
        issParameter,
        authorizationError: 'access_denied',
      });
      const error = await s.login().catch((e: unknown) => e);
      expect(isMcpError(error, 'login_failed')).toBe(true);
      expect((error as Error).message).toContain(shown);
    },
  );

  it('an answer without one is taken from an authorization server that does not promise it', async () => {
    const s = await setup({ issParameter: 'none' });
    expect((await s.login()).toolCount).toBe(1);
  });

  it('an answer naming the issuer is taken where it is promised', async () => {
    const s = await setup({ issParameterSupported: true });
    expect((await s.login()).toolCount).toBe(1);
  });
});

describe('a server that moves to another authorization server', () => {
  it('the next login registers with the new one and never shows it the old client', async () => {
    const s = await setup({ issuerPath: '/as1' });
    await s.login();
    const client = s.client();
    await client.connect();
    s.server.moveAuthorizationServer('/as2');
    await client.reconnect().catch(() => {});
    expect(client.state.kind).toBe('needsLogin');
    const result = await s.login();
    expect(result.issuer).toBe(`${s.server.origin}/as2`);
    expect(registrations(s.server).map((r) => r.path)).toEqual(['/as1/register', '/as2/register']);
    const [oldClient, newClient] = s.server.authorizations.map((q) => q.get('client_id') ?? '');
    expect(oldClient).toMatch(/^client-/);
    expect(newClient).toMatch(/^client-/);
    expect(newClient).not.toBe(oldClient);
    const atNew = s.server.requests.filter((r) => r.path.startsWith('/as2/'));
    for (const request of atNew) expect(request.body).not.toContain(oldClient);
    // Each issuer's login is its own; the server is used with the new one.
    const old = await s.logins.store.load(s.server.url, `${s.server.origin}/as1`);
    expect(old?.client.client_id).toBe(oldClient);
    await client.reconnect();
    expect(client.state.kind).toBe('connected');
  });

  it('during a login (the new login refused, 401): another round with the new one', async () => {
    let moved = false;
    const s = await setup({
      issuerPath: '/as1',
      // The server moves the moment the first token reaches it.
      intercept: (request) => {
        if (!moved && request.path === '/mcp' && request.headers.authorization !== undefined) {
          moved = true;
          s.server.moveAuthorizationServer('/as2');
        }
        return undefined;
      },
    });
    const result = await s.login();
    expect(result.issuer).toBe(`${s.server.origin}/as2`);
    expect(registrations(s.server).map((r) => r.path)).toEqual(['/as1/register', '/as2/register']);
    expect(s.server.authorizations).toHaveLength(2);
  });
});

describe('a server that refuses the login just made, and has not moved', () => {
  it('fails at once, naming the server and whom to tell; the user is sent to no second round', async () => {
    const s = await setup({
      intercept: (request) =>
        request.path === '/mcp' && request.headers.authorization !== undefined
          ? {
              status: 401,
              headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
              body: {},
            }
          : undefined,
    });
    const error = await s.login().catch((e: unknown) => e);
    expect(isMcpError(error, 'login_failed')).toBe(true);
    expect((error as Error).message).toContain(
      'Login to MCP server "scoped": the server refused the login just made (HTTP 401)',
    );
    expect((error as Error).message).toContain("Tell the server's operator");
    expect(s.server.authorizations).toHaveLength(1);
  });
});

describe('how the client registers', () => {
  it('dynamically, as a native application with its loopback redirect URI', async () => {
    const s = await setup();
    await s.login();
    const [registration] = registrations(s.server);
    const body = JSON.parse(registration?.body ?? '{}');
    expect(body.application_type).toBe('native');
    expect(new URL(body.redirect_uris[0]).hostname).toBe('127.0.0.1');
  });

  it('by its Client ID Metadata Document where the authorization server takes one: no registration', async () => {
    const s = await setup(
      { clientIdMetadataDocumentSupported: true },
      { clientMetadataUrl: CLIENT_METADATA_URL },
    );
    await s.login();
    expect(registrations(s.server)).toEqual([]);
    expect(s.server.authorizations[0]?.get('client_id')).toBe(CLIENT_METADATA_URL);
    expect(s.server.tokenRequests[0]?.form.get('client_id')).toBe(CLIENT_METADATA_URL);
  });

  it('dynamically where the authorization server does not take the document', async () => {
    const s = await setup({}, { clientMetadataUrl: CLIENT_METADATA_URL });
    await s.login();
    expect(registrations(s.server)).toHaveLength(1);
    expect(s.server.authorizations[0]?.get('client_id')).not.toBe(CLIENT_METADATA_URL);
  });
});

describe('the resource indicator', () => {
  it('is sent as the protected-resource metadata spells it, a bare origin without a `/` added', async () => {
    const s = await setup({ pathlessResource: true });
    await s.login();
    expect(s.server.authorizations[0]?.get('resource')).toBe(s.server.origin);
    expect(s.server.tokenRequests[0]?.form.get('resource')).toBe(s.server.origin);
  });
});

describe('a login that cannot reach the server', () => {
  it('names the server and the URL, says the connection was refused and what to do, never a bare "fetch failed"', async () => {
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const logins = ownLogins();
    cleanups.push(() => logins.remove());
    const failure = await loginToServer({
      config: remoteConfig('gone', 'http', url),
      store: logins.store,
      onAuthorizationUrl: () => {},
      openUrl,
      timeoutMs: 10_000,
    }).catch((error: unknown) => error);
    expect(isMcpError(failure, 'oauth_failed')).toBe(true);
    const { message } = failure as Error;
    expect(message).toContain('Login to MCP server "gone" failed');
    expect(message).toContain(`http://127.0.0.1:${port}/`);
    expect(message).toContain('the connection was refused');
    expect(message).toContain('then log in again');
    expect(message).not.toContain('epoch mcp');
    expect(message).not.toMatch(/fetch failed/);
  });
});
