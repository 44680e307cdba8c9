// When a refresh fails, what is left of the stored login: only the authorization server's own
// verdict deletes anything (invalid_grant the tokens, invalid_client the whole login); a 5xx or a
// network error keeps it all and is `oauth_failed`, which a later request retries. A real token
// endpoint on 127.0.0.1 and real files in a temp dir.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { refreshLogin } from '../src/oauth/refresh.js';
import { type StoredLogin, TokenStore, toStoredTokens } from '../src/oauth/token-store.js';

const SERVER_URL = 'http://127.0.0.1:9/mcp';
const ACCESS = 'ACCESS-expired-4711';
const REFRESH = 'REFRESH-secret-4711';

let dir: string;
let http: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-oauth-refresh-'));
});
afterEach(async () => {
  await new Promise<void>((resolve) =>
    http === undefined ? resolve() : http.close(() => resolve()),
  );
  http = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A token endpoint that answers every request with `status` and `body`. */
async function tokenEndpoint(status: number, body: object): Promise<string> {
  http = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/token`;
}

function expiredLogin(tokenUrl: string): StoredLogin {
  const issuer = new URL(tokenUrl).origin;
  return {
    serverUrl: SERVER_URL,
    issuer,
    client: { client_id: 'client-1' },
    tokens: {
      ...toStoredTokens({ access_token: ACCESS, token_type: 'Bearer', refresh_token: REFRESH }),
      expires_at: Date.now() - 1_000,
    },
    authorizationServerUrl: issuer,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: tokenUrl,
      response_types_supported: ['code'],
    },
  };
}

async function refreshWith(tokenUrl: string) {
  const store = new TokenStore({ dir });
  const login = expiredLogin(tokenUrl);
  await store.save(login);
  const file = store.fileFor(login.serverUrl, login.issuer);
  const before = await readFile(file, 'utf8');
  const outcome = await refreshLogin({ server: 'remote', store }, login, ACCESS).catch(
    (error: unknown) => error,
  );
  const after = await readFile(file, 'utf8').catch(() => undefined);
  return { outcome, before, after, stored: await store.load(SERVER_URL) };
}

describe('a refresh that fails', () => {
  it('5xx: keeps the login untouched, oauth_failed without any token in the message', async () => {
    const { outcome, before, after } = await refreshWith(
      await tokenEndpoint(503, { error: 'temporarily_unavailable' }),
    );
    expect(isMcpError(outcome, 'oauth_failed')).toBe(true);
    expect(after).toBe(before);
    const message = (outcome as Error).message;
    expect(message).toContain('"remote"');
    expect(message).not.toContain(REFRESH);
    expect(message).not.toContain(ACCESS);
  });

  it('network error: keeps the login untouched, oauth_failed', async () => {
    const { outcome, before, after } = await refreshWith(
      `http://127.0.0.1:${await freeLoopbackPort()}/token`,
    );
    expect(isMcpError(outcome, 'oauth_failed')).toBe(true);
    expect(after).toBe(before);
  });

  it('invalid_grant: drops the tokens and keeps the client', async () => {
    const { outcome, stored } = await refreshWith(
      await tokenEndpoint(400, { error: 'invalid_grant' }),
    );
    expect(outcome).toMatchObject({ kind: 'needs_login' });
    expect(stored?.tokens).toBeUndefined();
    expect(stored?.client.client_id).toBe('client-1');
  });

  it('invalid_client: deletes the whole login', async () => {
    const { outcome, after } = await refreshWith(
      await tokenEndpoint(401, { error: 'invalid_client' }),
    );
    expect(outcome).toMatchObject({ kind: 'needs_login' });
    expect((outcome as { reason: string }).reason).toContain('invalid_client');
    expect(after).toBeUndefined();
  });
});
