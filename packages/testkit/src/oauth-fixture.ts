// Runs the OAuth fixture (oauth-servers.mjs: a real authorization server, oidc-provider, and an MCP
// server that accepts only its tokens; see its header) as a child process on 127.0.0.1, and
// collects what it reports: every token endpoint request, revocation and refused MCP request.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../oauth-servers.mjs', import.meta.url));
const PREFIX = 'oauth-fixture ';
// Only turns a start that hangs into a failure that shows what the fixture printed; well under
// the suite's 30 s hook timeout, which would say nothing.
const READY_TIMEOUT_MS = 20_000;
const OUTPUT_TAIL_CHARS = 4_000;

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
type ReadyEvent = Extract<FixtureEvent, { event: 'ready' }>;

export interface OAuthFixture {
  /** The authorization server. */
  readonly issuer: string;
  /** The MCP server that takes only its tokens. */
  readonly mcpUrl: string;
  readonly events: FixtureEvent[];
  /** Token endpoint requests with grant_type=refresh_token, in order. */
  refreshes(): TokenEvent[];
  /** Every access and refresh token value the authorization server issued or was shown. */
  tokenValues(): string[];
  /** The authorization server's next `count` token requests are answered 503 (a short outage). */
  tokenOutage(count: number): Promise<void>;
  stop(): Promise<void>;
}

export interface OAuthFixtureOptions {
  /** Access token lifetime in seconds (the fixture's default: 2). */
  readonly accessTokenTtlSeconds?: number;
  /**
   * A confidential client registered beforehand, with its one redirect URI; dynamic registration
   * is then off (an authorization server that does not offer it).
   */
  readonly staticClient?: {
    readonly clientId: string;
    readonly clientSecret: string;
    readonly redirectUri: string;
  };
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const env = { ...process.env };
  if (options.accessTokenTtlSeconds !== undefined) {
    env.ACCESS_TOKEN_TTL = String(options.accessTokenTtlSeconds);
  }
  if (options.staticClient !== undefined) {
    const { clientId, clientSecret, redirectUri } = options.staticClient;
    env.STATIC_CLIENT = JSON.stringify({
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uri: redirectUri,
    });
  }
  const child = spawn(process.execPath, [FIXTURE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const events: FixtureEvent[] = [];
  // What it printed besides its reports (oidc-provider's notices, a stack): shown if it never starts.
  let output = '';
  const keep = (text: string): void => {
    output = (output + text).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stderr.setEncoding('utf8').on('data', keep);
  let timer: NodeJS.Timeout | undefined;
  const ready = new Promise<ReadyEvent>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith(PREFIX)) {
        keep(`${line}\n`);
        return;
      }
      const event = JSON.parse(line.slice(PREFIX.length)) as FixtureEvent;
      events.push(event);
      if (event.event === 'ready') resolve(event);
    });
    child.once('exit', (code, signal) =>
      reject(
        new Error(`the OAuth fixture exited (${code ?? signal}) before it was ready:\n${output}`),
      ),
    );
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the OAuth fixture was not ready within ${READY_TIMEOUT_MS} ms; it printed:\n${output}`,
          ),
        ),
      READY_TIMEOUT_MS,
    );
  });
  let started: ReadyEvent;
  try {
    started = await ready;
  } catch (error) {
    await stop(child);
    throw error;
  } finally {
    clearTimeout(timer);
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
    tokenOutage: async (count) => {
      const answer = await fetch(`${started.issuer}/fixture/token-outage?count=${count}`, {
        method: 'POST',
      });
      if (answer.status !== 204) throw new Error(`the outage was not set: ${answer.status}`);
    },
    stop: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
