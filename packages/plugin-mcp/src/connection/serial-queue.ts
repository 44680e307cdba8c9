// Runs tasks one at a time, in the order they came: how calls reach a server that did not declare
// `supports_parallel`. A waiting task whose signal aborts leaves the queue without ever running, so
// a stopped turn never reaches the server late; close() rejects everything still waiting. With a
// `concurrency` above 1 it bounds how many run at once instead (stdio starts, start.ts).

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

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
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

  /** Rejects every task that has not started; the running one settles on its own. */
  close(error: unknown): void {
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  #start<T>(task: () => Promise<T>): Promise<T> {
    this.#running += 1;
    const running = task();
    const release = (): void => {
      this.#running -= 1;
      this.#next();
    };
    running.then(release, release);
    return running;
  }

  #next(): void {
    if (this.#running >= this.#concurrency) return;
    this.#waiting.shift()?.start();
  }
}
