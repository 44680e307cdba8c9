// The options of every request an McpClient sends: its timeout and the caller's signal, and for a
// tools/call the progress rule. What a failed request means is errors/request.ts's.
//
// The progress rule: a call's `timeout` is how long it may go without a sign of life. Every
// notifications/progress the server sends for it starts `timeout` again (request-limits.ts, on
// every path), so progress keeps a long call alive; `maxTotalTimeoutMs` is the hard limit on the
// whole call, however much progress comes.
// The SDK's own `maxTotalTimeout` is not used for it: the SDK checks it only when a progress
// report arrives, so a call could outlive it by a whole `timeout`, and not on our direct path.
// Ours is a timer that aborts the request's signal, which both paths already obey (the server is
// told to cancel), so the total limit holds exactly on every path and in both eras.
//
// A request a server may ask the person a question during (tools/call, resources/read,
// prompts/get) has its `timeout` on such a timer too, not the SDK's: the time a person takes to
// answer does not count against it (README "Servers that ask you"), and the SDK's timer cannot be
// stopped while a question is open. Both are request-limits.ts'. The SDK is then given no timeout
// of its own to speak of; our timer aborts the signal, both paths send notifications/cancelled and
// reject with the SDK's RequestTimeout error, so errors/request.ts says `request_timeout` as before.
import type { ToolProgress } from '@epoch-agent/protocol';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../types.js';
import type { RequestLimits } from './request-limits.js';

/**
 * The SDK's own timeout for a request whose `timeout` is ours (request-limits.ts): the longest a
 * Node timer takes (about 24 days), so that ours is the one that ends it.
 */
export const TIMED_BY_US_MS = 2_147_483_647;

export function buildRequestOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  return signal === undefined ? { timeout: timeoutMs } : { timeout: timeoutMs, signal };
}

/**
 * A request's options with its limits (request-limits.ts): `signal` is theirs, made when the SDK's
 * path reads it (a spread of the options reads it too); direct-calls.ts watches `limits` instead
 * and never reads it.
 */
export interface LimitedRequestOptions extends RequestOptions {
  readonly limits?: RequestLimits;
}

/**
 * A tools/call's progress: each report is alive() to its `limits` (it restarts `timeout`) and goes
 * to `onProgress`. Always given, so a progressToken is always sent: progress keeps the call alive
 * even when nobody shows it. One function per call.
 */
export function progressTo(
  limits: RequestLimits | undefined,
  onProgress: ((progress: ToolProgress) => void) | undefined,
): NonNullable<RequestOptions['onprogress']> {
  return ({ progress, total, message }) => {
    limits?.alive();
    onProgress?.({
      progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    });
  };
}

/** A tools/call's options: progress restarts `timeout` and goes to `onProgress`. */
export function callRequestOptions(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  onProgress: ((progress: ToolProgress) => void) | undefined,
): RequestOptions {
  return {
    ...buildRequestOptions(timeoutMs, signal),
    resetTimeoutOnProgress: true,
    onprogress: progressTo(undefined, onProgress),
  };
}

/**
 * Options whose signal is `limits'` (see LimitedRequestOptions), with a tools/call's `onprogress`
 * (progressTo), which restarts `timeout`. `direct`: for direct-calls.ts, which never reads the
 * signal: an object of one plain shape, without the getter (an object literal with a getter and a
 * spread is built on V8's slow path, on every call).
 */
export function limitedRequestOptions(
  timeoutMs: number,
  limits: RequestLimits,
  onprogress: RequestOptions['onprogress'],
  direct: boolean,
): LimitedRequestOptions {
  if (direct) {
    return onprogress === undefined
      ? { timeout: timeoutMs, limits }
      : { timeout: timeoutMs, limits, resetTimeoutOnProgress: true, onprogress };
  }
  const progress = onprogress === undefined ? {} : { resetTimeoutOnProgress: true, onprogress };
  return {
    timeout: timeoutMs,
    limits,
    get signal() {
      return limits.signal;
    },
    ...progress,
  };
}

/** The URL of a remote server, for a request's error (errors/request.ts); undefined for a stdio server. */
export function remoteUrl(config: McpServerConfig): string | undefined {
  return config.transport === 'stdio' ? undefined : config.url;
}
