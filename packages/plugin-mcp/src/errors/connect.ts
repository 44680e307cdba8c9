// What a person or model reads when a server cannot be used: it did not connect, it refused our
// credentials, or a request came while it was not connected. Each message names the server, says
// what happened and what to do. Also which transport failures mean "log in again" (HTTP 401) and
// "the server forgot our session" (HTTP 404 on a Streamable HTTP session), decided on the SDK's
// typed errors, never on message text. And how a request waits for a connection being opened:
// until it is, or until the caller stops it (then the request was never sent).
import { basename } from 'node:path';
import { redactUrl } from '@epoch-agent/infra';
import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { SessionLoss } from '../connection/connection.js';
import type { McpConnectionState, McpStateError } from '../connection/state.js';
import type { Scrubber } from '../secrets.js';
import { messageOf, seconds, sentence } from '../text.js';
import { MessageTooLongError } from '../transport/message-lines.js';
import type { Redirect } from '../transport/redirects.js';
import {
  assertNever,
  type McpServerConfig,
  type RemoteServerConfig,
  type StdioServerConfig,
} from '../types.js';
import { httpAnswer, networkFailure, oneLine } from './http.js';
import { isMcpError, McpError } from './mcp-error.js';

export interface ConnectFailureSite {
  readonly config: McpServerConfig;
  /** The connect deadline passed (the attempt was aborted for it). */
  readonly timedOut: boolean;
  /** What the server wrote to stderr, secrets blanked; always empty for a remote server. */
  readonly stderrTail: string;
  /** A remote server's last answer, when it was a redirect (the SDK's error has only its status). */
  readonly redirect?: Redirect | undefined;
  readonly scrub: Scrubber;
}

export function connectFailure(error: unknown, site: ConnectFailureSite): McpError {
  const { config } = site;
  const server = config.name;
  // The OAuth layer's own verdict first: its message has the real reason (no login stored, a
  // refresh token the authorization server refused), which the generic 401 text would hide.
  if (isMcpError(error, 'needs_login')) return error;
  if (isAuthFailure(error)) return needsLogin(server, error);
  if (site.timedOut) {
    return new McpError(
      'connect_timeout',
      `MCP server "${server}" did not finish connecting within ${seconds(config.connectTimeoutMs)} (connect_timeout covers start, initialize and the first tools/list). ${afterTimeout(site)}`,
      { server, cause: error },
    );
  }
  const what =
    config.transport === 'stdio' ? stdioFailure(error, site) : remoteFailure(error, config, site);
  if (what instanceof McpError) return what;
  return new McpError('connect_failed', `MCP server "${server}" failed to connect: ${what}`, {
    server,
    cause: error,
  });
}

/** What to do about a connect that timed out: remote servers have no stderr to look at. */
function afterTimeout({ config, stderrTail }: ConnectFailureSite): string {
  const raise = `raise "connect_timeout" for it in mcp.json`;
  if (config.transport !== 'stdio') {
    return `If it is just slow, ${raise}; otherwise check that ${redactUrl(config.url)} is the server's MCP endpoint and that it answers.`;
  }
  if (stderrTail.trim() !== '') {
    return `If it is just slow to start, ${raise}; otherwise check its stderr.`;
  }
  const runner = packageRunner(config);
  if (runner !== undefined) {
    // A package runner is silent while it fetches: the usual reason for a first start that hangs.
    return `It wrote nothing to stderr: "${runner}" may still be downloading the package, or this machine may be offline. Run the command once in a terminal to see, or ${raise}.`;
  }
  return `It wrote nothing to stderr. If it is just slow to start, ${raise}; otherwise run its command in a terminal to see what it does.`;
}

// Commands that download the package they run on first use, printing nothing meanwhile.
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);

function packageRunner(config: StdioServerConfig): string | undefined {
  const name = basename(config.command).replace(/\.(cmd|exe)$/i, '');
  return PACKAGE_RUNNERS.has(name) ? name : undefined;
}

