// What a person or model reads when a server cannot be used now: a connect that close() ended, a
// refused login, a connection that died, a watchdog that gave up, a request that came while the
// server was down (it fails at once, never waits). And how a request waits for a connection being
// opened: until it is, or until the caller stops it (then the request was never sent). Free of the
// SDK: McpClient builds these before the connection's code has loaded.
import type { McpConnectionState, McpStateError } from '../connection/state.js';
import { sentence } from '../text.js';
import type { MessageTooLongError } from '../transport/message-lines.js';
import { assertNever } from '../types.js';
import type { NetworkFailure } from './http.js';
import { McpError, mcpErrorIn } from './mcp-error.js';

/** A connect attempt that close() ended. */
export function closedWhileConnecting(server: string, cause?: unknown): McpError {
  return new McpError(
    'connection_closed',
    `MCP server "${server}": connect was ended by close().`,
    { server, cause },
  );
}

/**
 * The server refused our credentials. When the OAuth layer gave up (`cause` is, or wraps, its
 * `needs_login`), its message is kept: it says why, e.g. that the refresh token was refused.
 */
export function needsLogin(server: string, cause?: unknown): McpError {
  const message =
    mcpErrorIn(cause, 'needs_login')?.message ??
    `MCP server "${server}" refused our credentials (HTTP 401 Unauthorized). It needs a new login (or other credentials), then a reconnect; retrying without that will not help, so it is not retried.`;
  return new McpError('needs_login', message, { server, cause });
}

/**
 * How a connection ended without close(): `closed` (the process exited, the transport closed),
 * `tooLong` (a stdio server's line outgrew the bound, so the transport stopped it),
 * `stream` (a legacy SSE event stream dropped) or `unreachable` (a request to a remote server found
 * its connection refused or cut).
 */
export type ConnectionLoss =
  | { readonly kind: 'closed' }
  /** A stdio server wrote a line over the transport's bound; the transport stopped it. */
  | { readonly kind: 'tooLong'; readonly error: MessageTooLongError }
  | { readonly kind: 'stream' }
  /** The server ended our subscriptions/listen stream (2026-07-28): list changes would be missed. */
  | { readonly kind: 'subscription' }
  | { readonly kind: 'unreachable'; readonly failure: NetworkFailure };

/** The live connection ended without close(). */
export function lost(server: string, loss: ConnectionLoss): McpStateError {
  const what = lostHow(loss);
  return {
    code: 'connection_closed',
    message: `MCP server "${server}" ${what}; reconnecting in the background.`,
  };
}

/** What ended the connection, as the rest of a sentence about the server ("MCP server "x" <how>"). */
export function lostHow(loss: ConnectionLoss): string {
  switch (loss.kind) {
    case 'closed':
      return 'closed the connection (for a stdio server: the process exited)';
    case 'tooLong':
      return loss.error.did;
    case 'stream':
      return 'dropped its SSE event stream';
    case 'subscription':
      return 'ended its subscriptions/listen stream, so tool list changes would go unseen';
    case 'unreachable':
      return `cannot be reached any more: ${loss.failure.text}, so the connection counts as dead`;
    default:
      return assertNever(loss, 'connection loss');
  }
}

/**
 * A keepalive failed (`failure` is its request error message): a ping, or on a 2026-07-28
 * connection, which has no ping, a server/discover.
 */
export function keepaliveFailed(failure: string): string {
  return `${sentence(failure)} That was a keepalive check, so the connection counts as dead; reconnecting in the background.`;
}

/** The watchdog's series ended without a connection (`last` is the last attempt's failure). */
export function gaveUp(last: string, attempts: number): string {
  return `${sentence(last)} Gave up after ${attempts} reconnect attempts; the next tool call, or a reconnect, starts a new series.`;
}

export interface RequestTarget {
  readonly server: string;
  readonly method: string;
  readonly tool?: string | undefined;
}

/** A request on a server that cannot take it now: fails at once, never waits. */
export function unavailable(state: McpConnectionState, target: RequestTarget): McpError {
  const what = describe(target);
  const options = { server: target.server, tool: target.tool };
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
export function sessionExpiredAgain(target: RequestTarget, cause: unknown): McpError {
  return new McpError(
    'request_failed',
    `${describe(target)} failed: the server forgot our session (HTTP 404), and after a new initialize it answered 404 again, so it was not sent a third time. The server's session handling looks broken; check it (or restart it).`,
    { server: target.server, tool: target.tool, cause },
  );
}

/** The caller's signal aborted while the request waited for the server to connect. */
export function abortedWhileConnecting(target: RequestTarget, cause: unknown): McpError {
  return new McpError(
    'aborted',
    `${describe(target)} was stopped by the user while it waited for the server to connect; it was never sent.`,
    { server: target.server, tool: target.tool, cause },
  );
}

/** The caller's signal had aborted before the request was made: nothing waited, nothing was sent. */
export function abortedBeforeSending(target: RequestTarget, cause: unknown): McpError {
  return new McpError(
    'aborted',
    `${describe(target)} was cancelled before it was sent: its caller's signal had already been aborted, so nothing reached the server.`,
    { server: target.server, tool: target.tool, cause },
  );
}

function describe(target: RequestTarget): string {
  const what = target.tool === undefined ? target.method : `${target.method} "${target.tool}"`;
  return `MCP server "${target.server}": ${what}`;
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
    case 'notStarted':
      return 'it starts on demand and was not started yet; try again';
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
  target: RequestTarget,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortedWhileConnecting(target, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(abortedWhileConnecting(target, signal.reason));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
