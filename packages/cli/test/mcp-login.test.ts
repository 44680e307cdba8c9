// `epoch mcp login` / `logout` end to end, against a real authorization server (oidc-provider:
// dynamic registration, resource indicators, rotating refresh tokens, revocation) and an MCP server
// that accepts only its JWT access tokens, both on 127.0.0.1 (the testkit's oauth-servers.mjs).
// Access tokens live 2 s, so every phase crosses several expiries.
//
// The scenarios run in order on one login, the way a user meets them: a host without a login,
// `epoch mcp login`, tool calls across expiries, two processes refreshing at once, a refresh token
// revoked at the authorization server, logging in again and `epoch mcp logout`. Everything a person
// or a model could read (CLI output, host logs, statuses, errors, the child processes' logs) is
// kept and searched for every token value the authorization server issued.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  isMcpError,
  loadMcpConfig,
  type McpEpochTool,
  McpRegistry,
  type McpServerStatus,
} from '@epoch-agent/plugin-mcp';
import {
  fixtureServerArgs,
  type OAuthFixture,
  startOAuthFixture,
  stdioConfig,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginBrowser } from './login-browser.js';
import { type CliRun, runCli } from './run-cli.js';

const CLIENT = fileURLToPath(new URL('./fixtures/oauth-client.mjs', import.meta.url));
const SERVER = 'secured';

let dir: string;
let home: string;
let file: string;
let fixture: OAuthFixture;
let previousHome: string | undefined;
/** Everything a person or model could read, for the final search for token values. */
const readable: string[] = [];
let host: McpRegistry | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-login-'));
  home = join(dir, 'home');
  // The host registry finds logins under $EPOCH_HOME, as the CLI (given the same env) stores them.
  previousHome = process.env.EPOCH_HOME;
  process.env.EPOCH_HOME = home;
  fixture = await startOAuthFixture({ accessTokenTtlSeconds: 2 });
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      servers: {
        [SERVER]: { type: 'http', url: fixture.mcpUrl, connect_timeout: 20 },
        local: { command: process.execPath, args: ['-e', ''] },
      },
    }),
  );
});

afterAll(async () => {
  try {
    await host?.disconnectAll();
    await fixture?.stop();
  } finally {
    if (previousHome === undefined) delete process.env.EPOCH_HOME;
    else process.env.EPOCH_HOME = previousHome;
    await rm(dir, { recursive: true, force: true });
  }
});

async function cli(...argv: string[]): Promise<CliRun> {
  const browser = loginBrowser();
  const run = await runCli([...argv, '--config', file], {
    env: { EPOCH_HOME: home },
    openUrl: browser.openUrl,
  });
  readable.push(run.out, run.err);
  return run;
}

/** A host as the agent runs one: the registry, its log lines and every status it reported. */
function startHost(): McpRegistry {
  const log =
    (level: string) =>
    (message: string, fields?: object): void => {
      readable.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    };
  const registry = new McpRegistry({
    schemaCache: null,
    reconnectDelaysMs: [50, 50, 50],
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  });
  registry.onStatus((status) => readable.push(JSON.stringify(status)));
  return registry;
}

async function connectHost(): Promise<McpRegistry> {
  await host?.disconnectAll();
  host = startHost();
  const { servers } = await loadMcpConfig(file);
  await host.connectAll(
    servers.filter((s) => s.name === SERVER),
    'user',
  );
  return host;
}

function statusOf(registry: McpRegistry): McpServerStatus {
  const status = registry.statuses().find((s) => s.name === SERVER);
  if (status === undefined) throw new Error(`no status for ${SERVER}`);
  return status;
}

function whoami(registry: McpRegistry): McpEpochTool {
  const tool = registry
    .tools()
    .find((t) => t.server === SERVER && t.target.kind === 'tool' && t.target.name === 'whoami');
  if (tool === undefined) throw new Error(`${SERVER} offers no whoami tool`);
  return tool;
}

/** Calls the tool; a failure comes back as the error, its message kept for the secrecy search. */
async function call(tool: McpEpochTool): Promise<string | Error> {
  try {
    const result = await tool.execute({}, { signal: AbortSignal.timeout(10_000) });
    const first = result.content[0];
    return first?.type === 'text' ? first.text : JSON.stringify(result.content);
  } catch (error) {
    readable.push(String((error as Error).message));
    return error as Error;
  }
}

