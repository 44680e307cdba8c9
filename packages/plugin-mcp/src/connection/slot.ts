// The connections one server has at a time: at most one live (new requests go there, and its
// timers run), at most one being opened, and old ones draining after a recycle (each closes once
// its requests in flight have settled). closeAll() ends all of them; a second closeAll() while the
// first runs skips what is left of the grace periods.
import { closedWhileConnecting } from '../errors/connect.js';
import { messageOf } from '../text.js';
import {
  type OpenOutcome,
  type OpenSessionOptions,
  openSession,
  type Session,
} from './connection.js';
import type { ConnectionTimers } from './timers.js';

export interface SessionSlotOptions extends Omit<OpenSessionOptions, 'signal'> {
  /** A newly opened session is now the live one: start what watches it; returns its timers. */
  readonly onLive: (session: Session) => ConnectionTimers;
}

/** A connection being opened. */
export interface Opening {
  /** Settles once it has become the live connection (or not); never rejects. */
  readonly outcome: Promise<OpenOutcome>;
  /** Requests wait for it (a connect, an idle wake, a recycle); not for a watchdog attempt. */
  readonly waitable: boolean;
}

interface Live {
  readonly session: Session;
  timers?: ConnectionTimers;
}

export class SessionSlot {
  readonly #options: SessionSlotOptions;
  #live: Live | undefined;
  #opening: (Opening & { readonly abort: AbortController }) | undefined;
  readonly #retiring = new Set<Session>();
  #closing: Promise<void> | undefined;

  constructor(options: SessionSlotOptions) {
    this.#options = options;
  }

  /** The live connection. */
  get live(): Session | undefined {
    return this.#live?.session;
  }

  get opening(): Opening | undefined {
    return this.#opening;
  }

  /** Opens a connection and, unless closeAll() ended the attempt, makes it the live one. */
  open(waitable: boolean): Promise<OpenOutcome> {
    const abort = new AbortController();
    const outcome = openSession({ ...this.#options, signal: abort.signal }).then(
      (result): OpenOutcome => {
        if (this.#opening === opening) this.#opening = undefined;
        if (!result.ok) return result;
        if (abort.signal.aborted) {
          void this.end(result.session);
          const error = closedWhileConnecting(this.#options.config.name);
          return { ok: false, error, stderrTail: '' };
        }
        const live: Live = { session: result.session };
        this.#live = live;
        const timers = this.#options.onLive(result.session);
        // A state listener may have ended it already (close() from inside the callback).
        if (this.#live === live) live.timers = timers;
        else timers.stop();
        return result;
      },
    );
    const opening = { outcome, waitable, abort };
    this.#opening = opening;
    return outcome;
  }

  /** Takes the live connection out of service: no new request reaches it, its timers stop. */
  detach(): Session | undefined {
    const live = this.#live;
    this.#live = undefined;
    live?.timers?.stop();
    return live?.session;
  }

  /** A replaced connection closes once the requests still running on it have settled. */
  retire(session: Session): void {
    this.#retiring.add(session);
    void session
      .whenQuiet()
      .then(() => this.end(session))
      .finally(() => this.#retiring.delete(session));
  }

  /** Closes `session` for good (a stdio server's tree is reaped); never rejects. */
  end(session: Session | undefined): Promise<void> {
    if (session === undefined) return Promise.resolve();
    const { config, logger, scrub } = this.#options;
    return session
      .close()
      .catch((error: unknown) =>
        logger.warn(
          `MCP server "${config.name}": closing the connection failed: ${scrub(messageOf(error))}`,
          { server: config.name },
        ),
      );
  }

  /**
   * Ends the live connection, the draining ones and an open in flight. Requests in flight reject
   * with connection_closed when their transport reports the close.
   */
  closeAll(): Promise<void> {
    if (this.#closing !== undefined) {
      for (const session of this.#retiring) session.force();
      return this.#closing;
    }
    const opening = this.#opening;
    opening?.abort.abort();
    const live = this.detach();
    if (live !== undefined) this.#retiring.add(live);
    const ending = [...this.#retiring].map((session) =>
      this.end(session).finally(() => this.#retiring.delete(session)),
    );
    this.#closing = Promise.all([...ending, opening?.outcome]).then(() => {
      this.#closing = undefined;
    });
    return this.#closing;
  }
}
