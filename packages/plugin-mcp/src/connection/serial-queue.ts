// Runs tasks one at a time, in the order they came: how calls reach a server that did not declare
// `supports_parallel`. A waiting task whose signal aborts leaves the queue without ever running, so
// a stopped turn never reaches the server late; close() rejects everything still waiting. A task
// may give its turn up before it ends (a call the server made a task of: what follows it takes
// turns of its own). With a `concurrency` above 1 it bounds how many run at once instead (stdio
// starts, start.ts).

/** A running task's turn in the queue. */
export interface QueueTurn {
  /** Gives the turn up before the task ends: what waits behind it goes on. Idempotent. */
  release(): void;
  /** Runs `step` in a turn of its own, behind what waits now (a poll of a task once released). */
  take<T>(step: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Waiter {
  readonly start: () => void;
  readonly reject: (error: unknown) => void;
}

export interface SerialQueueOptions {
  /** How many tasks run at once. Default 1. */
  readonly concurrency?: number;
}

export class SerialQueue {
  readonly #concurrency: number;
  #running = 0;
  readonly #waiting: Waiter[] = [];

  constructor(options: SerialQueueOptions = {}) {
    this.#concurrency = options.concurrency ?? 1;
  }

  run<T>(task: (turn: QueueTurn) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Nothing runs or waits (the usual case): the task starts now, with nothing to keep for it.
    if (this.#running < this.#concurrency && this.#waiting.length === 0) return this.#start(task);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index === -1) return;
        this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#start(task).then(resolve, reject);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#next();
    });
  }

  /**
   * Rejects every task that has not started with the error `reason` makes; the running one settles
   * on its own. The error is made only if a task waits: a close of an idle server makes none.
   */
  close(reason: () => unknown): void {
    if (this.#waiting.length === 0) return;
    const error = reason();
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  #start<T>(task: (turn: QueueTurn) => Promise<T>): Promise<T> {
    this.#running += 1;
    const turn = new Turn(this, () => {
      this.#running -= 1;
      this.#next();
    });
    const running = task(turn);
    running.then(turn.release, turn.release);
    return running;
  }

  #next(): void {
    if (this.#running >= this.#concurrency) return;
    this.#waiting.shift()?.start();
  }
}

class Turn implements QueueTurn {
  readonly #queue: SerialQueue;
  #end: (() => void) | undefined;

  constructor(queue: SerialQueue, end: () => void) {
    this.#queue = queue;
    this.#end = end;
  }

  readonly release = (): void => {
    const end = this.#end;
    this.#end = undefined;
    end?.();
  };

  take<T>(step: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#queue.run(step, signal);
  }
}
