// The grants a client runs by itself, on real sockets: an MCP server with its own authorization
// server and identity provider on 127.0.0.1 (support/oauth-grant-server.ts) records every token
// request, and the tests check what reached it — the grant type, how the client authenticated
// (a Basic header, a form, a JWT assertion whose signature node:crypto verifies), the resource —
// and that the MCP requests carried the token. Also which grant a registered client with a secret
// gets when mcp.json does not say, and the 2025-03-26 issuer rule on both sides of its line.
import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { loginToServer } from '../src/oauth/login.js';
import type { HttpServerConfig, McpOAuthConfig } from '../src/types.js';
import {
  type OAuthGrantServerOptions,
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from './support/oauth-grant-server.js';
import { ownLogins } from './support/own-logins.js';

const SECRET = 'SECRET-machine-7f3a';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function grantServer(
  options: OAuthGrantServerOptions = {},
): Promise<RunningOAuthGrantServer> {
  const server = await startOAuthGrantServer(options);
  cleanups.push(() => server.stop());
  return server;
}

/** A client of `url`; `logins` is its (empty) login store, to prove nothing was stored there. */
function client(
  url: string,
  oauth: McpOAuthConfig,
): { client: McpClient; loginFiles: () => string[] } {
  const logins = ownLogins();
  cleanups.push(() => logins.remove());
  const config: HttpServerConfig = remoteConfig('machine', 'http', url, {
    oauth,
    timeoutMs: 20_000,
    connectTimeoutMs: 20_000,
  });
  const created = new McpClient({ config, createTransport: logins.createTransport });
  cleanups.push(() => created.close());
  return { client: created, loginFiles: () => readdirSync(logins.store.dir) };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-grants-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('client_credentials', () => {
  it('client_secret_basic: a token fetched at connect, for the server as resource, with no login', async () => {
    const server = await grantServer();
    const { client: c, loginFiles } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    await c.connect();
    expect(await c.callTool('whoami', {})).toMatchObject({ content: [{ text: 'machine' }] });

    expect(server.tokenRequests).toHaveLength(1);
    const [request] = server.tokenRequests;
    expect(request?.authorization).toBe(basic('svc', SECRET));
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      grant_type: 'client_credentials',
      resource: server.url,
    });
    expect(server.bearers.length).toBeGreaterThan(0);
    expect(new Set(server.bearers)).toEqual(new Set(['tok-1']));
    expect(loginFiles()).toEqual([]);
  });

  it('client_secret_post where the authorization server takes only that, with the configured scopes', async () => {
    const server = await grantServer({ authMethods: ['client_secret_post'] });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      scopes: ['tools:read', 'tools:call'],
      grant: { kind: 'client_credentials' },
    });
    await c.connect();
    const [request] = server.tokenRequests;
    expect(request?.authorization).toBeUndefined();
    expect(Object.fromEntries(request?.form ?? [])).toEqual({
      grant_type: 'client_credentials',
      client_id: 'svc',
      client_secret: SECRET,
      scope: 'tools:read tools:call',
      resource: server.url,
    });
  });

  it('private_key_jwt: an assertion signed by the key file (SEC 1 PEM), verified with node:crypto', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyFile = join(await tempDir(), 'client.pem');
    await writeFile(keyFile, privateKey.export({ type: 'sec1', format: 'pem' }), { mode: 0o600 });
    const server = await grantServer({ authMethods: ['private_key_jwt'] });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      grant: {
        kind: 'client_credentials',
        privateKeyJwt: { key: { kind: 'file', path: keyFile }, algorithm: 'ES256' },
      },
    });
    await c.connect();

    const [request] = server.tokenRequests;
    expect(request?.authorization).toBeUndefined();
    const form = request?.form ?? new URLSearchParams();
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('resource')).toBe(server.url);
    expect(form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const claims = verifiedJwt(form.get('client_assertion') ?? '', publicKey);
    expect(claims).toMatchObject({ iss: 'svc', sub: 'svc', aud: server.issuer });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    // Another key's signature does not verify: the check above can fail.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    expect(() => verifiedJwt(form.get('client_assertion') ?? '', other)).toThrow('signature');
  });

  it('a key that cannot sign the configured algorithm fails naming the field, never the key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const server = await grantServer({ authMethods: ['private_key_jwt'] });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      grant: {
        kind: 'client_credentials',
        privateKeyJwt: { key: { kind: 'inline', value: pem }, algorithm: 'ES256' },
      },
    });
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'oauth_failed')).toBe(true);
    expect((error as Error).message).toContain('cannot sign ES256 (oauth.signing_algorithm)');
    expect((error as Error).message).not.toContain('PRIVATE KEY');
    expect(c.state).toMatchObject({ kind: 'failed', code: 'oauth_failed' });
    expect(server.tokenRequests).toEqual([]);
  });

  it('an expired token is fetched again by the same grant, before the request is sent', async () => {
    const server = await grantServer({ expiresIn: 1 });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    await c.connect();
    // The clock is moved on past the token's life, not waited out: only Date is faked, so the
    // sockets and timers the call needs run as they do.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.setSystemTime(Date.now() + 1_200);
      await c.callTool('whoami', {});
    } finally {
      vi.useRealTimers();
    }
    expect(server.tokenRequests.map((r) => r.form.get('grant_type'))).toEqual([
      'client_credentials',
      'client_credentials',
    ]);
    expect(server.bearers.at(-1)).toBe('tok-2');
  });

  it('a token the server stops taking (401) is replaced and the request sent again', async () => {
    const server = await grantServer();
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    await c.connect();
    server.revokeAll();
    expect(await c.callTool('whoami', {})).toMatchObject({ content: [{ text: 'machine' }] });
    expect(server.issued).toEqual(['tok-1', 'tok-2']);
    expect(server.bearers.at(-1)).toBe('tok-2');
  });

  it('credentials the authorization server refuses: failed, naming the server and its oauth field, no secret', async () => {
    const server = await grantServer({ decide: () => 'invalid_client' });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'oauth_failed')).toBe(true);
    const { message } = error as Error;
    expect(message).toContain('MCP server "machine"');
    expect(message).toContain('invalid_client');
    expect(message).toContain('"oauth" field of "machine"');
    expect(message).not.toMatch(/epoch mcp|mcp\.json/);
    expect(message).not.toContain(SECRET);
    expect(c.state.kind).toBe('failed');
    // Configured credentials are not "retried without": one refusal is the answer.
    expect(server.tokenRequests).toHaveLength(1);
  });
});

