// The timers of one live connection: keepalive (a ping every keepalive_interval), idle
// (idle_timeout_seconds without a request in flight) and lifetime (max_lifetime_seconds). Each says
// only "it is time"; what follows (the watchdog, an idle close, a recycle) is the client's. They
// belong to one connection: stop() when it stops being the live one, and a callback that fires
// late finds them stopped and does nothing.
//
// None of them keeps the process alive (unref): each one's job only matters while something else
// (a pending call, a server's pipes or sockets) is keeping the process up anyway.

import { type Clock, type ClockTimer, realClock } from './clock.js';

export interface ConnectionTimersOptions {
  /** 0 turns it off; so for idleTimeoutMs and maxLifetimeMs. */
  readonly keepaliveIntervalMs: number;
  readonly idleTimeoutMs: number;
  readonly maxLifetimeMs: number;
  /** One keepalive ping, bounded by the request timeout. Rejects when the connection is dead. */
  readonly ping: () => Promise<void>;
  /** The ping failed; no more pings are sent. */
  readonly onPingFailed: (error: unknown) => void;
  /** idle_timeout passed with no request in flight. */
  readonly onIdle: () => void;
  /** max_lifetime passed. */
  readonly onLifetimeEnd: () => void;
  /** What the intervals are measured on; default the real clock. */
  readonly clock?: Clock;
}

export class ConnectionTimers {
  readonly #options: ConnectionTimersOptions;
  readonly #clock: Clock;
  #stopped = false;
  #keepalive: ClockTimer | undefined;
  #idle: ClockTimer | undefined;
  #lifetime: ClockTimer | undefined;

  /** Starts every timer that is on; the connection starts with no request in flight. */
  constructor(options: ConnectionTimersOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#scheduleKeepalive();
    this.busy(false);
    if (options.maxLifetimeMs > 0) {
      this.#lifetime = this.#later(options.maxLifetimeMs, () => {
        if (!this.#stopped) options.onLifetimeEnd();
      });
    }
  }

  /** A request started (true), or the last one in flight settled (false): idle is re-armed. */
  busy(busy: boolean): void {
    this.#idle?.cancel();
    this.#idle = undefined;
    const { idleTimeoutMs, onIdle } = this.#options;
    if (busy || this.#stopped || idleTimeoutMs <= 0) return;
    this.#idle = this.#later(idleTimeoutMs, () => {
      if (!this.#stopped) onIdle();
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#keepalive?.cancel();
    this.#idle?.cancel();
    this.#lifetime?.cancel();
  }

  // One ping at a time: the next interval starts when the previous ping has answered.
  #scheduleKeepalive(): void {
    const { keepaliveIntervalMs, ping, onPingFailed } = this.#options;
    if (keepaliveIntervalMs <= 0) return;
    this.#keepalive = this.#later(keepaliveIntervalMs, () => {
      if (this.#stopped) return;
      ping().then(
        () => {
          if (!this.#stopped) this.#scheduleKeepalive();
        },
        (error: unknown) => {
          if (!this.#stopped) onPingFailed(error);
        },
      );
    });
  }

  #later(ms: number, run: () => void): ClockTimer {
    return this.#clock.later(ms, run, false);
  }
}
