// How a connection hears that its server's tools changed: notifications/tools/list_changed,
// debounced, and on a 2026-07-28 connection the subscriptions/listen stream they come by, kept off
// the connect's critical path. A connect waits a short while for the server to acknowledge the
// stream, then lists the tools without it: a server that never acknowledges still connects, with a
// warning. An acknowledgement that comes later has the tools listed again (a change made before
// the server listened would otherwise go unseen) and the stream watched from then on.
import { type Logger, messageOf } from '@epoch-agent/infra';
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { Scrubber } from '../secrets.js';
import { seconds } from '../text.js';

/**
 * notifications/tools/list_changed tends to come in bursts (a server that registers several tools
 * announces each): one tools/list after the burst settles, not one per notification.
 */
const TOOLS_LIST_CHANGED_DEBOUNCE_MS = 250;

/**
 * The longest a connect waits for subscriptions/listen to be acknowledged before it lists the
 * tools without it (never more than half of what is left of connect_timeout). A server on the
 * same machine acknowledges in milliseconds; one that never does costs its connects this long.
 */
export const LISTEN_ACK_WAIT_MS = 2000;

/**
 * Calls `changed` once a burst of notifications/tools/list_changed has settled. Registered once
 * the server said it announces changes (capabilities.tools.listChanged); on a 2026-07-28
 * connection the notifications come by the subscriptions/listen stream, to the same handler.
 */
export function onToolsListChanged(sdk: Client, changed: () => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  sdk.setNotificationHandler('notifications/tools/list_changed', () => {
    clearTimeout(timer);
    // Not keeping the process alive: the client checks that the connection is still its live one.
    timer = setTimeout(changed, TOOLS_LIST_CHANGED_DEBOUNCE_MS).unref();
  });
}

export interface ToolsSubscriptionParts {
  readonly sdk: Client;
  readonly server: string;
  /** How long the server has to acknowledge the stream at all: the request timeout. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly scrub: Scrubber;
}

/** The subscriptions/listen stream of one 2026-07-28 connection, from its request on. */
export class ToolsSubscription {
  /** Resolves with the stream once acknowledged; undefined when it never will be (told in the log). */
  readonly opened: Promise<McpSubscription | undefined>;
  readonly #server: string;
  readonly #logger: Logger;
  readonly #stop = new AbortController();
  #acknowledged = false;
  /** The connect went on without the acknowledgement (and warned). */
  #overdue = false;

  constructor({ sdk, server, timeoutMs, logger, scrub }: ToolsSubscriptionParts) {
    this.#server = server;
    this.#logger = logger;
    this.opened = sdk
      .listen({ toolsListChanged: true }, { timeout: timeoutMs, signal: this.#stop.signal })
      .then(
        (subscription) => {
          this.#acknowledged = true;
          if (this.#stop.signal.aborted) {
            void subscription.close().catch(() => {});
            return undefined;
          }
          if (this.#overdue) {
            this.#log('info', 'acknowledged subscriptions/listen late; its tools are listed again');
          }
          return subscription;
        },
        (error: unknown) => {
          // Stopped with its connection (closed, or a connect that failed): nothing to tell.
          if (this.#stop.signal.aborted) return undefined;
          const why = scrub(messageOf(error));
          if (this.#overdue) {
            this.#log('info', `never acknowledged subscriptions/listen (${why})`);
          } else {
            this.#log(
              'warn',
              `refused subscriptions/listen (${why}), so a change to its tools is seen only when it reconnects`,
            );
          }
          return undefined;
        },
      );
  }

  /** The acknowledgement came after the connect had gone on without it. */
  get late(): boolean {
    return this.#overdue && this.#acknowledged;
  }

  /**
   * Waits up to `ms` for the acknowledgement (or the refusal), or until `signal` aborts; when it
   * has not come by then, warns that the connect goes on without it.
   */
  async waitFor(ms: number, signal: AbortSignal): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const waited = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), Math.max(0, ms));
      onAbort = () => resolve('waited');
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const settled = await Promise.race([this.opened.then(() => 'settled' as const), waited]);
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    if (settled === 'settled' || signal.aborted) return;
    this.#overdue = true;
    this.#log(
      'warn',
      `has not acknowledged subscriptions/listen within ${seconds(Math.round(ms))}, so it is connected without it: a change to its tools is seen only if the acknowledgement comes later, or when it reconnects`,
    );
  }

  /** Ends it: an open stream is closed, one not acknowledged yet given up, both quietly. */
  stop(): void {
    this.#stop.abort();
  }

  #log(level: 'info' | 'warn', what: string): void {
    this.#logger[level](`MCP server "${this.#server}" ${what}.`, { server: this.#server });
  }
}
