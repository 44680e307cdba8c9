// The time limits of one request, on timers of ours that abort its signal (which the SDK's path and
// direct-calls.ts both obey: the server is told to cancel): a tools/call's total limit
// (`max_total_timeout`, however much progress comes), and for a request a server may ask a person
// a question during, its `timeout` as the longest it may go without a sign of life — which starts
// at the send, starts again at each progress report and each answered question, and stands still
// while a person is asked. One object per request, made on the hot path of every call: one
// AbortController, one combined signal, a timer per limit; what only a question needs is made
// when one comes.
import { type Clock, type ClockTimer, realClock } from './clock.js';

export interface RequestLimitsOptions {
  /** The caller's signal: its abort ends the request too, and is no limit passing. */
  readonly caller: AbortSignal | undefined;
  /** The whole request's limit (`max_total_timeout`), from now; absent: none. */
  readonly totalMs?: number | undefined;
  /** The longest wait for a sign of life (`timeout`), from start(); absent: the SDK's timeout. */
  readonly timeoutMs?: number | undefined;
  readonly clock?: Clock;
}

export class RequestLimits {
  /** The caller's signal and these limits in one: what the request is sent with. */
  readonly signal: AbortSignal;
  readonly #limit = new AbortController();
  readonly #clock: Clock;
  readonly #timeoutMs: number | undefined;
  #passed: 'total' | 'timeout' | undefined;
  #total: ClockTimer | undefined;
  #wait: ClockTimer | undefined;
  #started = false;
  #paused = 0;
  #settled = false;
  #over: AbortController | undefined;

  constructor({ caller, totalMs, timeoutMs, clock = realClock }: RequestLimitsOptions) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
    this.signal =
      caller === undefined ? this.#limit.signal : AbortSignal.any([caller, this.#limit.signal]);
    // Not keeping the process alive: the request in flight does while it runs.
    if (totalMs !== undefined) {
      this.#total = clock.later(totalMs, () => this.#end('total', totalMs), false);
    }
  }

  /** Which limit ended the request, if one did (not the caller). */
  get passed(): 'total' | 'timeout' | undefined {
    return this.#passed;
  }

  /** The request is sent: the wait for a sign of life begins. */
  start(): void {
    this.#started = true;
    this.#restart();
  }

  /** The server showed it is at work (a progress report, an answer that asks): the wait starts again. */
  alive(): void {
    if (this.#started) this.#restart();
  }

  /**
   * A person is asked a question of this request: the wait stands still until the function given
   * back is called (once the question is answered), then starts again, since the server asking
   * was a sign of life. Pauses nest: the wait resumes after the last.
   */
  pause(): () => void {
    this.#paused += 1;
    this.#wait?.cancel();
    this.#wait = undefined;
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      this.#paused -= 1;
      if (this.#started) this.#restart();
    };
  }

  /**
   * Aborted once the request is over, however it ended: its signal aborted, or it settled (end()).
   * A question of the request is cancelled then. Made when first asked for: a question is rare.
   */
  get over(): AbortSignal {
    if (this.#over === undefined) {
      const over = new AbortController();
      this.#over = over;
      if (this.#settled || this.signal.aborted) over.abort(new Error('the request is over'));
      else
        this.signal.addEventListener('abort', () => over.abort(this.signal.reason), { once: true });
    }
    return this.#over.signal;
  }

  /** The request settled: every timer stops. */
  end(): void {
    this.#settled = true;
    this.#total?.cancel();
    this.#wait?.cancel();
    this.#over?.abort(new Error('the request is over'));
  }

  #restart(): void {
    this.#wait?.cancel();
    this.#wait = undefined;
    const ms = this.#timeoutMs;
    if (ms === undefined || this.#paused > 0 || this.#settled || this.signal.aborted) return;
    this.#wait = this.#clock.later(ms, () => this.#end('timeout', ms), false);
  }

  #end(limit: 'total' | 'timeout', ms: number): void {
    if (this.#settled || this.signal.aborted) return;
    this.#passed = limit;
    const what = limit === 'total' ? 'the total limit' : 'no sign of life within';
    this.#limit.abort(new Error(`${what} of ${ms} ms`));
  }
}
