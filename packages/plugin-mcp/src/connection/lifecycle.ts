// The life of one server's connection, and its state: connect, close, reconnect (the watchdog's
// series after a death, or on request), idle close and wake, lifetime recycle, a forgotten HTTP
// session, a refused login. It hands each request the connection to use: it waits for a connect
// in progress (bounded by connect_timeout and the caller's signal) and fails at once on a server
// that is down, so a request never hangs on a dead server.
//
// Its parts live next to it: session-slot.ts (which connections exist), session.ts (one
// connection), watchdog.ts (the reconnect schedule), connection-timers.ts (keepalive, idle,
// lifetime), connect-errors.ts (what the messages say).
import type { Logger } from '@epoch-agent/infra';
import { ProtocolError, type Tool } from '@modelcontextprotocol/client';
import {
  closedWhileConnecting,
  gaveUp,
  isAuthFailure,
  isSessionExpired,
  keepaliveFailed,
  lost,
  needsLogin,
  type UnavailableSite,
  unavailable,
  waitUnlessAborted,
} from '../errors/connect.js';
import { McpError } from '../errors/mcp-error.js';
import { requestError } from '../errors/request.js';
import type { Scrubber } from '../secrets.js';
import { messageOf } from '../text.js';
import type { McpTransportFactory } from '../transport/create.js';
import type { ReapOptions } from '../transport/reap.js';
import type { McpServerConfig } from '../types.js';
import type { OpenOutcome, Session } from './connection.js';
import { buildRequestOptions, remoteUrl } from './request-options.js';
import { SessionSlot } from './slot.js';
import { type McpConnectionState, type McpStateError, redactState } from './state.js';
import { ConnectionTimers } from './timers.js';
import { type AttemptResult, Watchdog } from './watchdog.js';

export interface ConnectionLifecycleOptions {
  readonly config: McpServerConfig;
  readonly logger: Logger;
  readonly createTransport: McpTransportFactory;
  readonly scrub: Scrubber;
  readonly reap: ReapOptions | undefined;
  readonly reconnectDelaysMs: readonly number[];
  /** The live connection's server sent notifications/tools/list_changed. */
  readonly onToolsChanged: (session: Session) => void;
  /** Called with every new state; owned by McpClient, which takes listeners before this exists. */
  readonly listeners: ReadonlySet<(state: McpConnectionState) => void>;
}

type OpenFailure = Extract<OpenOutcome, { ok: false }>;

/** The failure the watchdog works against: for the states of its series and its give-up. */
interface Failure extends McpStateError {
  readonly stderrTail: string;
}

