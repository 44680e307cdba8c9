// The time limits of one request, on timers of ours that end it early (the server is told to
// cancel, on the SDK's path and direct-calls.ts' alike): a tools/call's total limit
// (`max_total_timeout`, however much progress comes), and for a request a server may ask a person
// a question during, its `timeout` as the longest it may go without a sign of life — which starts
// at the send, starts again at each progress report and each answered question, and stands still
// while a person is asked.
//
// Made on the hot path of every call, so it makes only what the request's path uses: the SDK's
// path obeys an AbortSignal (`signal`, the caller's and these limits' in one), made when first
// asked for; direct-calls.ts is told by a function (watch()). An AbortController and
// AbortSignal.any per call cost more than the rest of a call over a pipe, and each combined signal
// stays in the caller's signal's list of dependants until it is collected. What only a question
// needs (`over`) is made when one comes. The timers are requestClock's (deadlines.ts): one Node
// timer for every request in flight.
import type { QuestionTarget, ReplyReason } from '../elicitation/ask.js';
import type { Clock, ClockTimer } from './clock.js';
import { requestClock } from './deadlines.js';

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
  readonly #caller: AbortSignal | undefined;
  readonly #clock: Clock;
  readonly #timeoutMs: number | undefined;
  #passed: 'total' | 'timeout' | undefined;
  /** What a limit passing ended the request with. */
  #passedError: Error | undefined;
  #total: ClockTimer | undefined;
  #wait: ClockTimer | undefined;
  #started = false;
  #paused = 0;
  #settled = false;
  /** Made by the first read of `signal`. */
  #limit: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #over: AbortController | undefined;
  /** watch()'s watcher; whether this is the caller's signal's listener (handleEvent) for it. */
  #stop: LimitsWatcher | undefined;
  #listening = false;

  constructor({ caller, totalMs, timeoutMs, clock = requestClock }: RequestLimitsOptions) {
    this.#caller = caller;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
    // Not keeping the process alive: the request in flight does while it runs.
    if (totalMs !== undefined) {
      this.#total = clock.later(totalMs, () => this.#end('total', totalMs), false);
    }
  }

  /**
   * The caller's signal and these limits in one: what the SDK's path is sent with. Made when first
   * read: direct-calls.ts watch()es instead.
   */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const limit = new AbortController();
      if (this.#passedError !== undefined) limit.abort(this.#passedError);
      this.#limit = limit;
      const caller = this.#caller;
      this.#signal = caller === undefined ? limit.signal : AbortSignal.any([caller, limit.signal]);
    }
    return this.#signal;
  }

  /** Whether the request was ended early: the caller stopped it, or a limit passed. */
  get aborted(): boolean {
    return this.#passedError !== undefined || this.#caller?.aborted === true;
  }

  /** Why it was ended early, once aborted: the caller's reason, or the limit that passed. */
  get reason(): unknown {
    return this.#passedError ?? this.#caller?.reason;
  }

  /** Which limit ended the request, if one did (not the caller). */
  get passed(): 'total' | 'timeout' | undefined {
    return this.#passed;
  }

  /**
   * `watcher.stop` is called once, with the reason, if the caller stops the request or a limit
   * passes before end(): the signal's abort, for a path that takes no signal (direct-calls.ts).
   * One watcher per request; these limits are the caller's signal's listener (no function made).
   */
  watch(watcher: LimitsWatcher): void {
    this.#stop = watcher;
    const caller = this.#caller;
    if (caller === undefined || this.#settled) return;
    this.#listening = true;
    caller.addEventListener('abort', this, ONCE);
  }

  /** The caller's signal aborted, while watch()ed. */
  handleEvent(): void {
    this.#stopped(this.#caller?.reason);
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
   * Aborted once the request is over, however it ended: ended early, or it settled (end()).
   * A question of the request is cancelled then. Made when first asked for: a question is rare.
   */
  get over(): AbortSignal {
    if (this.#over === undefined) {
      const over = new AbortController();
      this.#over = over;
      if (this.#settled || this.aborted) over.abort(new Error('the request is over'));
      else {
        const signal = this.signal;
        signal.addEventListener('abort', () => over.abort(signal.reason), { once: true });
      }
    }
    return this.#over.signal;
  }

  /** The request settled: every timer stops, and the watcher is told nothing more. */
  end(): void {
    this.#settled = true;
    this.#total?.cancel();
    this.#wait?.cancel();
    this.#stop = undefined;
    if (this.#listening) {
      this.#caller?.removeEventListener('abort', this);
      this.#listening = false;
    }
    this.#over?.abort(new Error('the request is over'));
  }

  #restart(): void {
    this.#wait?.cancel();
    this.#wait = undefined;
    const ms = this.#timeoutMs;
    if (ms === undefined || this.#paused > 0 || this.#settled || this.aborted) return;
    this.#wait = this.#clock.later(ms, () => this.#end('timeout', ms), false);
  }

  #end(limit: 'total' | 'timeout', ms: number): void {
    if (this.#settled || this.aborted) return;
    this.#passed = limit;
    const what = limit === 'total' ? 'the total limit' : 'no sign of life within';
    const error = new Error(`${what} of ${ms} ms`);
    this.#passedError = error;
    this.#limit?.abort(error);
    this.#stopped(error);
  }

  #stopped(reason: unknown): void {
    const stop = this.#stop;
    if (stop === undefined || this.#settled) return;
    this.#stop = undefined;
    stop.stop(reason);
  }
}

/** What watch()es a request's limits: told once why the request was ended early. */
export interface LimitsWatcher {
  stop(reason: unknown): void;
}

const ONCE = { once: true } as const;

/**
 * A request a person may be asked a question during, as the question names it, with these limits:
 * its `signal` is theirs `over`, made only when a question comes. A class, not an object literal
 * with a getter, which V8 builds by a slow path on every call.
 */
export class LimitedQuestionTarget implements QuestionTarget {
  readonly during: QuestionTarget['during'];
  readonly replies: ReplyReason[] = [];
  asked = 0;
  readonly #limits: RequestLimits;

  constructor(during: QuestionTarget['during'], limits: RequestLimits) {
    this.during = during;
    this.#limits = limits;
  }

  get signal(): AbortSignal {
    return this.#limits.over;
  }

  pause(): () => void {
    return this.#limits.pause();
  }

  alive(): void {
    this.#limits.alive();
  }
}
