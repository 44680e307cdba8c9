// The options of every request an McpClient sends: its timeout and the caller's signal, and for a
// tools/call the progress rule. What a failed request means is errors/request.ts's.
//
// The progress rule: a call's `timeout` is how long it may go without a sign of life. Every
// notifications/progress the server sends for it starts `timeout` again (the SDK's
// `resetTimeoutOnProgress`, and direct-calls.ts the same way), so progress keeps a long call
// alive; `maxTotalTimeoutMs` is the hard limit on the whole call, however much progress comes.
// The SDK's own `maxTotalTimeout` is not used for it: the SDK checks it only when a progress
// report arrives, so a call could outlive it by a whole `timeout`, and not on our direct path.
// Ours is a timer that aborts the request's signal, which both paths already obey (the server is
// told to cancel), so the total limit holds exactly on every path and in both eras.
import type { ToolProgress } from '@epoch-agent/protocol';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../types.js';
import { type Clock, realClock } from './clock.js';

export function buildRequestOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  return signal === undefined ? { timeout: timeoutMs } : { timeout: timeoutMs, signal };
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
    // Always given, so a progressToken is always sent: progress keeps the call alive even when
    // nobody shows it.
    onprogress: ({ progress, total, message }) =>
      onProgress?.({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      }),
  };
}

/**
 * The hard limit on one call's whole time: `signal` is the caller's signal and the limit in one;
 * `passed` says whether the limit (not the caller) ended it. end() when the call settles.
 */
export class TotalLimit {
  readonly signal: AbortSignal;
  readonly #timer;
  #passed = false;

  constructor(ms: number, caller: AbortSignal | undefined, clock: Clock = realClock) {
    const limit = new AbortController();
    this.signal = caller === undefined ? limit.signal : AbortSignal.any([caller, limit.signal]);
    // Not keeping the process alive: the request's own timeout does while it runs.
    this.#timer = clock.later(
      ms,
      () => {
        this.#passed = true;
        limit.abort(new Error(`the total limit of ${ms} ms passed`));
      },
      false,
    );
  }

  get passed(): boolean {
    return this.#passed;
  }

  end(): void {
    this.#timer.cancel();
  }
}

/** The URL of a remote server, for a request's error (errors/request.ts); undefined for a stdio server. */
export function remoteUrl(config: McpServerConfig): string | undefined {
  return config.transport === 'stdio' ? undefined : config.url;
}
