// The connections one server has at a time: at most one live (new requests go there, and its
// timers run), at most one attempt at the next, and old ones draining after a recycle (each closes once
// its requests in flight have settled). closeAll() ends all of them; a second closeAll() while the
// first runs skips what is left of the grace periods. The slot knows which connection requests go
// to; what state the server is in is state.ts's.
import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import { closedWhileConnecting } from '../errors/unavailable.js';
import type { Scrubber } from '../secrets.js';
import type { AttemptOutcome } from './attempt.js';
import type { Connection } from './link.js';
import type { ConnectionTimers } from './timers.js';

export interface ConnectionSlotOptions {
  readonly server: string;
  readonly logger: Logger;
  readonly scrub: Scrubber;
  /** Starts one attempt at a connection (start.ts); aborting `signal` ends it. */
  readonly start: (signal: AbortSignal) => Promise<AttemptOutcome>;
  /** A newly opened connection is now the live one: start what watches it; returns its timers. */
  readonly onLive: (connection: Connection) => ConnectionTimers;
}

/** An attempt at the next connection, in flight. */
export interface Attempt {
  /** Settles once it has become the live connection (or not); never rejects. */
  readonly outcome: Promise<AttemptOutcome>;
  /** Requests wait for it (a connect, an idle wake, a recycle); not for a watchdog attempt. */
  readonly waitable: boolean;
}

interface Live {
  readonly connection: Connection;
  timers?: ConnectionTimers;
}

export class ConnectionSlot {
  readonly #options: ConnectionSlotOptions;
  #live: Live | undefined;
  #attempting: (Attempt & { readonly abort: AbortController }) | undefined;
  readonly #retiring = new Set<Connection>();
  /** Every end() not settled yet, so closeAll() waits for an end it did not start (see there). */
  readonly #ending = new Set<Promise<void>>();
  #closing: Promise<void> | undefined;

  constructor(options: ConnectionSlotOptions) {
    this.#options = options;
  }

  /** The live connection. */
  get live(): Connection | undefined {
    return this.#live?.connection;
  }

  get attempting(): Attempt | undefined {
    return this.#attempting;
  }

  /** Attempts a connection and, unless closeAll() ended the attempt, makes it the live one. */
  attempt(waitable: boolean): Promise<AttemptOutcome> {
    const abort = new AbortController();
    const outcome = this.#options.start(abort.signal).then((result): AttemptOutcome => {
      if (this.#attempting === attempting) this.#attempting = undefined;
      if (!result.ok) return result;
      if (abort.signal.aborted) {
        void this.end(result.connection);
        const error = closedWhileConnecting(this.#options.server);
        return { ok: false, error, stderrTail: '' };
      }
      const live: Live = { connection: result.connection };
      this.#live = live;
      const timers = this.#options.onLive(result.connection);
      // A state listener may have ended it already (close() from inside the callback).
      if (this.#live === live) live.timers = timers;
      else timers.stop();
      return result;
    });
    const attempting = { outcome, waitable, abort };
    this.#attempting = attempting;
    return outcome;
  }

  /** Takes the live connection out of service: no new request reaches it, its timers stop. */
  detach(): Connection | undefined {
    const live = this.#live;
    this.#live = undefined;
    live?.timers?.stop();
    return live?.connection;
  }

  /** A replaced connection closes once the requests still running on it have settled. */
  retire(connection: Connection): void {
    this.#retiring.add(connection);
    void connection
      .whenQuiet()
      .then(() => this.end(connection))
      .finally(() => this.#retiring.delete(connection));
  }

  /** Closes `connection` for good (a stdio server's tree is reaped); never rejects. */
  end(connection: Connection | undefined): Promise<void> {
    if (connection === undefined) return Promise.resolve();
    const { server, logger, scrub } = this.#options;
    // One step after the close, not a catch and a finally: a close waits for each step.
    const ending: Promise<void> = connection.close().then(
      () => {
        this.#ending.delete(ending);
      },
      (error: unknown) => {
        this.#ending.delete(ending);
        logger.warn(
          `MCP server "${server}": closing the connection failed: ${scrub(messageOf(error))}`,
          { server },
        );
      },
    );
    this.#ending.add(ending);
    return ending;
  }

  /**
   * Ends the live connection, the draining ones and an attempt in flight, and settles once they and
   * every end already under way (a server that died, went idle or was refused a moment before) have
   * closed: a close that resolves has reaped every process of this server and settled its
   * crash-leftovers record. Requests in flight reject with connection_closed when their transport
   * reports the close.
   */
  closeAll(): Promise<void> {
    if (this.#closing !== undefined) {
      for (const connection of this.#retiring) connection.force();
      return this.#closing;
    }
    const attempting = this.#attempting;
    attempting?.abort.abort();
    const live = this.detach();
    if (live !== undefined) this.#retiring.add(live);
    const ending = [...this.#retiring].map((connection) =>
      this.end(connection).then(() => {
        this.#retiring.delete(connection);
      }),
    );
    this.#closing = Promise.all([...ending, ...this.#ending, attempting?.outcome]).then(() => {
      this.#closing = undefined;
    });
    return this.#closing;
  }
}
