// OAuth against a hostile server: an MCP server with its own authorization server on 127.0.0.1
// (support/oauth-grant-server.ts) that answers chosen requests its own way — a redirect to another
// origin, 127.0.0.2 (support/other-origin.ts), which records whatever reaches it. No credential of
// ours may arrive there: not the configured headers, a token, a client secret, a code or verifier.

import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { loginToServer } from '../src/oauth/login.js';
import { logoutFromServer } from '../src/oauth/logout.js';
import { refreshLogin } from '../src/oauth/refresh.js';
import type { HttpServerConfig } from '../src/types.js';
import {
  type Reply,
  type RunningOAuthGrantServer,
  type SeenRequest,
  startOAuthGrantServer,
} from './support/oauth-grant-server.js';
import { type OtherOrigin, startOtherOrigin } from './support/other-origin.js';
import { type OwnLogins, ownLogins } from './support/own-logins.js';

const API_KEY = 'SECRET-api-key-51c2';
const STATIC_AUTH = 'Bearer SECRET-static-9e07';
const CLIENT_SECRET = 'SECRET-client-3d88';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Hostile {
  readonly server: RunningOAuthGrantServer;
  readonly other: OtherOrigin;
  readonly logins: OwnLogins;
  readonly config: HttpServerConfig;
  /** From now on the server answers requests this way (undefined: its own way). */
  answer(intercept: ((request: SeenRequest) => Reply | undefined) | undefined): void;
}

async function hostile(
  headers: Record<string, string> = {},
  tokenFields: Record<string, unknown> = {},
): Promise<Hostile> {
  let intercept: ((request: SeenRequest) => Reply | undefined) | undefined;
  const server = await startOAuthGrantServer({
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethods: ['client_secret_post'],
    tokenFields,
    intercept: (request) => intercept?.(request),
  });
  cleanups.push(() => server.stop());
  const other = await startOtherOrigin();
  cleanups.push(() => other.stop());
  const logins = ownLogins();
  cleanups.push(() => logins.remove());
  const config = remoteConfig('hostile', 'http', server.url, { headers });
  return { server, other, logins, config, answer: (next) => (intercept = next) };
}

/** A redirect of every `method` request for `path` to the other origin's /collect. */
function redirect(h: Hostile, method: string, path: string, status = 307) {
  return (request: SeenRequest): Reply | undefined =>
    request.method === method && request.path === path
      ? { status, headers: { location: `${h.other.origin}/collect` } }
      : undefined;
}

/** Registration answers with a confidential client: one with a client secret. */
function registerWithSecret(request: SeenRequest): Reply | undefined {
  if (request.path !== '/register') return undefined;
  const body = {
    ...JSON.parse(request.body),
    client_id: 'confidential',
    client_secret: CLIENT_SECRET,
    token_endpoint_auth_method: 'client_secret_post',
  };
  return { status: 201, body };
}

/** The browser: it follows the authorization endpoint's redirect to the login's callback. */
async function openUrl(url: string): Promise<void> {
  await (await fetch(url)).body?.cancel();
}

function login(h: Hostile) {
  return loginToServer({
    config: h.config,
    store: h.logins.store,
    onAuthorizationUrl: () => {},
    openUrl,
    timeoutMs: 10_000,
  });
}

describe('logout against a hostile authorization server', () => {
  it('a revocation endpoint redirecting to another origin gets no token or client secret there; not revoked, and why', async () => {
    const h = await hostile();
    h.answer(registerWithSecret);
    await login(h);
    const stored = await h.logins.store.load(h.server.url);
    expect(stored?.client).toMatchObject({ client_secret: CLIENT_SECRET });
    h.answer(redirect(h, 'POST', '/revoke'));
    const result = await logoutFromServer({ config: h.config, store: h.logins.store });
    expect(h.other.received).toEqual([]);
    expect(result).toMatchObject({ removed: 1, revoked: false });
    expect(result.revokeProblem).toContain('redirected an OAuth request to another origin');
    expect(result.revokeProblem).toContain(h.other.origin);
    expect(result.revokeProblem).not.toContain(CLIENT_SECRET);
    expect(await h.logins.store.load(h.server.url)).toBeUndefined();
  });

  it('a revocation endpoint redirecting within its origin is followed, the token revoked', async () => {
    const h = await hostile();
    await login(h);
    // Each revocation is sent to /revoke, moved to /revoke once, and answered there.
    let moved = false;
    h.answer((request) => {
      if (request.path !== '/revoke') return undefined;
      moved = !moved;
      return moved ? { status: 308, headers: { location: '/revoke' } } : undefined;
    });
    const result = await logoutFromServer({ config: h.config, store: h.logins.store });
    expect(result).toMatchObject({ removed: 1, revoked: true });
    expect(h.server.revocations.map((form) => form.get('token_type_hint'))).toEqual([
      'refresh_token',
      'access_token',
    ]);
  });
});