describe('epoch mcp login', () => {
  it('refuses a server whose client gets its own tokens, saying it needs none', async () => {
    const server = await grantServer();
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    const error = await loginToServer({
      config: c.config,
      onAuthorizationUrl: () => {},
      openUrl: async () => {},
    }).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_failed')).toBe(true);
    expect((error as Error).message).toContain('needs no login');
    expect(server.tokenRequests).toEqual([]);
  });
});

describe('an interactive login stopped by its caller', () => {
  it('rejects with the reason and closes its callback server while the browser is away', async () => {
    const server = await grantServer({ grantTypes: ['authorization_code'] });
    const { client: c } = client(server.url, { clientId: 'app', clientSecret: SECRET });
    const logins = ownLogins();
    cleanups.push(() => logins.remove());
    const page = new AbortController();
    let redirectUri: string | undefined;
    const error = await loginToServer({
      config: c.config,
      store: logins.store,
      signal: page.signal,
      onAuthorizationUrl: (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri') ?? undefined;
        page.abort(new Error('the page was closed'));
      },
      openUrl: async () => {},
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('the page was closed');
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await expect(fetch(`${redirectUri}?code=late&state=x`)).rejects.toThrow();
  });
});

describe('no grant in mcp.json: a registered client with a secret', () => {
  it('gets its own token where the authorization server offers only client_credentials', async () => {
    const server = await grantServer({ grantTypes: ['client_credentials'] });
    const { client: c, loginFiles } = client(server.url, { clientId: 'svc', clientSecret: SECRET });
    await c.connect();
    expect(server.tokenRequests[0]?.authorization).toBe(basic('svc', SECRET));
    expect(server.tokenRequests[0]?.form.get('grant_type')).toBe('client_credentials');
    expect(loginFiles()).toEqual([]);
  });

  it('needs a login where the authorization server offers authorization_code', async () => {
    const server = await grantServer({
      grantTypes: ['authorization_code', 'client_credentials', 'refresh_token'],
    });
    const { client: c } = client(server.url, { clientId: 'app', clientSecret: SECRET });
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'needs_login')).toBe(true);
    expect(c.state.kind).toBe('needsLogin');
    expect(server.tokenRequests).toEqual([]);
  });

  it('with grant authorization_code, never fetches a token of its own', async () => {
    const server = await grantServer({ grantTypes: ['client_credentials'] });
    const { client: c } = client(server.url, {
      clientId: 'app',
      clientSecret: SECRET,
      grant: { kind: 'authorization_code' },
    });
    expect(isMcpError(await c.connect().catch((e: unknown) => e), 'needs_login')).toBe(true);
    expect(server.tokenRequests).toEqual([]);
  });
});

