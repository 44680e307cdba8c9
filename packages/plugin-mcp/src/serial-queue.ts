// Runs tasks one at a time, in the order they came: how calls reach a server that did not declare
// `supports_parallel`. A waiting task whose signal aborts leaves the queue without ever running, so
// a stopped turn never reaches the server late; close() rejects everything still waiting.

interface Waiter {
  readonly start: () => void;
  readonly reject: (error: unknown) => void;
}

export class SerialQueue {
  #busy = false;
  readonly #waiting: Waiter[] = [];

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
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
          this.#busy = true;
          task()
            .then(resolve, reject)
            .finally(() => {
              this.#busy = false;
              this.#next();
            });
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

  #next(): void {
    if (this.#busy) return;
    this.#waiting.shift()?.start();
  }
}
