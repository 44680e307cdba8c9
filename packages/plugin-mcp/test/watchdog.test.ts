// The watchdog's reconnect series on a fake clock: each attempt at its delay after the one before
// failed, the give-up after the last, the end of a series on success, on 'stop' and on stop(), a
// new series replacing a running one, and which timers keep the process alive.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AttemptResult,
  DEFAULT_RECONNECT_DELAYS_MS,
  Watchdog,
} from '../src/connection/watchdog.js';
import { FakeClock, settle } from './support/fake-clock.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A watchdog on a fake clock whose attempts answer from `results` (then 'retry'), all recorded. */
function watched(options: {
  delaysMs?: readonly number[];
  results?: (AttemptResult | Deferred<AttemptResult>)[];
}) {
  const clock = new FakeClock();
  const t0 = clock.now();
  const results = [...(options.results ?? [])];
  const scheduled: { attempt: number; at: number }[] = [];
  const attempts: { attempt: number; at: number }[] = [];
  let exhausted: number | undefined;
  const dog = new Watchdog({
    delaysMs: options.delaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
    clock,
    onScheduled: (attempt, at) => scheduled.push({ attempt, at: at - t0 }),
    attempt: (attempt) => {
      attempts.push({ attempt, at: clock.now() - t0 });
      const result = results.shift() ?? 'retry';
      return typeof result === 'string' ? Promise.resolve(result) : result.promise;
    },
    onExhausted: () => {
      exhausted = clock.now() - t0;
    },
  });
  return { dog, clock, scheduled, attempts, exhausted: () => exhausted };
}