describe('cross_app_access', () => {
  it('exchanges the ID token (from its file) for an ID-JAG, then presents it in a JWT bearer grant', async () => {
    const server = await grantServer({
      grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
    });
    const idTokenFile = join(await tempDir(), 'id_token');
    await writeFile(idTokenFile, 'eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJhbGljZSJ9.c2ln\n', { mode: 0o600 });
    const { client: c, loginFiles } = client(server.url, {
      clientId: 'agent',
      clientSecret: SECRET,
      grant: {
        kind: 'cross_app_access',
        identityProvider: {
          tokenEndpoint: `${server.origin}/idp/token`,
          clientId: 'agent-at-idp',
          idToken: { kind: 'file', path: idTokenFile },
        },
      },
    });
    await c.connect();

    const [exchange, bearer] = server.tokenRequests;
    expect(exchange?.path).toBe('/idp/token');
    expect(Object.fromEntries(exchange?.form ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: 'eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJhbGljZSJ9.c2ln',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: server.issuer,
      resource: server.url,
      client_id: 'agent-at-idp',
    });
    expect(bearer?.path).toBe('/token');
    expect(bearer?.authorization).toBe(basic('agent', SECRET));
    expect(Object.fromEntries(bearer?.form ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'jag-1',
      resource: server.url,
    });
    expect(server.bearers.at(-1)).toBe('tok-2');
    expect(loginFiles()).toEqual([]);
  });

  it('an identity provider that refuses the ID token: failed, saying so without the token', async () => {
    const server = await grantServer({
      grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      decide: (request) => (request.path === '/idp/token' ? 'invalid_grant' : undefined),
    });
    const idToken = 'eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJib2IifQ.SECRETsig';
    const { client: c } = client(server.url, {
      clientId: 'agent',
      clientSecret: SECRET,
      grant: {
        kind: 'cross_app_access',
        identityProvider: {
          tokenEndpoint: `${server.origin}/idp/token`,
          clientId: 'agent-at-idp',
          idToken: { kind: 'inline', value: idToken },
        },
      },
    });
    const error = await c.connect().catch((e: unknown) => e);
    expect(isMcpError(error, 'oauth_failed')).toBe(true);
    expect((error as Error).message).toContain('identity provider did not exchange the ID token');
    expect((error as Error).message).not.toContain('SECRET');
    expect(server.tokenRequests.map((r) => r.path)).toEqual(['/idp/token']);
  });
});

describe('the 2025-03-26 issuer rule', () => {
  it('no protected-resource metadata: an issuer on the server origin under a path is accepted', async () => {
    const server = await grantServer({ layout: '2025-03-26', issuerPath: '/oauth' });
    const { client: c } = client(server.url, { clientId: 'svc', clientSecret: SECRET });
    await c.connect();
    expect(server.tokenRequests.map((r) => r.path)).toEqual(['/oauth/token']);
    // The resource parameter came with protected-resource metadata (2025-06-18); none is sent here.
    expect(server.tokenRequests[0]?.form.get('resource')).toBeNull();
  });

  it('no protected-resource metadata: an issuer on another origin is still refused', async () => {
    const server = await grantServer({
      layout: '2025-03-26',
      claimedIssuer: 'http://localhost:9/oauth',
      issuerPath: '/oauth',
    });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    const error = await c.connect().catch((e: unknown) => e);
    expect((error as Error).message).toContain('Issuer mismatch');
    expect(server.tokenRequests).toEqual([]);
  });

  it('with protected-resource metadata the issuer must match it exactly, same origin or not', async () => {
    const server = await grantServer({ issuerPath: '/oauth', prmNamesOrigin: true });
    const { client: c } = client(server.url, {
      clientId: 'svc',
      clientSecret: SECRET,
      grant: { kind: 'client_credentials' },
    });
    const error = await c.connect().catch((e: unknown) => e);
    expect((error as Error).message).toContain('Issuer mismatch');
    expect(server.tokenRequests).toEqual([]);
  });
});

/** The claims of a compact JWS signed with ES256, after node:crypto verified its signature. */
function verifiedJwt(jwt: string, key: KeyObject): Record<string, unknown> {
  const [header, payload, signature] = jwt.split('.');
  if (header === undefined || payload === undefined || signature === undefined) {
    throw new Error('not a compact JWS');
  }
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the assertion signature does not verify with the public key');
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}