async function loginFiles(): Promise<string[]> {
  const names = await readdir(join(home, 'oauth')).catch(() => []);
  return names.filter((n) => n.endsWith('.json')).map((n) => join(home, 'oauth', n));
}

async function storedLogin(): Promise<{
  client: { client_id: string };
  tokens?: { access_token: string; refresh_token?: string; expires_at: number };
}> {
  const [only, ...more] = await loginFiles();
  expect(more).toEqual([]);
  if (only === undefined) throw new Error('no stored login');
  return JSON.parse(await readFile(only, 'utf8'));
}

/** Paces a loop of calls; never what ends it. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once a whole reconnect series with the host's delays (50, 50, 50 ms), started now on
 * another registry, has given up on a server that keeps dying: the positive event by which a
 * watchdog of the host, had it scheduled anything before, would have tried.
 */
async function aSeriesLater(): Promise<void> {
  const flag = join(dir, 'dying');
  const yardstick = new McpRegistry({ schemaCache: null, reconnectDelaysMs: [50, 50, 50] });
  try {
    const config = stdioConfig(
      'yardstick',
      process.execPath,
      fixtureServerArgs('pid', `--exit-at-start-if=${flag}`),
    );
    await yardstick.connectAll([config], 'user');
    const failed = new Promise<void>((resolve) =>
      yardstick.onStatus((status) => {
        if (status.state === 'failed') resolve();
      }),
    );
    await writeFile(flag, '');
    const whoami = yardstick.tools().find((t) => t.name === 'mcp__yardstick__whoami');
    const answer = await whoami?.execute({}, { signal: AbortSignal.timeout(10_000) });
    const first = answer?.content[0];
    const { pid } = JSON.parse(first?.type === 'text' ? first.text : '{}') as { pid: number };
    process.kill(pid, 'SIGKILL');
    await failed;
  } finally {
    await yardstick.disconnectAll();
    await rm(flag, { force: true });
  }
}

/** Calls the tool, paced, until a call fails; resolves with that failure. */
function firstFailure(tool: McpEpochTool): Promise<Error> {
  return waitUntil(async () => {
    const answer = await call(tool);
    if (answer instanceof Error) return answer;
    await pause(100);
    return undefined;
  }, 'a call to fail');
}