describe('a login against a hostile server', () => {
  it('the first unauthenticated request does not follow a cross-origin redirect with the configured headers', async () => {
    const h = await hostile({ 'x-api-key': API_KEY, authorization: STATIC_AUTH });
    h.answer(redirect(h, 'POST', '/mcp'));
    const error = await login(h).catch((e: unknown) => e);
    expect(isMcpError(error, 'redirect_refused')).toBe(true);
    expect((error as Error).message).toContain(h.other.origin);
    expect(h.other.received).toEqual([]);
  });

  it.each([
    ['registration', '/register'],
    ['the code exchange', '/token'],
  ])(
    '%s redirecting to another origin: refused, nothing sent there, nothing stored',
    async (_what, path) => {
      const h = await hostile();
      h.answer(redirect(h, 'POST', path));
      const error = await login(h).catch((e: unknown) => e);
      expect(isMcpError(error, 'redirect_refused')).toBe(true);
      expect(h.other.received).toEqual([]);
      expect(await h.logins.store.load(h.server.url)).toBeUndefined();
    },
  );
});

describe('a refresh against a hostile authorization server', () => {
  it('a token endpoint redirecting a refresh to another origin gets no refresh token there; the login is kept', async () => {
    const h = await hostile();
    h.answer(registerWithSecret);
    await login(h);
    const stored = await h.logins.store.load(h.server.url);
    if (stored?.tokens === undefined) throw new Error('the login stored no tokens');
    h.answer((request) =>
      request.path === '/token' && request.body.includes('grant_type=refresh_token')
        ? { status: 307, headers: { location: `${h.other.origin}/collect` } }
        : undefined,
    );
    const error = await refreshLogin(
      { server: 'hostile', store: h.logins.store },
      stored,
      stored.tokens.access_token,
    ).catch((e: unknown) => e);
    expect(isMcpError(error, 'oauth_failed')).toBe(true);
    expect((error as Error).message).toContain('redirected an OAuth request to another origin');
    expect(h.other.received).toEqual([]);
    expect((await h.logins.store.load(h.server.url))?.tokens).toEqual(stored.tokens);
  });
});

describe('tokens a hostile authorization server issues', () => {
  it('a DPoP token is refused, never sent as a Bearer token; nothing is stored', async () => {
    const h = await hostile({}, { token_type: 'DPoP' });
    const error = await login(h).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_failed')).toBe(true);
    expect((error as Error).message).toContain('a token of type "DPoP"');
    expect((error as Error).message).toContain('only Bearer tokens');
    expect(h.server.bearers).toEqual([]);
    expect(await h.logins.store.load(h.server.url)).toBeUndefined();
  });

  it('"bearer" in any case is a bearer token', async () => {
    const h = await hostile({}, { token_type: 'bEaReR' });
    expect((await login(h)).toolCount).toBe(1);
  });

  it('expires_in null is an unknown expiry, not 0: the token is used without a refresh per request', async () => {
    const h = await hostile({}, { expires_in: null });
    const result = await login(h);
    expect(result.expiresAt).toBeUndefined();
    expect((await h.logins.store.load(h.server.url))?.tokens?.expires_at).toBeUndefined();
    const grants = h.server.tokenRequests.map((r) => r.form.get('grant_type'));
    expect(grants).toEqual(['authorization_code']);
  });
});

