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
//
// A request a server may ask the person a question during (tools/call, resources/read,
// prompts/get) has its `timeout` on such a timer too (SignOfLife), not the SDK's: the time a person
// takes to answer does not count against it (README "Servers that ask you"), and the SDK's timer
// cannot be stopped while a question is open. The SDK is then given no timeout of its own to
// speak of; our timer aborts the signal, both paths send notifications/cancelled and reject with
// the SDK's RequestTimeout error, so errors/request.ts says `request_timeout` as before.
import type { ToolProgress } from '@epoch-agent/protocol';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../types.js';
import { type Clock, type ClockTimer, realClock } from './clock.js';

/**
 * The SDK's own timeout for a request whose `timeout` is a SignOfLife: the longest a Node timer
 * takes (about 24 days), so that ours is the one that ends it.
 */
export const TIMED_BY_US_MS = 2_147_483_647;

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

/**
 * A request's `timeout` as the longest it may go without a sign of life: `signal` is the caller's
 * signal and this limit in one. The wait starts when the request is sent (start()), starts again
 * at each sign of life (progress, an answered question), and stands still while a person is asked
 * (pause()). `passed` says whether it ended the request. end() when the request settles.
 */
export class SignOfLife {
  readonly signal: AbortSignal;
  /**
   * Aborted once the request is over, however it ended: its signal aborted, or it settled (end()).
   * A question of the request is cancelled then.
   */
  readonly over: AbortSignal;
  readonly #ms: number;
  readonly #clock: Clock;
  readonly #limit = new AbortController();
  readonly #settled = new AbortController();
  #timer: ClockTimer | undefined;
  #started = false;
  #paused = 0;

  constructor(ms: number, caller: AbortSignal | undefined, clock: Clock = realClock) {
    this.#ms = ms;
    this.#clock = clock;
    this.signal =
      caller === undefined ? this.#limit.signal : AbortSignal.any([caller, this.#limit.signal]);
    this.over = AbortSignal.any([this.signal, this.#settled.signal]);
  }

  get passed(): boolean {
    return this.#limit.signal.aborted;
  }

  /** The request is sent: the wait begins. */
  start(): void {
    this.#started = true;
    this.#wait();
  }

  /** The server showed it is at work (a progress report): the wait starts again. */
  alive(): void {
    if (this.#started) this.#wait();
  }

  /**
   * A person is asked a question of this request: the wait stands still until the function given
   * back is called (once the question is answered), then starts again, since the server asking
   * was a sign of life. Pauses nest: the wait resumes after the last.
   */
  pause(): () => void {
    this.#paused += 1;
    this.#timer?.cancel();
    this.#timer = undefined;
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      this.#paused -= 1;
      if (this.#started) this.#wait();
    };
  }

  end(): void {
    this.#timer?.cancel();
    this.#settled.abort(new Error('the request ended'));
  }

  #wait(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    if (this.#paused > 0 || this.#settled.signal.aborted || this.passed) return;
    // Not keeping the process alive: the request in flight does while it runs.
    this.#timer = this.#clock.later(
      this.#ms,
      () => this.#limit.abort(new Error(`no sign of life within ${this.#ms} ms`)),
      false,
    );
  }
}
