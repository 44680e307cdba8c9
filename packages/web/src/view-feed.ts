// Live updates for the page (GET /api/events): a server-sent event stream that sends the whole view
// when the page connects and again after every change — a status, a server's tools, the file's
// servers, a login. A burst of changes (a server connecting sets its status and its tools at once)
// is sent as one view. Between changes a comment line every few seconds keeps the connection
// open through anything that closes idle ones, and tells a page whose server went away.
import { setTimeout as delay } from 'node:timers/promises';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { McpView } from './api-types.js';

const KEEPALIVE_MS = 15_000;
// Long enough to take in a burst of one change's events, short enough that nobody sees it.
const COALESCE_MS = 25;

export class ViewFeed {
  #version = 0;
  readonly #waiters = new Set<() => void>();
  readonly #closed = new AbortController();

  /** Something the view shows has changed. */
  changed(): void {
    this.#version++;
    this.#wakeAll();
  }

  /** Ends every stream. */
  close(): void {
    this.#closed.abort();
    this.#wakeAll();
  }

  /** The event stream of `view()`; `onError` hears a view that could not be sent. */
  stream(c: Context, view: () => McpView, onError: (error: Error) => void): Response {
    return streamSSE(
      c,
      async (stream) => {
        const gone = new AbortController();
        stream.onAbort(() => {
          gone.abort();
          this.#wakeAll();
        });
        const over = () => gone.signal.aborted || this.#closed.signal.aborted;
        let sent = -1;
        while (!over()) {
          if (sent === this.#version) {
            await stream.write(': waiting for changes\n\n');
          } else {
            sent = this.#version;
            await stream.writeSSE({ event: 'mcp', data: JSON.stringify(view()) });
          }
          await this.#next(sent, over);
          if (!over()) await delay(COALESCE_MS);
        }
      },
      async (error) => onError(error),
    );
  }

  /** Resolves at the first change after `version`, when `over()`, or after KEEPALIVE_MS. */
  #next(version: number, over: () => boolean): Promise<void> {
    if (this.#version !== version || over()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, KEEPALIVE_MS);
      this.#waiters.add(done);
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
