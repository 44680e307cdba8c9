// Runs plugin-mcp's OAuth fixture (a real authorization server, oidc-provider, and an MCP server
// that accepts only its tokens; see its header) as a child process on 127.0.0.1, and collects
// what it reports: every token endpoint request, revocation and refused MCP request.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The fixture lives with plugin-mcp, whose devDependency oidc-provider is.
const FIXTURE = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/oauth-servers.mjs', import.meta.url),
);
const PREFIX = 'oauth-fixture ';

export type FixtureEvent =
  | { readonly event: 'ready'; readonly issuer: string; readonly mcpUrl: string }
  | {
      readonly event: 'token';
      readonly grant: string;
      /** The refresh token presented (refresh_token grant). */
      readonly presented?: string;
      readonly status: number;
      readonly error?: string;
      /** Every token value the answer issued. */
      readonly issued: readonly string[];
    }
  | { readonly event: 'revocation'; readonly status: number }
  | { readonly event: 'refused'; readonly reason: string };

export type TokenEvent = Extract<FixtureEvent, { event: 'token' }>;

export interface OAuthFixture {
  readonly issuer: string;
  readonly mcpUrl: string;
  readonly events: FixtureEvent[];
  /** Token endpoint requests with grant_type=refresh_token, in order. */
  refreshes(): TokenEvent[];
  /** Every access and refresh token value the authorization server issued or was shown. */
  tokenValues(): string[];
  stop(): Promise<void>;
}

export async function startOAuthFixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: FixtureEvent[] = [];
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ready = new Promise<Extract<FixtureEvent, { event: 'ready' }>>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.startsWith(PREFIX)) return;
      const event = JSON.parse(line.slice(PREFIX.length)) as FixtureEvent;
      events.push(event);
      if (event.event === 'ready') resolve(event);
    });
    child.once('exit', (code) => reject(new Error(`OAuth fixture exited (${code}): ${stderr}`)));
  });
  let started: Extract<FixtureEvent, { event: 'ready' }>;
  try {
    started = await ready;
  } catch (error) {
    await stop(child);
    throw error;
  }
  const tokens = () => events.filter((e): e is TokenEvent => e.event === 'token');
  return {
    issuer: started.issuer,
    mcpUrl: started.mcpUrl,
    events,
    refreshes: () => tokens().filter((e) => e.grant === 'refresh_token'),
    tokenValues: () => [
      ...new Set(
        tokens().flatMap((e) => [...e.issued, ...(e.presented === undefined ? [] : [e.presented])]),
      ),
    ],
    stop: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
