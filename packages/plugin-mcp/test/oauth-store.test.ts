// The OAuth token store, on real files in a temp EPOCH_HOME (its lock is infra's withFileLock).
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Logger } from '@epoch-agent/infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StoredLogin, TokenStore, toStoredTokens } from '../src/oauth/token-store.js';

const SERVER = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';

function login(overrides: Partial<StoredLogin> = {}): StoredLogin {
  return {
    serverUrl: SERVER,
    issuer: ISSUER,
    client: { client_id: 'client-1' },
    tokens: toStoredTokens({
      access_token: 'ACCESS-secret-1',
      token_type: 'Bearer',
      refresh_token: 'REFRESH-secret-1',
      expires_in: 60,
    }),
    authorizationServerUrl: ISSUER,
    resource: SERVER,
    ...overrides,
  };
}

function recordingLogger(lines: string[]): Logger {
  const log = (message: string, fields?: object) =>
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { debug: log, info: log, warn: log, error: log };
}

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-oauth-store-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('token store', () => {
  it('one 0600 file per server and issuer, named by hashes that reveal neither', async () => {
    const store = new TokenStore({ dir: join(home, 'oauth') });
    await store.save(login());
    await store.save(login({ issuer: 'https://other-auth.example.com' }));
    const names = await readdir(join(home, 'oauth'));
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(name).toMatch(/^[0-9a-f]{24}-[0-9a-f]{24}\.json$/);
      expect((await stat(join(home, 'oauth', name))).mode & 0o777).toBe(0o600);
    }
    // Same server, so the same first half: a connection finds its login by the server alone.
    expect(new Set(names.map((n) => n.split('-')[0])).size).toBe(1);
    expect(names).toContain(basename(store.fileFor(SERVER, ISSUER)));
  });

  it('a login file left 0644 in a 0777 directory is 0600 in a 0700 directory after the next save', async () => {
    const dir = join(home, 'oauth');
    const store = new TokenStore({ dir });
    await store.save(login());
    const file = store.fileFor(SERVER, ISSUER);
    await chmod(file, 0o644);
    await chmod(dir, 0o777);
    await store.save(login({ requiredScope: 'more' }));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('load by issuer, or the newest login of the server without one', async () => {
    const store = new TokenStore({ dir: join(home, 'oauth') });
    const older = login({
      tokens: {
        ...toStoredTokens({ access_token: 'A-old', token_type: 'Bearer' }),
        obtained_at: 1,
      },
    });
    const newer = login({
      issuer: 'https://new-auth.example.com',
      client: { client_id: 'client-2' },
    });
    await store.save(older);
    await store.save(newer);
    expect((await store.load(SERVER, ISSUER))?.client.client_id).toBe('client-1');
    expect((await store.load(SERVER))?.client.client_id).toBe('client-2');
    expect(await store.load('https://unknown.example.com/mcp')).toBeUndefined();
  });

  it('holds the client with the tokens, and the expiry as a point in time', async () => {
    const store = new TokenStore({ dir: join(home, 'oauth') });
    const before = Date.now();
    await store.save(login({ client: { client_id: 'client-1', client_secret: 'CLIENT-secret' } }));
    const loaded = await store.load(SERVER, ISSUER);
    expect(loaded?.client).toEqual({ client_id: 'client-1', client_secret: 'CLIENT-secret' });
    expect(loaded?.tokens?.expires_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(loaded?.tokens?.refresh_token).toBe('REFRESH-secret-1');
  });

  it('forgetTokens keeps the client; remove deletes every login of that server only', async () => {
    const store = new TokenStore({ dir: join(home, 'oauth') });
    await store.save(login());
    await store.save(login({ issuer: 'https://other-auth.example.com' }));
    await store.save(login({ serverUrl: 'https://keep.example.com/mcp' }));
    const kept = await store.forgetTokens(login());
    expect(kept.tokens).toBeUndefined();
    expect((await store.load(SERVER, ISSUER))?.client.client_id).toBe('client-1');
    expect((await store.load(SERVER, ISSUER))?.tokens).toBeUndefined();
    const removed = await store.remove(SERVER);
    expect(removed).toHaveLength(2);
    expect(await store.load(SERVER)).toBeUndefined();
    expect(await store.load('https://keep.example.com/mcp')).toBeDefined();
  });

  it('a corrupt file is ignored with a warning that quotes none of it', async () => {
    const lines: string[] = [];
    const store = new TokenStore({ dir: join(home, 'oauth'), logger: recordingLogger(lines) });
    await mkdir(join(home, 'oauth'), { recursive: true });
    await writeFile(store.fileFor(SERVER, ISSUER), '{"access_token": "LEAKED-secret-9", oops');
    expect(await store.load(SERVER)).toBeUndefined();
    expect(lines.join('\n')).toContain('is ignored because it is not JSON');
    expect(lines.join('\n')).not.toContain('LEAKED');
    // Left alone for a person to look at.
    expect(await readFile(store.fileFor(SERVER, ISSUER), 'utf8')).toContain('oops');
  });
});