describe('epoch mcp login, end to end against a real authorization server', () => {
  it('a host without a stored login shows needsLogin with the command to run, and does not retry', async () => {
    const registry = await connectHost();
    const status = statusOf(registry);
    expect(status.state).toBe('needsLogin');
    if (status.state !== 'needsLogin') return;
    expect(status.error.message).toContain('none is stored for it');
    expect(status.error.message).toContain('Log in to it');
    expect(status.error.message).not.toContain('epoch mcp');
    const seen = fixture.events.length;
    await aSeriesLater(); // a watchdog would have tried by now
    expect(statusOf(registry).state).toBe('needsLogin');
    expect(fixture.events.length).toBe(seen);
  });

  it('epoch mcp login prints the URL, gets through the browser login, stores a 0600 login', async () => {
    const run = await cli('mcp', 'login', SERVER);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`${fixture.issuer}/auth?`);
    expect(run.out).toContain('code_challenge_method=S256');
    expect(run.out).toContain(`resource=${encodeURIComponent(fixture.mcpUrl)}`);
    expect(run.out).toContain(`Logged in to "${SERVER}" at ${fixture.issuer}`);
    expect(run.out).toContain('lists 1 tool');
    const [token] = fixture.events.filter((e) => e.event === 'token');
    expect(token).toMatchObject({ grant: 'authorization_code', status: 200 });
    const files = await loginFiles();
    expect(files).toHaveLength(1);
    for (const f of files) expect((await stat(f)).mode & 0o777).toBe(0o600);
    const login = await storedLogin();
    expect(login.client.client_id).toBeTruthy();
    expect(login.tokens?.refresh_token).toBeTruthy();
  });

  it('the host picks the login up on reconnect, and tool calls keep working across expiries by proactive refresh', async () => {
    const registry = host as McpRegistry;
    expect((await registry.reconnect(SERVER)).state).toBe('connected');
    const tool = whoami(registry);
    const refusedBefore = fixture.events.filter((e) => e.event === 'refused').length;
    const refreshesBefore = fixture.refreshes().length;
    const answers: (string | Error)[] = [];
    // Calls until three refreshes have been made (a 2 s token is due after 1 s): what ends the
    // loop is the refreshes, however slowly the calls go.
    await waitUntil(async () => {
      answers.push(await call(tool));
      await pause(100);
      return fixture.refreshes().length - refreshesBefore >= 3;
    }, 'three refreshes');
    expect(answers.filter((a) => a !== 'you are fixture-user')).toEqual([]);
    expect(fixture.refreshes().length - refreshesBefore).toBeGreaterThanOrEqual(3);
    // Proactive: no request went out with an expired token, so the server refused none.
    expect(fixture.events.filter((e) => e.event === 'refused').length).toBe(refusedBefore);
    expect(fixture.refreshes().every((e) => e.status === 200)).toBe(true);
    await registry.disconnectAll();
  });

  it('two processes refreshing the same login at once both keep working; each refresh token is used once', async () => {
    const refreshesBefore = fixture.refreshes().length;
    const children = [startClient(), startClient()];
    try {
      await Promise.all(children.map((c) => c.ready));
      // Both hold the same tokens; start when they are due, so both want to refresh right away.
      const { tokens } = await storedLogin();
      const lifetime = 2_000;
      // The rule under test is one of wall-clock time (a token is due half its life before it
      // expires), in other processes: this waits for that instant. Late is as good as on time.
      await pause(Math.max(0, (tokens?.expires_at ?? 0) - lifetime / 2 - Date.now()));
      for (const c of children) c.process.stdin?.write('go\n');
      const results = await Promise.all(children.map((c) => c.result));
      for (const result of results) {
        readable.push(...result.logs, ...result.errors, JSON.stringify(result.statuses));
        expect(result.errors).toEqual([]);
        expect(result.ok).toBeGreaterThan(10);
      }
    } finally {
      for (const c of children) c.process.kill('SIGKILL');
    }
    const refreshes = fixture.refreshes().slice(refreshesBefore);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(refreshes.filter((e) => e.status !== 200 || e.error !== undefined)).toEqual([]);
    // Rotation: every refresh token was presented exactly once, over the whole test.
    const presented = fixture.refreshes().map((e) => e.presented);
    expect(new Set(presented).size).toBe(presented.length);
    // What they left behind is a token the server takes, in a file still 0600.
    const [only] = await loginFiles();
    expect((await stat(only as string)).mode & 0o777).toBe(0o600);
    const { tokens } = await storedLogin();
    const answer = await fetch(fixture.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answer.status).toBe(200);
  });

  it('a refresh token revoked at the authorization server gives needsLogin with the reason; no retry; calls fail at once', async () => {
    const registry = await connectHost();
    const tool = whoami(registry);
    expect(await call(tool)).toBe('you are fixture-user');
    const login = await storedLogin();
    const metadata = (await (
      await fetch(`${fixture.issuer}/.well-known/openid-configuration`)
    ).json()) as { revocation_endpoint: string };
    const revoked = await fetch(metadata.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: login.tokens?.refresh_token ?? '',
        token_type_hint: 'refresh_token',
        client_id: login.client.client_id,
      }),
    });
    expect(revoked.status).toBe(200);
    // The access token still works until it is due; then the refresh is refused.
    const failure = await firstFailure(tool);
    expect(isMcpError(failure, 'needs_login')).toBe(true);
    const message = (failure as Error).message;
    expect(message).toContain('invalid_grant');
    expect(message).toContain('Log in to it');
    expect(message).not.toContain('HTTP 401');
    const status = statusOf(registry);
    expect(status).toMatchObject({ state: 'needsLogin', error: { code: 'needs_login' } });
    if (status.state === 'needsLogin') expect(status.error.message).toContain('invalid_grant');
    expect(fixture.refreshes().at(-1)).toMatchObject({ status: 400, error: 'invalid_grant' });
    // The tokens are gone from the file, the client registration stays for the next login.
    expect((await storedLogin()).tokens).toBeUndefined();

    const seen = fixture.events.length;
    await aSeriesLater();
    expect(statusOf(registry).state).toBe('needsLogin');
    const next = await call(tool);
    expect(isMcpError(next, 'needs_login')).toBe(true);
    expect((next as Error).message).toContain('invalid_grant');
    // Nothing was sent: neither by a watchdog nor by the call.
    expect(fixture.events.length).toBe(seen);
  });

  it('logging in again fixes it; epoch mcp logout revokes the tokens and deletes the file', async () => {
    const again = await cli('mcp', 'login', SERVER);
    expect(again.code).toBe(0);
    const registry = host as McpRegistry;
    expect((await registry.reconnect(SERVER)).state).toBe('connected');
    expect(await call(whoami(registry))).toBe('you are fixture-user');

    const revocationsBefore = fixture.events.filter((e) => e.event === 'revocation').length;
    const run = await cli('mcp', 'logout', SERVER);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('the authorization server revoked its tokens');
    expect(await loginFiles()).toEqual([]);
    const revocations = fixture.events.filter((e) => e.event === 'revocation');
    expect(revocations.slice(revocationsBefore)).toEqual([
      { event: 'revocation', status: 200 },
      { event: 'revocation', status: 200 },
    ]);
    // The running host learns at its next refresh that the login is gone.
    const tool = whoami(registry);
    const failure = await firstFailure(tool);
    expect(isMcpError(failure, 'needs_login')).toBe(true);
    expect((failure as Error).message).toContain('stored login is gone');
    const nothing = await cli('mcp', 'logout', SERVER);
    expect(nothing.out).toContain(`No stored login for MCP server "${SERVER}"`);
  });

  it('no token value the authorization server issued appears in any output, log line, status or error', () => {
    const values = fixture.tokenValues();
    expect(values.length).toBeGreaterThan(10);
    const text = readable.join('\n');
    expect(text.length).toBeGreaterThan(1000);
    const leaked = values.filter((value) => text.includes(value));
    expect(leaked).toEqual([]);
  });
});