/** A stdio server's connect failure in words, or its own McpError (spawn errors keep their code). */
function stdioFailure(
  error: unknown,
  { stderrTail, scrub }: ConnectFailureSite,
): string | McpError {
  // A timed-out tools/list keeps its own code; a closed connection is the server's failure to
  // connect (a send that hit a dead pipe says the same thing less clearly).
  if (error instanceof McpError && error.code !== 'connection_closed') return error;
  if (error instanceof MessageTooLongError) {
    return `${sentence(error.message)} Check that it writes only JSON-RPC messages to stdout (logs go to stderr).`;
  }
  const what = isClosed(error)
    ? 'the server closed the connection while connecting (the process exited, or closed its stdout)'
    : scrub(oneLine(messageOf(error)));
  const stderr =
    stderrTail.trim() === '' ? 'it wrote nothing to stderr' : 'see what it wrote to stderr';
  return `${sentence(what)} Check its "command" and "args"; ${stderr}.`;
}

/** A remote server's connect failure in words: the answer it gave, or why it gave none. */
function remoteFailure(
  error: unknown,
  config: RemoteServerConfig<'sse' | 'http'>,
  { scrub, redirect }: ConnectFailureSite,
): string | McpError {
  // The preflight's verdict and a timed-out tools/list keep their own code and words.
  if (error instanceof McpError && error.code !== 'connection_closed') return error;
  const url = redactUrl(config.url);
  const answer = httpAnswer(error, config.url, scrub, redirect);
  if (answer !== undefined) return answer;
  const network = networkFailure(error);
  if (network !== undefined) {
    return `the server could not be reached: ${scrub(network.text)}. Check that it is running and that "url" (${url}) names the right host and port.`;
  }
  const what = isClosed(error)
    ? 'the server closed the connection while connecting'
    : scrub(oneLine(messageOf(error)));
  return `${sentence(what)} Check "url" (${url}).`;
}

function isClosed(error: unknown): boolean {
  return (
    error instanceof McpError ||
    (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
  );
}

/** A connect attempt that close() ended. */
export function closedWhileConnecting(server: string, cause?: unknown): McpError {
  return new McpError(
    'connection_closed',
    `MCP server "${server}": connect was ended by close().`,
    {
      server,
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/**
 * The server refused our credentials. When the OAuth layer gave up (`cause` is, or wraps, its
 * `needs_login`), its message is kept: it says why, e.g. that the refresh token was refused.
 */
export function needsLogin(server: string, cause?: unknown): McpError {
  const message =
    oauthVerdict(cause)?.message ??
    `MCP server "${server}" refused our credentials (HTTP 401 Unauthorized). Run \`epoch mcp login ${server}\` to sign in again (or fix its "headers" in mcp.json), then reconnect it. Retrying without that will not help, so it is not retried.`;
  return new McpError('needs_login', message, {
    server,
    ...(cause === undefined ? {} : { cause }),
  });
}

function oauthVerdict(error: unknown): McpError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (isMcpError(e, 'needs_login')) return e;
  }
  return undefined;
}

/**
 * HTTP 401 from either remote transport: the SDK's UnauthorizedError (an OAuth provider gave up),
 * a Streamable HTTP status, or the SSE stream's refused GET. Looks through `cause` too, because
 * our own errors wrap the SDK's.
 */
export function isAuthFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof UnauthorizedError) return true;
    if (e instanceof SdkHttpError && e.status === 401) return true;
    if (e instanceof SseError && e.code === 401) return true;
  }
  return false;
}

/**
 * The Streamable HTTP server answered 404 to a request that carried our session id: it no longer
 * knows the session (restarted, expired it). The spec's answer is a new initialize.
 */
export function isSessionExpired(error: unknown, transport: Transport): boolean {
  return error instanceof SdkHttpError && error.status === 404 && transport.sessionId !== undefined;
}

/** The live connection ended without close(). */
export function lost(server: string, loss: SessionLoss): McpStateError {
  const what = lostHow(loss);
  return {
    code: 'connection_closed',
    message: `MCP server "${server}" ${what}; reconnecting in the background.`,
  };
}

