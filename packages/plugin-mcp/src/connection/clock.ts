// The time a connection's timers run on: Node's timers and Date.now() by default, a fake clock in
// tests, so a schedule of seconds (the watchdog's 1 s/2 s/4 s, keepalive, idle, lifetime) is
// checked step by step without waiting for it.

/** A timer started by a Clock. cancel() is safe to call more than once, and after it fired. */
export interface ClockTimer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, as Date.now() gives them. */
  now(): number;
  /**
   * Runs `run` once, `ms` from now. `keepAlive`: whether the pending timer keeps the process
   * alive on its own (a Node timer that is not unref()'d).
   */
  later(ms: number, run: () => void, keepAlive: boolean): ClockTimer;
}

/** Node's timers and Date.now(), looked up at each call (so vitest's fake timers apply too). */
export const realClock: Clock = {
  now: () => Date.now(),
  later(ms, run, keepAlive) {
    const timer = setTimeout(run, ms);
    if (!keepAlive) timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