describe('epoch mcp login / logout arguments', () => {
  it('an unknown name, a stdio server and a missing name are each a clear error', async () => {
    const unknown = await cli('mcp', 'login', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(
      `there is no MCP server "nope" in ${file} or in installed plugins`,
    );
    expect(unknown.err).toContain(`the servers are: ${SERVER}, local`);
    const stdio = await cli('mcp', 'logout', 'local');
    expect(stdio.code).toBe(2);
    expect(stdio.err).toContain('"local"');
    expect(stdio.err).toContain('is a stdio server');
    const missing = await runCli(['mcp', 'login']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing <name>');
    expect(missing.err).toContain('Usage: epoch mcp login <name>');
    const extra = await runCli(['mcp', 'list', 'x']);
    expect(extra.code).toBe(2);
    expect(extra.err).toContain('unexpected "x": it takes no arguments');
  });
});

interface ClientRun {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  readonly result: Promise<{
    ok: number;
    errors: string[];
    logs: string[];
    statuses: unknown[];
  }>;
}

/** A second agent process (built dist) on the same login; see fixtures/oauth-client.mjs. */
function startClient(): ClientRun {
  const child = spawn(process.execPath, [CLIENT, file, SERVER, '4000'], {
    env: { ...process.env, EPOCH_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const exited = once(child, 'exit').then(() => {
    readable.push(stderr);
  });
  const ready = new Promise<void>((resolve, reject) => {
    lines.once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(line))));
    void exited.then(() => reject(new Error(`client exited before ready: ${stderr}`)));
  });
  const result = new Promise<ClientRun['result'] extends Promise<infer R> ? R : never>(
    (resolve, reject) => {
      lines.on('line', (line) => {
        if (line !== 'ready') resolve(JSON.parse(line));
      });
      void exited.then(() => reject(new Error(`client exited without a result: ${stderr}`)));
    },
  );
  return { process: child, ready, result };
}
