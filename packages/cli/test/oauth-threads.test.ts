// OAuth that keeps working, in the cases users of other MCP hosts report, each against a real
// authorization server (oidc-provider, the testkit's oauth-servers.mjs: rotating refresh tokens,
// 2 s access tokens): a refresh token used before the login is asked for again, a token endpoint
// down for a moment, an authorization server without dynamic registration and a client registered
// with it beforehand (id and secret in mcp.json), and a fixed callback port something else holds.
// `epoch mcp login` runs as a person runs it; the host is a registry as an agent has one.
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadMcpConfig,
  type McpEpochTool,
  McpRegistry,
  type McpServerStatus,
} from '@epoch-agent/plugin-mcp';
import {
  freeLoopbackPort,
  type OAuthFixture,
  startOAuthFixture,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginBrowser } from './login-browser.js';
import { type CliRun, runCli } from './run-cli.js';

const SERVER = 'secured';
const CLIENT_ID = 'epoch-registered-beforehand';
const CLIENT_SECRET = 'static-client-secret-5e0c2b7a91';

let dir: string;
let file: string;
const cleanups: Array<() => Promise<void> | void> = [];
const readable: string[] = [];
/** Every authorization server of the file, for the last search for token values. */
const started: OAuthFixture[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-oauth-threads-'));
  file = join(dir, 'mcp.json');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Each case logs in afresh: no login of one is the next one's.
  await rm(join(process.env.EPOCH_HOME as string, 'oauth'), { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
});

async function fixture(
  options: Parameters<typeof startOAuthFixture>[0] = {},
): Promise<OAuthFixture> {
  const running = await startOAuthFixture({ accessTokenTtlSeconds: 2, ...options });
  cleanups.push(() => running.stop());
  started.push(running);
  return running;
}

async function writeConfig(url: string, entry: object = {}): Promise<void> {
  await writeFile(
    file,
    JSON.stringify({ servers: { [SERVER]: { type: 'http', url, connect_timeout: 20, ...entry } } }),
  );
}

async function cli(...argv: string[]): Promise<CliRun> {
  const run = await runCli([...argv, '--config', file], { openUrl: loginBrowser().openUrl });
  readable.push(run.out, run.err);
  return run;
}

interface Host {
  readonly registry: McpRegistry;
  readonly statuses: McpServerStatus[];
  whoami(): Promise<string | Error>;
}

/** A host as an agent runs one, started now. */
async function startHost(): Promise<Host> {
  const log = (message: string, fields?: object) =>
    readable.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const registry = new McpRegistry({
    schemaCache: null,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  cleanups.push(() => registry.disconnectAll());
  const statuses: McpServerStatus[] = [];
  registry.onStatus((status) => {
    statuses.push(status);
    readable.push(JSON.stringify(status));
  });
  const { servers } = await loadMcpConfig(file);
  await registry.connectAll(servers, 'user');
  const tool = (): McpEpochTool | undefined =>
    registry.tools().find((t) => t.name === `mcp__${SERVER}__whoami`);
  return {
    registry,
    statuses,
    whoami: async () => {
      try {
        const found = tool();
        if (found === undefined) throw new Error(`"${SERVER}" offers no whoami`);
        const result = await found.execute({}, { signal: AbortSignal.timeout(10_000) });
        const first = result.content[0];
        return first?.type === 'text' ? first.text : JSON.stringify(result.content);
      } catch (error) {
        readable.push((error as Error).message);
        return error as Error;
      }
    },
  };
}

async function storedLogin(): Promise<{
  client: { client_id: string };
  tokens?: { refresh_token?: string; expires_at: number };
}> {
  const oauth = join(process.env.EPOCH_HOME as string, 'oauth');
  const names = (await readdir(oauth)).filter((n) => n.endsWith('.json'));
  expect(names).toHaveLength(1);
  return JSON.parse(await readFile(join(oauth, names[0] as string), 'utf8'));
}

const grants = (f: OAuthFixture, grant: string) =>
  f.events.filter((e) => e.event === 'token' && e.grant === grant);

describe('OAuth that keeps working, against a real authorization server', () => {
  it('a host started after the access token expired refreshes it: never a needless login', async () => {
    const f = await fixture();
    await writeConfig(f.mcpUrl);
    expect((await cli('mcp', 'login', SERVER)).code).toBe(0);
    const expiresAt = (await storedLogin()).tokens?.expires_at ?? 0;
    await waitUntil(() => Date.now() > expiresAt, 'the access token to expire');
    const refusedBefore = f.events.filter((e) => e.event === 'refused').length;
    const host = await startHost();
    expect(host.registry.statuses()[0]?.state).toBe('connected');
    expect(await host.whoami()).toBe('you are fixture-user');
    expect(host.statuses.filter((s) => s.state === 'needsLogin')).toEqual([]);
    expect(grants(f, 'authorization_code')).toHaveLength(1);
    expect(f.refreshes().map((e) => e.status)).toContain(200);
    // Refreshed before the first request: the server never saw the expired token.
    expect(f.events.filter((e) => e.event === 'refused').length).toBe(refusedBefore);
  });

  it('a token endpoint down for a moment keeps the login: the next refresh uses the same refresh token', async () => {
    const f = await fixture();
    await writeConfig(f.mcpUrl);
    expect((await cli('mcp', 'login', SERVER)).code).toBe(0);
    const host = await startHost();
    expect(await host.whoami()).toBe('you are fixture-user');
    const held = (await storedLogin()).tokens?.refresh_token;
    await f.tokenOutage(2);
    // Calls go on (one may fail while it lasts, never with needs_login) until a refresh after it
    // was taken and a call worked.
    const refreshedAfter = () => {
      const all = f.refreshes();
      const lastDown = all.findLastIndex((e) => e.status === 503);
      return lastDown === -1 || all.filter((e) => e.status === 503).length < 2
        ? []
        : all.slice(lastDown + 1);
    };
    await waitUntil(async () => {
      const answer = await host.whoami();
      if (answer instanceof Error) expect(answer).toMatchObject({ code: 'oauth_failed' });
      return refreshedAfter().length > 0 && answer === 'you are fixture-user' ? true : undefined;
    }, 'a refresh and a call to work after the outage');
    const down = f.refreshes().filter((e) => e.status === 503);
    expect(down.map((e) => e.presented)).toEqual([held, held]);
    // The refresh after the outage presented the refresh token it kept, and it was taken.
    expect(refreshedAfter()[0]).toMatchObject({ presented: held, status: 200 });
    expect(host.statuses.filter((s) => s.state === 'needsLogin')).toEqual([]);
    expect(grants(f, 'authorization_code')).toHaveLength(1);
  });

  it('an authorization server without dynamic registration: the client id and secret of mcp.json log in and refresh', async () => {
    const port = await freeLoopbackPort();
    const f = await fixture({
      staticClient: {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: `http://127.0.0.1:${port}/callback`,
      },
    });
    const metadata = (await (
      await fetch(`${f.issuer}/.well-known/openid-configuration`)
    ).json()) as { registration_endpoint?: string };
    expect(metadata.registration_endpoint).toBeUndefined();
    await writeConfig(f.mcpUrl, {
      oauth: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, callback_port: port },
    });
    const run = await cli('mcp', 'login', SERVER);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect((await storedLogin()).client.client_id).toBe(CLIENT_ID);
    const host = await startHost();
    expect(await host.whoami()).toBe('you are fixture-user');
    const expiresAt = (await storedLogin()).tokens?.expires_at ?? 0;
    await waitUntil(() => Date.now() > expiresAt, 'the access token to expire');
    expect(await host.whoami()).toBe('you are fixture-user');
    expect(f.refreshes().at(-1)).toMatchObject({ status: 200 });
    expect(readable.join('\n')).not.toContain(CLIENT_SECRET);
  });

  it('a fixed callback port something else holds: a clear error at once, nothing stored', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const f = await fixture({
      staticClient: {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: `http://127.0.0.1:${port}/callback`,
      },
    });
    await writeConfig(f.mcpUrl, {
      oauth: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, callback_port: port },
    });
    const run = await cli('mcp', 'login', SERVER);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(run.err).toContain('"oauth.callback_port"');
    expect(run.err).toContain(`"${SERVER}"`);
    expect(f.events.filter((e) => e.event === 'token')).toEqual([]);
    const oauth = join(process.env.EPOCH_HOME as string, 'oauth');
    const files = await readdir(oauth).catch(() => []);
    expect(files.filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it("a stored login's token wins over a headers helper's Authorization", async () => {
    const f = await fixture();
    await writeConfig(f.mcpUrl);
    expect((await cli('mcp', 'login', SERVER)).code).toBe(0);
    const helper = join(dir, 'helper.cjs');
    await writeFile(
      helper,
      `require('node:fs').appendFileSync(${JSON.stringify(join(dir, 'runs.log'))}, 'ran\\n');
process.stdout.write(JSON.stringify({ Authorization: 'Bearer not-the-login', 'X-Team': 'search' }));`,
    );
    await writeConfig(f.mcpUrl, { headers_helper: [process.execPath, helper] });
    // The login's own first probe, without a token, was refused: none after it is.
    const refusedBefore = f.events.filter((e) => e.event === 'refused').length;
    const host = await startHost();
    expect(await host.whoami()).toBe('you are fixture-user');
    expect((await readFile(join(dir, 'runs.log'), 'utf8')).split('\n').filter(Boolean)).toEqual([
      'ran',
    ]);
    expect(f.events.filter((e) => e.event === 'refused')).toHaveLength(refusedBefore);
  });

  it('no token value the authorization server issued is in any output, log line, status or error', () => {
    const text = readable.join('\n');
    expect(text.length).toBeGreaterThan(1000);
    expect(text).not.toContain(CLIENT_SECRET);
    const values = started.flatMap((f) => f.tokenValues());
    expect(values.length).toBeGreaterThan(8);
    expect(values.filter((value) => text.includes(value))).toEqual([]);
  });
});
