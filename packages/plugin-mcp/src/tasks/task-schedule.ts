// When a followed task is looked at next: at the server's poll interval (held between POLL_MIN_MS
// and POLL_MAX_MS), on a Clock so that tests step through it; at once when the server pushes the
// task's status (task-notes.ts), which is then the next state without asking; at once when a
// subscription to it opens (what changed before it is asked for). Once the server has pushed a
// status of the task, the poll is the fallback for a notification lost on the way: every
// POLL_MAX_MS after the last sign, until the server stops pushing (its subscription ended).
import type { Clock } from '../connection/clock.js';
import type { TaskState } from './task-wire.js';

/** The fastest a task is polled, whatever the server asks: a server's 0 is no reason to spin. */
export const POLL_MIN_MS = 100;
/** The slowest: a server asking for hours between looks would leave a finished task unseen. */
export const POLL_MAX_MS = 10_000;
/** A server that names no interval is looked at once a second. */
export const POLL_DEFAULT_MS = 1_000;

export function pollDelay(task: TaskState): number {
  const asked = task.pollIntervalMs ?? POLL_DEFAULT_MS;
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, asked));
}

/** What comes next: a state the server pushed, or the time to ask (tasks/get). */
export type NextLook = TaskState | 'poll';

export class TaskSchedule {
  readonly #clock: Clock;
  /** The latest state pushed and not taken yet. */
  #pushed: TaskState | undefined;
  #askNow = false;
  /** The server pushes this task's status: polls fall back to POLL_MAX_MS. */
  #pushing = false;
  #wake: (() => void) | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Whether the server pushes this task's status (then polls are every POLL_MAX_MS). */
  get pushing(): boolean {
    return this.#pushing;
  }

  /** The server pushed the task's status. */
  pushed(task: TaskState): void {
    this.#pushed = task;
    this.#pushing = true;
    this.#wake?.();
  }

  /** Ask at once (a subscription opened: a change before it was not pushed). */
  askNow(): void {
    this.#askNow = true;
    this.#wake?.();
  }

  /** The server no longer pushes (its subscription ended): polls at its interval again. */
  unpushed(): void {
    this.#pushing = false;
  }

  /**
   * An answer to tasks/get came: on the same stream, anything pushed before it is older than it.
   */
  asked(): void {
    this.#pushed = undefined;
    this.#askNow = false;
  }

  /** Waits for the next look at `task`: rejects with the signal's reason when it aborts. */
  next(task: TaskState, signal: AbortSignal | undefined): Promise<NextLook> {
    const ready = this.#take();
    if (ready !== undefined) return Promise.resolve(ready);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const ms = this.#pushing ? POLL_MAX_MS : pollDelay(task);
    return new Promise<NextLook>((resolve, reject) => {
      const done = (): void => {
        timer.cancel();
        signal?.removeEventListener('abort', onAbort);
        this.#wake = undefined;
      };
      const onAbort = (): void => {
        done();
        reject(signal?.reason);
      };
      // Kept alive: a call waits on it, as it would on the answer of a request in flight.
      const timer = this.#clock.later(
        ms,
        () => {
          done();
          resolve('poll');
        },
        true,
      );
      this.#wake = () => {
        const look = this.#take();
        if (look === undefined) return;
        done();
        resolve(look);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #take(): NextLook | undefined {
    const pushed = this.#pushed;
    if (pushed !== undefined) {
      this.#pushed = undefined;
      return pushed;
    }
    if (this.#askNow) {
      this.#askNow = false;
      return 'poll';
    }
    return undefined;
  }
}