export class ConnectionLifecycle {
  readonly #options: ConnectionLifecycleOptions;
  readonly #watchdog: Watchdog;
  readonly #slot: SessionSlot;
  #state: McpConnectionState = { kind: 'disconnected' };
  /** The connection that took over from a replaced one. */
  readonly #successors = new WeakMap<Session, Promise<Session>>();
  #lastFailure: Failure | undefined;
  #reconnecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ConnectionLifecycleOptions) {
    this.#options = options;
    this.#slot = new SessionSlot({ ...options, onLive: (session) => this.#adopt(session) });
    this.#watchdog = new Watchdog({
      delaysMs: options.reconnectDelaysMs,
      onScheduled: (attempt, at) => this.#setState(this.#reconnectingState(attempt, at)),
      attempt: (attempt) => this.#reconnectAttempt(attempt),
      onExhausted: () => this.#giveUp(),
    });
  }

  get state(): McpConnectionState {
    return this.#state;
  }

  /** See McpClient.connect. */
  connect(): Promise<void> {
    if (this.#slot.live !== undefined) return Promise.resolve();
    const opening = this.#slot.opening;
    return opening === undefined ? this.#connectNow() : settled(opening.outcome);
  }

  /** See McpClient.reconnect. */
  reconnect(): Promise<void> {
    this.#reconnecting ??= this.#reconnectOnce().finally(() => {
      this.#reconnecting = undefined;
    });
    return this.#reconnecting;
  }

  /** See McpClient.close. */
  close(): Promise<void> {
    if (this.#closing !== undefined) {
      void this.#slot.closeAll(); // the second call: escalates
      return this.#closing;
    }
    this.#closing = this.#closeOnce().finally(() => {
      this.#closing = undefined;
    });
    return this.#closing;
  }

  /** The live connection, if there is one: a request takes it without waiting for anything. */
  get live(): Session | undefined {
    return this.#slot.live;
  }

  /** Whether `session` is the live connection (a late callback for an old one does nothing). */
  isLive(session: Session): boolean {
    return this.#slot.live === session;
  }

  /** The live connection's server has a new tool list: a new `connected` state carries it. */
  setTools(session: Session, tools: readonly Tool[]): void {
    const state = this.#state;
    if (this.#slot.live === session && state.kind === 'connected') {
      this.#setState({ ...state, tools });
    }
  }

  /**
   * The connection a request goes to. A connect in progress (not a watchdog attempt) is waited
   * for, bounded by its connect_timeout and the caller's signal; an idle server is woken and
   * waited for. Otherwise a server that is down fails the request at once, and a `failed` one
   * also starts a new reconnect series in the background.
   */
  async sessionFor(site: UnavailableSite, signal: AbortSignal | undefined): Promise<Session> {
    const live = this.#slot.live;
    if (live !== undefined) return live;
    if (this.#slot.opening === undefined && this.#state.kind === 'idle') {
      void this.#connectNow().catch(() => {});
    }
    const opening = this.#slot.opening;
    if (opening?.waitable) {
      const outcome = await waitUnlessAborted(opening.outcome, signal, site);
      const next = this.#slot.live;
      if (next !== undefined) return next;
      const closed = !outcome.ok && outcome.error.code === 'connection_closed';
      throw unavailable(closed ? { kind: 'disconnected' } : this.#state, site);
    }
    const state = this.#state;
    if (state.kind === 'failed') {
      const { code, message, stderrTail } = state;
      this.#down(this.#lastFailure ?? { code, message, stderrTail });
    }
    throw unavailable(this.#state, site);
  }

  /**
   * The server forgot `old`'s Streamable HTTP session (404): the connection that takes over from
   * it (a new initialize), waited for as in sessionFor.
   */
  successor(
    old: Session,
    site: UnavailableSite,
    signal: AbortSignal | undefined,
  ): Promise<Session> {
    this.#options.logger.info(
      `MCP server "${this.#name}" no longer knows our session (HTTP 404); opening a new one and sending ${site.method} again.`,
      { server: this.#name },
    );
    const next = this.#replace(old).catch(() => {
      throw unavailable(this.#state, site);
    });
    return waitUnlessAborted(next, signal, site);
  }

  /**
   * The server refused our credentials on `session`: if it is the live connection it is closed
   * and the state is `needsLogin`, which no retry leaves. Returns the error for the request.
   */
  refused(session: Session, cause: unknown, site: UnavailableSite): McpError {
    const error = needsLogin(this.#name, cause);
    if (this.#slot.live === session) {
      this.#watchdog.stop();
      void this.#slot.end(this.#slot.detach());
      this.#setState({ kind: 'needsLogin', message: error.message });
    }
    const tool = site.tool === undefined ? {} : { tool: site.tool };
    return new McpError('needs_login', error.message, { server: this.#name, ...tool, cause });
  }

  get #name(): string {
    return this.#options.config.name;
  }

  async #connectNow(): Promise<void> {
    if (this.#closing !== undefined) await this.#closing;
    const opening = this.#slot.opening;
    if (opening !== undefined) return settled(opening.outcome);
    this.#watchdog.stop();
    this.#setState({ kind: 'connecting' });
    const outcome = await this.#slot.open(true);
    if (outcome.ok) return;
    this.#fail(outcome);
    throw outcome.error;
  }

  async #reconnectOnce(): Promise<void> {
    if (this.#closing !== undefined) await this.#closing;
    // An attempt in flight settles first (within its connect_timeout); then we start over.
    await this.#slot.opening?.outcome;
    this.#watchdog.stop();
    const old = this.#slot.detach();
    if (old !== undefined) this.#slot.retire(old);
    this.#setState({ kind: 'connecting' });
    const outcome = await this.#slot.open(true);
    if (outcome.ok) return;
    const { error } = outcome;
    if (error.code === 'connection_closed' || error.code === 'needs_login') {
      this.#fail(outcome);
      throw error;
    }
    this.#lastFailure = failureOf(outcome);
    await this.#watchdog.start(true);
    if (this.#slot.live === undefined) throw this.#stateError();
  }

  async #closeOnce(): Promise<void> {
    this.#watchdog.stop();
    await this.#slot.closeAll();
    this.#lastFailure = undefined;
    this.#setState({ kind: 'disconnected' });
  }

  /** A new connection is the live one: watch it, time it, say so. Returns its timers. */
  #adopt(session: Session): ConnectionTimers {
    const { config } = this.#options;
    this.#lastFailure = undefined;
    session.onLost((loss) => this.#dead(session, lost(config.name, loss)));
    const timers = new ConnectionTimers({
      keepaliveIntervalMs: config.keepaliveIntervalMs,
      idleTimeoutMs: config.idleTimeoutMs,
      maxLifetimeMs: config.maxLifetimeMs,
      ping: () => this.#keepalivePing(session),
      onPingFailed: (error) => this.#pingFailed(session, error),
      onIdle: () => this.#idle(session),
      onLifetimeEnd: () => void this.#replace(session).catch(() => {}),
    });
    session.onBusy((busy) => timers.busy(busy));
    this.#setState({ kind: 'connected', ...session.info });
    return timers;
  }

  /**
   * A new connection takes over from `old` (its lifetime ended, or the server forgot its HTTP
   * session); new requests wait for it while `old` finishes what runs on it. Callers for the
   * same `old` share one replacement.
   */
  #replace(old: Session): Promise<Session> {
    const existing = this.#successors.get(old);
    if (existing !== undefined) return existing;
    if (this.#slot.live !== old) return Promise.reject(new Error('not the live connection'));
    this.#slot.detach();
    this.#slot.retire(old);
    const next = this.#slot.open(true).then((outcome) => {
      if (outcome.ok) return outcome.session;
      if (outcome.error.code === 'needs_login') this.#fail(outcome);
      else if (outcome.error.code !== 'connection_closed') this.#down(failureOf(outcome));
      throw outcome.error;
    });
    next.catch(() => {});
    this.#successors.set(old, next);
    return next;
  }

  /** The live connection died (exit, stream loss, failed keepalive): the watchdog takes over. */
  #dead(session: Session, error: McpStateError): void {
    if (this.#slot.live !== session) return;
    // What is left of the tree (a helper the server started) is reaped in the background.
    void this.#slot.end(this.#slot.detach());
    this.#options.logger.warn(error.message, { server: this.#name });
    this.#down({ ...error, stderrTail: session.handle.stderrTail() });
  }

  #down(failure: Failure): void {
    this.#lastFailure = failure;
    void this.#watchdog.start(false);
  }

  async #reconnectAttempt(attempt: number): Promise<AttemptResult> {
    // No state of its own: the one that scheduled it says when it starts, and a reader sees the
    // time has passed. A second `reconnecting` per attempt reads as the same event twice.
    const outcome = await this.#slot.open(false);
    if (outcome.ok) return 'connected';
    const { error } = outcome;
    if (error.code === 'connection_closed') return 'stop';
    if (error.code === 'needs_login') {
      this.#fail(outcome);
      return 'stop';
    }
    this.#lastFailure = failureOf(outcome);
    this.#options.logger.warn(
      `${error.message} (reconnect attempt ${attempt} of ${this.#watchdog.attempts})`,
      { server: this.#name },
    );
    return 'retry';
  }

  #giveUp(): void {
    const last = this.#lastFailure ?? this.#unknownFailure();
    const message = gaveUp(last.message, this.#watchdog.attempts);
    this.#options.logger.warn(message, { server: this.#name });
    this.#setState({ kind: 'failed', code: last.code, message, stderrTail: last.stderrTail });
  }

  /** A connect that failed: `needsLogin` for a refused login (never retried), else `failed`. */
  #fail(outcome: OpenFailure): void {
    const { error } = outcome;
    if (error.code === 'connection_closed') return;
    this.#watchdog.stop();
    if (error.code === 'needs_login') {
      this.#setState({ kind: 'needsLogin', message: error.message });
      return;
    }
    const failure = failureOf(outcome);
    this.#lastFailure = failure;
    this.#setState({ kind: 'failed', ...failure });
  }

  #idle(session: Session): void {
    if (this.#slot.live !== session || session.inFlight > 0) return;
    void this.#slot.end(this.#slot.detach());
    this.#setState({ kind: 'idle', since: Date.now() });
  }

  // Not a counted request (Session.run): a keepalive ping is not activity, or idle_timeout could
  // never pass. The same options as requestOptions(): bounded by `timeout`.
  async #keepalivePing(session: Session): Promise<void> {
    try {
      await session.sdk.ping(buildRequestOptions(this.#options.config.timeoutMs));
    } catch (error) {
      // A JSON-RPC error is still an answer: the server is alive.
      if (!(error instanceof ProtocolError)) throw error;
    }
  }

  #pingFailed(session: Session, error: unknown): void {
    if (this.#slot.live !== session) return;
    const site = { server: this.#name, method: 'ping' };
    if (isAuthFailure(error)) {
      this.refused(session, error, site);
      return;
    }
    if (isSessionExpired(error, session.handle.transport)) {
      void this.#replace(session).catch(() => {});
      return;
    }
    const { config, scrub } = this.#options;
    const failure = requestError(error, {
      ...site,
      timeoutMs: config.timeoutMs,
      sent: true,
      scrub,
      url: remoteUrl(config),
    });
    this.#dead(session, { code: failure.code, message: keepaliveFailed(failure.message) });
  }

  #reconnectingState(attempt: number, at: number): McpConnectionState {
    const { code, message, stderrTail } = this.#lastFailure ?? this.#unknownFailure();
    return {
      kind: 'reconnecting',
      attempt,
      attempts: this.#watchdog.attempts,
      nextAttemptAt: at,
      error: { code, message },
      stderrTail,
    };
  }

  #unknownFailure(): Failure {
    return { ...lost(this.#name, { kind: 'closed' }), stderrTail: '' };
  }

  /** Why reconnect() ended without a connection. */
  #stateError(): McpError {
    const state = this.#state;
    const server = this.#name;
    if (state.kind === 'failed') return new McpError(state.code, state.message, { server });
    if (state.kind === 'needsLogin') return new McpError('needs_login', state.message, { server });
    return closedWhileConnecting(server);
  }

  #setState(next: McpConnectionState): void {
    // Every state passes here, so none can carry a secret, whatever text went into it: an
    // injected transport's stderr, a message made before a token was learned.
    const state = redactState(next, this.#options.scrub);
    this.#state = state;
    for (const listener of [...this.#options.listeners]) {
      try {
        listener(state);
      } catch (error) {
        this.#options.logger.error(
          `MCP server "${this.#name}": a state listener threw: ${messageOf(error)}`,
          { server: this.#name },
        );
      }
    }
  }
}

function failureOf(outcome: OpenFailure): Failure {
  const { error, stderrTail } = outcome;
  return { code: error.code, message: error.message, stderrTail };
}

/** Resolves when the open succeeded; rejects with its error otherwise. */
async function settled(outcome: Promise<OpenOutcome>): Promise<void> {
  const result = await outcome;
  if (!result.ok) throw result.error;
}
