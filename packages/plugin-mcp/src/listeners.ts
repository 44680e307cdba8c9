// A set of listeners for one kind of event. A listener that throws is reported through `onError`
// and never keeps the others from hearing the event, nor reaches the code that emitted it.

export class Listeners<T> {
  readonly #listeners = new Set<(event: T) => void>();
  readonly #onError: (error: unknown, event: T) => void;

  constructor(onError: (error: unknown, event: T) => void) {
    this.#onError = onError;
  }

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (event: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: T): void {
    // A copy: a listener may unsubscribe (itself or another) while we iterate.
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error, event);
      }
    }
  }
}