function lostHow(loss: SessionLoss): string {
  switch (loss.kind) {
    case 'closed':
      return 'closed the connection (for a stdio server: the process exited)';
    case 'tooLong':
      return loss.error.did;
    case 'stream':
      return 'dropped its SSE event stream';
    case 'unreachable':
      return `cannot be reached any more: ${loss.failure.text}, so the connection counts as dead`;
    default:
      return assertNever(loss, 'session loss');
  }
}

/** A keepalive ping failed (`failure` is the ping's request error message). */
export function keepaliveFailed(failure: string): string {
  return `${sentence(failure)} That was a keepalive ping, so the connection counts as dead; reconnecting in the background.`;
}

/** The watchdog's series ended without a connection (`last` is the last attempt's failure). */
export function gaveUp(last: string, attempts: number): string {
  return `${sentence(last)} Gave up after ${attempts} reconnect attempts; the next tool call, or a reconnect, starts a new series.`;
}

export interface UnavailableSite {
  readonly server: string;
  readonly method: string;
  readonly tool?: string | undefined;
}

/** A request on a server that cannot take it now: fails at once, never waits. */
export function unavailable(state: McpConnectionState, site: UnavailableSite): McpError {
  const what = describe(site);
  const options = { server: site.server, ...(site.tool === undefined ? {} : { tool: site.tool }) };
  if (state.kind === 'needsLogin') {
    return new McpError('needs_login', `${what} cannot be sent: ${state.message}`, options);
  }
  return new McpError(
    'connection_closed',
    `${what} cannot be sent because ${sentence(reason(state))}`,
    options,
  );
}

/** The request got a 404 for its session again, right after a new initialize. Not retried again. */
export function sessionExpiredAgain(site: UnavailableSite, cause: unknown): McpError {
  return new McpError(
    'request_failed',
    `${describe(site)} failed: the server forgot our session (HTTP 404), and after a new initialize it answered 404 again, so it was not sent a third time. The server's session handling looks broken; check it (or restart it).`,
    { server: site.server, ...(site.tool === undefined ? {} : { tool: site.tool }), cause },
  );
}

/** The caller's signal aborted while the request waited for the server to connect. */
export function abortedWhileConnecting(site: UnavailableSite, cause: unknown): McpError {
  return new McpError(
    'aborted',
    `${describe(site)} was stopped by the user while it waited for the server to connect; it was never sent.`,
    { server: site.server, ...(site.tool === undefined ? {} : { tool: site.tool }), cause },
  );
}

function describe(site: UnavailableSite): string {
  const what = site.tool === undefined ? site.method : `${site.method} "${site.tool}"`;
  return `MCP server "${site.server}": ${what}`;
}

function reason(state: McpConnectionState): string {
  switch (state.kind) {
    case 'connecting':
      return 'it is still connecting; try again shortly';
    case 'reconnecting': {
      const { attempt, attempts, nextAttemptAt } = state;
      const wait = nextAttemptAt - Date.now();
      const when =
        wait <= 0
          ? `attempt ${attempt} of ${attempts} is running now`
          : `next attempt in ${inSeconds(wait)} (attempt ${attempt} of ${attempts})`;
      return `it is reconnecting; ${when}. Try again after that. It went down because: ${state.error.message}`;
    }
    case 'idle':
      return 'it was closed for being idle; try again';
    case 'needsLogin':
      return state.message;
    case 'failed':
      return `it failed: ${state.message}`;
    case 'disconnected':
    case 'connected':
      return 'it is not connected';
    default:
      return assertNever(state, 'connection state');
  }
}

function inSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/**
 * `promise` (a connection being opened), unless the caller's signal aborts first: then the
 * request that waited for it fails as never sent.
 */
export function waitUnlessAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  site: UnavailableSite,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortedWhileConnecting(site, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(abortedWhileConnecting(site, signal.reason));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
