// A connection's OAuth when nothing is stored: the token store is read once, not on every request
// (reading it is a readdir plus hashing, which cost Streamable HTTP tool calls 12% in the bench),
// and read again only when a login happens in this process or the server answers 401 — which is
// how a login made by `epoch mcp login` in another process reaches a running host. Real files in a
// temp dir, a real second process, and a real MCP server over HTTP on 127.0.0.1.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REDACTED, secretRedactor } from '@epoch-agent/infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthConnectionAuth } from '../src/oauth/connection-auth.js';
import { type StoredLogin, TokenStore, toStoredTokens } from '../src/oauth/token-store.js';
import { startHttpMcpServer } from './support/http-mcp-server.js';

const BUILT = pathToFileURL(
  fileURLToPath(new URL('../dist/oauth/token-store.js', import.meta.url)),
).href;
const TOKEN = 'access-token-from-a-login';

/** A TokenStore that counts how often a connection reads it. */
class CountingStore extends TokenStore {
  loads = 0;
  override load(serverUrl: string, issuer?: string): Promise<StoredLogin | undefined> {
    this.loads += 1;
    return super.load(serverUrl, issuer);
  }
}

function login(serverUrl: string): StoredLogin {
  return {
    serverUrl,
    issuer: 'https://auth.example.com',
    client: { client_id: 'client-1' },
    tokens: toStoredTokens({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }),
    authorizationServerUrl: 'https://auth.example.com',
  };
}

/** What `epoch mcp login` in another process does to the store: the built plugin, its own process. */
async function saveInAnotherProcess(dir: string, stored: StoredLogin): Promise<void> {
  const script = `
    const { TokenStore } = await import(${JSON.stringify(BUILT)});
    await new TokenStore({ dir: ${JSON.stringify(dir)} }).save(${JSON.stringify(stored)});
  `;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
}

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'epoch-oauth-auth-')), 'oauth');
});
afterEach(async () => {
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('OAuth of a connection without a stored login', () => {
  it('reads the token store once, not on every request', async () => {
    const store = new CountingStore({ dir });
    const auth = new OAuthConnectionAuth({
      server: 's',
      serverUrl: 'http://127.0.0.1:1/mcp',
      store,
      scrub: secretRedactor(),
    });
    for (let i = 0; i < 50; i++) expect(await auth.token()).toBeUndefined();
    expect(store.loads).toBe(1);
  });

  it('uses a login stored in this process at its next request, and teaches the policy its token', async () => {
    const serverUrl = 'http://127.0.0.1:1/mcp';
    const store = new CountingStore({ dir });
    const scrub = secretRedactor();
    const auth = new OAuthConnectionAuth({ server: 's', serverUrl, store, scrub });
    expect(await auth.token()).toBeUndefined();
    // Another TokenStore of the same directory, as `loginToServer` creates its own.
    await new TokenStore({ dir }).save(login(serverUrl));
    expect(await auth.token()).toBe(TOKEN);
    expect(store.loads).toBe(2);
    // A server that echoes the token in an error: the messages about it will not.
    expect(scrub(`invalid token ${TOKEN}`)).toBe(`invalid token ${REDACTED}`);
    // A login of another server changes nothing for this one.
    await new TokenStore({ dir }).save(login('http://127.0.0.1:2/mcp'));
    expect(await auth.token()).toBe(TOKEN);
    expect(store.loads).toBe(2);
  });

  it('picks up a login stored by another process at the server’s next 401, and connects', async () => {
    const server = await startHttpMcpServer({
      mode: 'http',
      header: ['authorization', `Bearer ${TOKEN}`],
    });
    const store = new CountingStore({ dir });
    const auth = new OAuthConnectionAuth({
      server: 's',
      serverUrl: server.url,
      store,
      scrub: secretRedactor(),
    });
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: {} });
    try {
      expect(await auth.token()).toBeUndefined();
      await saveInAnotherProcess(dir, login(server.url));
      // Nothing in this process knows yet: the store is not read again on its own.
      expect(await auth.token()).toBeUndefined();
      expect(store.loads).toBe(1);

      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        authProvider: auth,
        fetch: auth.fetch,
      });
      await client.connect(transport);
      const [refused, ...rest] = server.records;
      expect(refused).toMatchObject({ rpc: 'initialize', header: undefined });
      expect(rest[0]).toMatchObject({ rpc: 'initialize', header: `Bearer ${TOKEN}` });
      expect(rest.every((r) => r.header === `Bearer ${TOKEN}`)).toBe(true);
      expect(store.loads).toBe(2);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