/** Whether `promise` has settled by now (its callbacks queued so far have run). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await settle();
  return done;
}

describe('a reconnect series on a fake clock', () => {
  it('the default series tries at 1 s, 2 s and 4 s after each failure, then gives up', async () => {
    const { dog, clock, scheduled, attempts, exhausted } = watched({});
    expect(dog.attempts).toBe(3);
    const series = dog.start(false);
    expect(dog.active).toBe(true);
    expect(scheduled).toEqual([{ attempt: 1, at: 1_000 }]);

    await clock.advance(999);
    expect(attempts).toEqual([]);
    await clock.advance(1);
    expect(attempts).toEqual([{ attempt: 1, at: 1_000 }]);
    expect(scheduled.at(-1)).toEqual({ attempt: 2, at: 3_000 });

    await clock.advance(1_999);
    expect(attempts).toHaveLength(1);
    await clock.advance(1);
    expect(attempts.at(-1)).toEqual({ attempt: 2, at: 3_000 });
    expect(scheduled.at(-1)).toEqual({ attempt: 3, at: 7_000 });

    await clock.advance(3_999);
    expect(attempts).toHaveLength(2);
    expect(exhausted()).toBeUndefined();
    await clock.advance(1);
    expect(attempts.at(-1)).toEqual({ attempt: 3, at: 7_000 });
    // The third failed: no fourth is scheduled, the series ends given up.
    expect(exhausted()).toBe(7_000);
    expect(scheduled).toHaveLength(3);
    expect(await isSettled(series)).toBe(true);
    expect(dog.active).toBe(false);
    expect(clock.pending()).toEqual([]);
  });

  it('the next delay starts when the failed attempt ends, not when it started', async () => {
    const slow = deferred<AttemptResult>();
    const { dog, clock, scheduled, attempts } = watched({
      delaysMs: [100, 200],
      results: [slow],
    });
    void dog.start(false);
    await clock.advance(100);
    expect(attempts).toEqual([{ attempt: 1, at: 100 }]);
    // The attempt runs for 5 s; nothing else is scheduled meanwhile.
    await clock.advance(5_000);
    expect(clock.pending()).toEqual([]);
    expect(scheduled).toHaveLength(1);
    slow.resolve('retry');
    await settle();
    expect(scheduled.at(-1)).toEqual({ attempt: 2, at: 5_300 });
    expect(clock.pending()).toEqual([{ inMs: 200, keepAlive: false }]);
  });

  it('an attempt that connects ends the series: nothing more is scheduled, nothing given up', async () => {
    const { dog, clock, attempts, exhausted } = watched({ results: ['retry', 'connected'] });
    const series = dog.start(false);
    await clock.advance(3_000);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(await isSettled(series)).toBe(true);
    expect(dog.active).toBe(false);
    expect(clock.pending()).toEqual([]);
    await clock.advance(60_000);
    expect(attempts).toHaveLength(2);
    expect(exhausted()).toBeUndefined();
  });

  it("an attempt that says 'stop' ends the series without giving up", async () => {
    const { dog, clock, attempts, exhausted } = watched({ results: ['stop'] });
    const series = dog.start(false);
    await clock.advance(1_000);
    expect(await isSettled(series)).toBe(true);
    await clock.advance(60_000);
    expect(attempts).toHaveLength(1);
    expect(exhausted()).toBeUndefined();
  });

  it('stop() while waiting clears the timer: the series ends and no attempt runs', async () => {
    const { dog, clock, attempts, exhausted } = watched({});
    const series = dog.start(false);
    await clock.advance(1_000);
    await clock.advance(1_500);
    expect(clock.pending()).toEqual([{ inMs: 500, keepAlive: false }]);
    dog.stop();
    expect(clock.pending()).toEqual([]);
    expect(await isSettled(series)).toBe(true);
    expect(dog.active).toBe(false);
    await clock.advance(60_000);
    expect(attempts).toHaveLength(1);
    expect(exhausted()).toBeUndefined();
  });

  it('stop() during an attempt: its result is ignored, so a failure schedules nothing', async () => {
    const running = deferred<AttemptResult>();
    const { dog, clock, scheduled, attempts, exhausted } = watched({ results: [running] });
    const series = dog.start(false);
    await clock.advance(1_000);
    expect(attempts).toHaveLength(1);
    dog.stop();
    expect(await isSettled(series)).toBe(true);
    running.resolve('retry');
    await settle();
    expect(scheduled).toHaveLength(1);
    expect(clock.pending()).toEqual([]);
    expect(exhausted()).toBeUndefined();
  });

  it('start() during a series ends it and begins again at the first attempt', async () => {
    const { dog, clock, scheduled, attempts } = watched({});
    const first = dog.start(false);
    await clock.advance(1_000);
    expect(scheduled.at(-1)).toEqual({ attempt: 2, at: 3_000 });
    const second = dog.start(false);
    expect(await isSettled(first)).toBe(true);
    expect(await isSettled(second)).toBe(false);
    expect(scheduled.at(-1)).toEqual({ attempt: 1, at: 2_000 });
    expect(clock.pending()).toEqual([{ inMs: 1_000, keepAlive: false }]);
    await clock.advance(1_000);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 1]);
  });

  it("an awaited series' timers keep the process alive; a background one's do not", async () => {
    const background = watched({});
    void background.dog.start(false);
    expect(background.clock.pending()).toEqual([{ inMs: 1_000, keepAlive: false }]);
    const awaited = watched({});
    void awaited.dog.start(true);
    expect(awaited.clock.pending()).toEqual([{ inMs: 1_000, keepAlive: true }]);
    await awaited.clock.advance(1_000);
    expect(awaited.clock.pending()).toEqual([{ inMs: 2_000, keepAlive: true }]);
  });

  it('a series of no delays gives up at once, with no attempt', async () => {
    const { dog, clock, attempts, exhausted } = watched({ delaysMs: [] });
    const series = dog.start(false);
    expect(exhausted()).toBe(0);
    expect(await isSettled(series)).toBe(true);
    expect(attempts).toEqual([]);
    expect(clock.pending()).toEqual([]);
  });
});

describe('without a clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs on Node's timers and Date.now()", async () => {
    vi.useFakeTimers({ now: 5_000 });
    const attempts: number[] = [];
    const scheduled: number[] = [];
    const dog = new Watchdog({
      delaysMs: [1_000],
      onScheduled: (_attempt, at) => scheduled.push(at),
      attempt: async () => {
        attempts.push(Date.now());
        return 'connected';
      },
      onExhausted: () => {},
    });
    const series = dog.start(false);
    expect(scheduled).toEqual([6_000]);
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toEqual([6_000]);
    await series;
  });
});
