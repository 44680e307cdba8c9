// A login done elsewhere is picked up by a host that runs on, with two real processes and a real
// authorization server (oidc-provider: rotating refresh tokens, revocation; the testkit's
// oauth-servers.mjs): a host (fixtures/login-host.mjs, a process of its own) waits in needsLogin
// until `epoch mcp login` (this process) stores a login, then connects by itself; a refresh token
// rotated by another process is the one it uses; a refresh token revoked at the authorization
// server asks for a login once, not in a loop; and a login made again is picked up again. Access
// tokens live 2 s, so every phase crosses expiries. Every line the host and the CLI wrote is
// searched for every token value the authorization server issued.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type OAuthFixture, startOAuthFixture, waitUntil } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginBrowser } from './login-browser.js';
import { type CliRun, runCli } from './run-cli.js';

const HOST = fileURLToPath(new URL('./fixtures/login-host.mjs', import.meta.url));
const SERVER = 'secured';

let dir: string;
let home: string;
let file: string;
let fixture: OAuthFixture;
let host: Host;
const readable: string[] = [];

interface HostLine {
  readonly status?: { readonly state: string; readonly error?: { readonly message: string } };
  readonly log?: string;
  readonly message?: string;
  readonly call?: string | null;
  readonly code?: string;
  readonly ready?: boolean;
}

interface Host {
  readonly process: ChildProcess;
  readonly lines: HostLine[];
  /** Resolves with the first line from `from` on that `match` takes. */
  next(match: (line: HostLine) => boolean, what: string, from?: number): Promise<HostLine>;
  call(): Promise<HostLine>;
}

function startHost(): Host {
  const child = spawn(process.execPath, [HOST, file, SERVER], {
    env: { ...process.env, EPOCH_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: HostLine[] = [];
  child.stderr?.setEncoding('utf8').on('data', (text: string) => readable.push(text));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    readable.push(line);
    lines.push(JSON.parse(line) as HostLine);
  });
  const next = (match: (line: HostLine) => boolean, what: string, from = 0) =>
    waitUntil(() => lines.slice(from).find(match), what);
  return {
    process: child,
    lines,
    next,
    call: () => {
      const from = lines.length;
      child.stdin?.write('call\n');
      return next((line) => line.call !== undefined, 'a call to be answered', from);
    },
  };
}

const state = (name: string) => (line: HostLine) => line.status?.state === name;

async function cli(...argv: string[]): Promise<CliRun> {
  const run = await runCli([...argv, '--config', file], {
    env: { EPOCH_HOME: home },
    openUrl: loginBrowser().openUrl,
  });
  readable.push(run.out, run.err);
  return run;
}

async function storedLogin(): Promise<{
  client: { client_id: string };
  tokens?: { access_token: string; refresh_token?: string; expires_at: number };
}> {
  const names = (await readdir(join(home, 'oauth'))).filter((n) => n.endsWith('.json'));
  expect(names).toHaveLength(1);
  return JSON.parse(await readFile(join(home, 'oauth', names[0] as string), 'utf8'));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-login-pickup-'));
  // The test file's own (test-setup/epoch-home.ts): where the CLI run in this process stores logins.
  home = process.env.EPOCH_HOME as string;
  fixture = await startOAuthFixture({ accessTokenTtlSeconds: 2 });
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      servers: { [SERVER]: { type: 'http', url: fixture.mcpUrl, connect_timeout: 20 } },
    }),
  );
  host = startHost();
});

afterAll(async () => {
  try {
    if (host.process.exitCode === null) {
      const exited = new Promise((resolve) => host.process.once('exit', resolve));
      host.process.stdin?.write('quit\n');
      await exited;
    }
    await fixture?.stop();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('a login done elsewhere, picked up by a host that runs on', () => {
  it('a host waits in needsLogin, and connects by itself once epoch mcp login stores a login', async () => {
    await host.next(state('needsLogin'), 'needsLogin');
    const from = host.lines.length;
    const run = await cli('mcp', 'login', SERVER);
    expect(run.code).toBe(0);
    await host.next(state('connected'), 'the host to connect by itself', from);
    expect((await host.call()).call).toBe('you are fixture-user');
  });

  it('a refresh token rotated by another process is the one the host uses', async () => {
    const before = await storedLogin();
    const first = before.tokens?.refresh_token;
    // Another process (`epoch mcp call`) refreshes once the access token is due (half its 2 s
    // life): the refresh token the host holds in memory is then spent.
    await waitUntil(
      () => Date.now() >= (before.tokens?.expires_at ?? 0) - 1_000,
      'the access token to be due',
    );
    const other = await cli('mcp', 'call', SERVER, 'whoami');
    expect(other.code).toBe(0);
    const rotated = (await storedLogin()).tokens?.refresh_token;
    expect(rotated).not.toBe(first);
    expect(fixture.refreshes().filter((e) => e.presented === first)).toHaveLength(1);
    // The host's token is due as well: it takes the rotated login, never the spent one.
    expect((await host.call()).call).toBe('you are fixture-user');
    await waitUntil(
      async () => Date.now() >= ((await storedLogin()).tokens?.expires_at ?? 0),
      'the rotated access token to expire',
    );
    expect((await host.call()).call).toBe('you are fixture-user');
    expect(fixture.refreshes().filter((e) => e.presented === first)).toHaveLength(1);
    expect(fixture.refreshes().filter((e) => e.status !== 200)).toEqual([]);
  });

  it('a refresh token revoked at the authorization server asks for a login once, not in a loop', async () => {
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
    const from = host.lines.length;
    // The access token works until it is due; then its refresh is refused.
    const failed = await waitUntil(async () => {
      const answer = await host.call();
      return answer.call === null ? answer : undefined;
    }, 'a call to fail');
    expect(failed.code).toBe('needs_login');
    expect(failed.message).toContain('invalid_grant');
    await host.next(state('needsLogin'), 'needsLogin', from);
    await host.next(
      (line) =>
        line.log === 'debug' && (line.message ?? '').includes('waiting for one to be stored'),
      'the host to wait for a login',
      from,
    );
    const seen = fixture.events.length;
    const settled = host.lines.length;
    // Something changes in the login directory: the host looks, finds no new login, and stays.
    await writeFile(join(home, 'oauth', 'unrelated.txt'), 'x');
    await host.next(
      (line) => line.log === 'debug' && (line.message ?? '').includes('none new is stored'),
      'the host to look at the logins',
      settled,
    );
    expect(host.lines.slice(settled).filter((line) => line.status !== undefined)).toEqual([]);
    expect(fixture.events.length).toBe(seen);
  });

  it('a login made again is picked up again', async () => {
    const from = host.lines.length;
    const run = await cli('mcp', 'login', SERVER);
    expect(run.code).toBe(0);
    await host.next(state('connected'), 'the host to connect by itself', from);
    expect((await host.call()).call).toBe('you are fixture-user');
  });

  it('no token value the authorization server issued is in anything the host or the CLI wrote', () => {
    const values = fixture.tokenValues();
    expect(values.length).toBeGreaterThan(4);
    const text = readable.join('\n');
    expect(values.filter((value) => text.includes(value))).toEqual([]);
  });
});
