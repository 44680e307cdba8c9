// The watchdog's reconnect series for one server: after its connection died, attempts at growing
// delays (1 s, 2 s, 4 s by default), then it gives up. It owns only the schedule; what an attempt
// does and what each step means for the connection state belong to the client.
//
// Its timers do not keep the process alive on their own (a host that is done may exit while a
// server it no longer uses is reconnecting), except while someone awaits the series.

import { type Clock, type ClockTimer, realClock } from './clock.js';

/** The delay before each attempt of a series; a series makes one attempt per entry. */
export const DEFAULT_RECONNECT_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000];

/**
 * What an attempt came to: `connected`, `retry` (it failed in a way a later attempt may not), or
 * `stop` (a failure no retry fixes, such as a refused login, or close() ended it).
 */
export type AttemptResult = 'connected' | 'retry' | 'stop';

export interface WatchdogOptions {
  readonly delaysMs: readonly number[];
  /** Attempt `attempt` (1-based) will start at `at` (Date.now() milliseconds). */
  readonly onScheduled: (attempt: number, at: number) => void;
  /** Makes attempt `attempt`. Must not reject. */
  readonly attempt: (attempt: number) => Promise<AttemptResult>;
  /** Every attempt of the series failed. */
  readonly onExhausted: () => void;
  /** What the delays are measured on; default the real clock. */
  readonly clock?: Clock;
}

export class Watchdog {
  readonly #options: WatchdogOptions;
  readonly #clock: Clock;
  /** Bumped by start() and stop(): a timer or attempt of an older series sees it is stale. */
  #series = 0;
  #timer: ClockTimer | undefined;
  #settle: (() => void) | undefined;

  constructor(options: WatchdogOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
  }

  get attempts(): number {
    return this.#options.delaysMs.length;
  }

  /** A series is waiting for its next attempt or running one. */
  get active(): boolean {
    return this.#settle !== undefined;
  }

  /**
   * Starts a new series, ending any that runs. Resolves when it ends: connected, stopped, given up
   * or stop()ped. `awaited`: someone waits for that, so its timers keep the process alive.
   */
  start(awaited: boolean): Promise<void> {
    this.stop();
    const series = this.#series;
    const done = new Promise<void>((resolve) => {
      this.#settle = resolve;
    });
    this.#schedule(series, 1, awaited);
    return done;
  }

  /** Ends the series: its timer is cleared and the result of an attempt in flight is ignored. */
  stop(): void {
    this.#series += 1;
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#end();
  }

  #schedule(series: number, attempt: number, awaited: boolean): void {
    const delay = this.#options.delaysMs[attempt - 1];
    if (delay === undefined) {
      this.#options.onExhausted();
      this.#end();
      return;
    }
    this.#options.onScheduled(attempt, this.#clock.now() + delay);
    this.#timer = this.#clock.later(delay, () => void this.#run(series, attempt, awaited), awaited);
  }

  async #run(series: number, attempt: number, awaited: boolean): Promise<void> {
    this.#timer = undefined;
    if (series !== this.#series) return;
    const result = await this.#options.attempt(attempt);
    if (series !== this.#series) return;
    if (result === 'retry') this.#schedule(series, attempt + 1, awaited);
    else this.#end();
  }

  #end(): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.();
  }
}
