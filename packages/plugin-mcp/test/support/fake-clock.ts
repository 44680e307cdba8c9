// A Clock whose time moves only when the test says so: a schedule of seconds runs in no time, and
// each timer fires exactly at its due time, in order. After each one the promise callbacks it
// started (an attempt's result, a ping's answer) run before time moves on.
import { setImmediate } from 'node:timers/promises';
import type { Clock, ClockTimer } from '../../src/connection/clock.js';

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
  readonly keepAlive: boolean;
}

export class FakeClock implements Clock {
  #now: number;
  #order = 0;
  #pending: Pending[] = [];

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  later(ms: number, run: () => void, keepAlive: boolean): ClockTimer {
    const timer: Pending = { at: this.#now + ms, order: this.#order++, run, keepAlive };
    this.#pending.push(timer);
    return {
      cancel: () => {
        this.#pending = this.#pending.filter((t) => t !== timer);
      },
    };
  }

  /** The timers still to fire, soonest first: in how many ms, and whether each keeps Node alive. */
  pending(): { inMs: number; keepAlive: boolean }[] {
    return this.#sorted().map((t) => ({ inMs: t.at - this.#now, keepAlive: t.keepAlive }));
  }

  /** Moves time on by `ms`, firing every timer that falls due on the way, each at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await settle();
    for (let next = this.#sorted()[0]; next !== undefined && next.at <= end; ) {
      this.#pending = this.#pending.filter((t) => t !== next);
      this.#now = next.at;
      next.run();
      await settle();
      next = this.#sorted()[0];
    }
    this.#now = end;
  }

  /** Moves time to the next timer and fires it (and any due at the same time); returns the step. */
  async next(): Promise<number> {
    const [next] = this.#sorted();
    if (next === undefined) throw new Error('no timer is pending');
    const step = next.at - this.#now;
    await this.advance(step);
    return step;
  }

  #sorted(): Pending[] {
    return [...this.#pending].sort((a, b) => a.at - b.at || a.order - b.order);
  }
}

/** Lets every promise callback already queued run (a turn of the event loop, not a wait on time). */
export async function settle(): Promise<void> {
  await setImmediate();
}