describe('two logins to one server at once', () => {
  it('the second fails at once, asking nothing of any server; the first one completes and is the one stored', async () => {
    const h = await hostile();
    let atBrowser: (url: string) => void = () => {};
    const waiting = new Promise<string>((resolve) => {
      atBrowser = resolve;
    });
    let finish: () => void = () => {};
    const first = loginToServer({
      config: h.config,
      store: h.logins.store,
      onAuthorizationUrl: () => {},
      openUrl: (url) => {
        atBrowser(url);
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      timeoutMs: 10_000,
    });
    const url = await waiting;
    const seen = h.server.requests.length;
    const second = await login(h).catch((e: unknown) => e);
    expect(isMcpError(second, 'login_failed')).toBe(true);
    expect((second as Error).message).toContain('another login to it is in progress');
    expect(h.server.requests.length).toBe(seen);
    await openUrl(url);
    finish();
    expect((await first).toolCount).toBe(1);
    expect(h.server.tokenRequests).toHaveLength(1);
    const stored = await h.logins.store.load(h.server.url);
    expect(stored?.tokens?.access_token).toBe(h.server.issued[0]);
    // The lock went with the first login: the next one runs.
    expect((await login(h)).toolCount).toBe(1);
  });
});

describe('a code exchange the authorization server refuses', () => {
  it('invalid_grant: the code is sent once, and neither it nor the verifier is in the error or on the console', async () => {
    const h = await hostile();
    h.answer((request) => {
      if (request.path !== '/token') return undefined;
      const form = new URLSearchParams(request.body);
      const echo = `code ${form.get('code')} with verifier ${form.get('code_verifier')}`;
      return { status: 400, body: { error: 'invalid_grant', error_description: echo } };
    });
    const warned: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warned.push(args.join(' '));
    });
    cleanups.push(() => warn.mockRestore());
    const error = await login(h).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_failed')).toBe(true);
    const exchanges = h.server.requests.filter((r) => r.path === '/token');
    expect(exchanges).toHaveLength(1);
    const form = new URLSearchParams(exchanges[0]?.body);
    const [code, verifier] = [form.get('code') ?? '', form.get('code_verifier') ?? ''];
    expect(code.length).toBeGreaterThan(0);
    expect(verifier.length).toBeGreaterThan(0);
    const message = (error as Error).message;
    expect(message).toContain('invalid_grant');
    for (const text of [message, ...warned]) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(verifier);
    }
    expect(await h.logins.store.load(h.server.url)).toBeUndefined();
  });
});

describe('answers too large to use', () => {
  /** Registration answers with a client_id of `length` characters. */
  const registerWithId = (length: number) => (request: SeenRequest) =>
    request.path === '/register'
      ? { status: 201, body: { ...JSON.parse(request.body), client_id: 'x'.repeat(length) } }
      : undefined;

  it.each([
    ['a 1 MB registration', 1024 * 1024, 'more than 64 KiB'],
    ['a 3 KiB client_id', 3000, 'a client_id of 3000 characters; at most 2048'],
  ])(
    '%s: the login fails at once, saying so; no authorization URL is made',
    async (_what, length, why) => {
      const h = await hostile();
      h.answer(registerWithId(length));
      const urls: string[] = [];
      const error = await loginToServer({
        config: h.config,
        store: h.logins.store,
        onAuthorizationUrl: (url) => urls.push(url),
        openUrl,
        timeoutMs: 10_000,
      }).catch((e: unknown) => e);
      expect(isMcpError(error, 'login_failed')).toBe(true);
      expect((error as Error).message).toContain(why);
      expect(urls).toEqual([]);
    },
  );

  it('a token answer past 64 KiB is not read; nothing is stored', async () => {
    const h = await hostile({}, { padding: 'x'.repeat(100 * 1024) });
    const error = await login(h).catch((e: unknown) => e);
    expect(isMcpError(error, 'login_failed')).toBe(true);
    expect((error as Error).message).toContain('/token answered with more than 64 KiB');
    expect(await h.logins.store.load(h.server.url)).toBeUndefined();
  });
});
