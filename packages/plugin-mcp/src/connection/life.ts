// One server's life: when it connects, what a request meets while it is down (it waits for a
// connect in progress, wakes an idle server, fails at once otherwise), when the watchdog takes
// over, when a connection is recycled, and every state that follows. Each transition it makes is
// drawn in ARCHITECTURE.md, "One server's life", and passes ServerState (state.ts).
import { isDeepStrictEqual } from 'node:util';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpServerSchema } from '../cache.js';
import { idleTimeoutOf } from '../config/start.js';
import { McpError } from '../errors/mcp-error.js';
import {
  closedWhileConnecting,
  gaveUp,
  keepaliveFailed,
  lost,
  needsLogin,
  type RequestTarget,
  unavailable,
  waitUnlessAborted,
} from '../errors/unavailable.js';
import type { McpServerExit } from '../types.js';
import type { AttemptOutcome } from './attempt.js';
import type { Connection } from './link.js';
import { buildRequestOptions, remoteUrl } from './request-options.js';
import type { Server } from './server.js';
import { loadedConnectionCode, withConnectionCode } from './start.js';
import type { McpStateError } from './state.js';
import { ConnectionTimers } from './timers.js';
import { type AttemptResult, Watchdog } from './watchdog.js';

type AttemptFailure = Extract<AttemptOutcome, { ok: false }>;

/** The failure the watchdog works against: for the states of its series and its give-up. */
interface Failure extends McpStateError {
  readonly stderrTail: string;
  readonly exit?: McpServerExit;
}

export class ServerLife {
  readonly #server: Server;
  readonly #watchdog: Watchdog;
  /** The connection that took over from a replaced one. */
  readonly #successors = new WeakMap<Connection, Promise<Connection>>();
  #lastFailure: Failure | undefined;
  #reconnecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** A connect asked for by connectSoon(), not begun yet: begun now by a request, dropped by close(). */
  #soon: { readonly begin: () => void; readonly drop: () => void } | undefined;

  constructor(server: Server) {
    this.#server = server;
    this.#watchdog = new Watchdog({
      delaysMs: server.settings.reconnectDelaysMs,
      onScheduled: (attempt, at) => this.#scheduled(attempt, at),
      attempt: (attempt) => this.#reconnectAttempt(attempt),
      onExhausted: () => this.#giveUp(),
    });
  }

  get #name(): string {
    return this.#server.config.name;
  }

  /** See McpClient.willConnect. */
  willConnect(): void {
    const { state } = this.#server;
    if (state.current.kind === 'disconnected') state.asked();
  }

  /** See McpClient.standBy. */
  standBy(): void {
    const { slot, state } = this.#server;
    const kind = state.current.kind;
    if (slot.live !== undefined || slot.attempting !== undefined || this.#soon !== undefined)
      return;
    if (kind === 'disconnected' || kind === 'connecting') state.set({ kind: 'notStarted' });
  }

  /** See McpClient.connectSoon. */
  connectSoon(): Promise<void> {
    if (this.#soon !== undefined) return this.connect();
    return new Promise<void>((resolve, reject) => {
      const begin = (): void => {
        clearImmediate(timer);
        this.#soon = undefined;
        this.connect().then(resolve, reject);
      };
      const drop = (): void => {
        clearImmediate(timer);
        this.#soon = undefined;
        resolve();
      };
      // The next turn of the event loop: the host that asked has its cached tools before any
      // process is spawned (a spawn is synchronous, and ten of them took longer than the rest).
      const timer = setImmediate(begin);
      this.#soon = { begin, drop };
    });
  }

  /** See McpClient.connect. */
  connect(): Promise<void> {
    this.#soon?.begin();
    const { slot } = this.#server;
    // Not after the connection's code has loaded: a stdio server starts while it loads (start.ts).
    if (slot.live !== undefined) return Promise.resolve();
    const attempting = slot.attempting;
    return attempting === undefined ? this.#connectNow() : settled(attempting.outcome);
  }

  /** See McpClient.reconnect. */
  reconnect(): Promise<void> {
    const server = this.#server;
    // A reconnect is how a user says "ask it again": its tools, whatever their ttlMs. Its era is
    // asked again only if the server refuses it.
    server.remembered = withoutFreshness(server.remembered);
    return withConnectionCode(
      () => {
        this.#reconnecting ??= this.#reconnectOnce().finally(() => {
          this.#reconnecting = undefined;
        });
        return this.#reconnecting;
      },
      // While it loads, the server reads `connecting` already.
      () => server.state.asked(),
    );
  }

  /** See McpClient.close. */
  close(): Promise<void> {
    this.#soon?.drop();
    return withConnectionCode((code) => {
      const closing = this.#closing;
      if (closing !== undefined) void this.#server.slot.closeAll(); // the second call: escalates
      // The connections' close first, so a stdio server has its EOF before the queue is settled.
      this.#closing = closing ?? this.#closeOnce();
      this.#server.queue.close(code.connectionClosed);
      return this.#closing;
    });
  }

  /**
   * The connection a request goes to. A connect in progress (not a watchdog attempt) is waited
   * for, bounded by its connect_timeout and the caller's signal; an idle server, or one started on
   * demand and not started yet, is started and waited for. Otherwise a server that is down fails the request at once, and a `failed` one
   * also starts a new reconnect series in the background.
   */
  async connectionFor(target: RequestTarget, signal: AbortSignal | undefined): Promise<Connection> {
    const { slot, state } = this.#server;
    const live = slot.live;
    if (live !== undefined) return live;
    // A connect asked for on the next turn begins now: the request need not wait a turn for it.
    this.#soon?.begin();
    const kind = state.current.kind;
    if (slot.attempting === undefined && (kind === 'idle' || kind === 'notStarted')) {
      void this.#connectNow().catch(() => {});
    }
    const attempting = slot.attempting;
    if (attempting?.waitable) {
      const outcome = await waitUnlessAborted(attempting.outcome, signal, target);
      const next = slot.live;
      if (next !== undefined) return next;
      const closed = !outcome.ok && outcome.error.code === 'connection_closed';
      throw unavailable(closed ? { kind: 'disconnected' } : state.current, target);
    }
    const current = state.current;
    if (current.kind === 'failed') {
      const { kind: _, ...failure } = current;
      this.#down(this.#lastFailure ?? failure);
    }
    throw unavailable(state.current, target);
  }

  /**
   * The server refused our credentials on `connection`: if it is the live one it is closed and
   * the state is `needsLogin`, which no retry leaves. Returns the error for the request.
   */
  refused(connection: Connection, cause: unknown, target: RequestTarget): McpError {
    const { slot, state } = this.#server;
    const error = needsLogin(this.#name, cause);
    if (slot.live === connection) {
      this.#watchdog.stop();
      void slot.end(slot.detach());
      state.set({ kind: 'needsLogin', message: error.message });
    }
    return new McpError('needs_login', error.message, {
      server: this.#name,
      tool: target.tool,
      cause,
    });
  }

  /**
   * The live connection's server has a new tool list: a new `connected` state carries it. A list
   * equal to the one it has is no news (many servers send list_changed right after initialize,
   * before anything changed): no state, so no status or tools event follows.
   */
  setTools(connection: Connection, tools: readonly Tool[]): void {
    const server = this.#server;
    const state = server.state.current;
    if (
      server.slot.live === connection &&
      state.kind === 'connected' &&
      !isDeepStrictEqual(state.tools, tools)
    ) {
      // The server's freshness promise was for the list it replaced.
      const remembered = withoutFreshness(server.remembered);
      if (remembered !== undefined) server.remembered = { ...remembered, tools };
      server.state.set({ ...state, tools });
    }
  }

  /** A new connection is the live one: watch it, time it, say so. Returns its timers. */
  adopt(connection: Connection): ConnectionTimers {
    const server = this.#server;
    const { config } = server;
    this.#lastFailure = undefined;
    connection.onLost((loss) => this.#dead(connection, lost(config.name, loss)));
    const timers = new ConnectionTimers({
      keepaliveIntervalMs: config.keepaliveIntervalMs,
      idleTimeoutMs: idleTimeoutOf(config, server.settings.start),
      maxLifetimeMs: config.maxLifetimeMs,
      // The same bound as requestOptions(): `timeout`.
      ping: () => connection.keepalive(buildRequestOptions(config.timeoutMs)),
      onPingFailed: (error) => this.#pingFailed(connection, error),
      onIdle: () => this.#idle(connection),
      onLifetimeEnd: () => void this.replace(connection).catch(() => {}),
    });
    connection.onBusy((busy) => timers.busy(busy));
    const { memory, ...shown } = connection.info;
    server.remembered = {
      tools: shown.tools,
      resources: shown.resources,
      prompts: shown.prompts,
      memory,
    };
    server.state.set({ kind: 'connected', ...shown });
    return timers;
  }

  /**
   * A new connection takes over from `old` (its lifetime ended, or the server forgot its HTTP
   * session); new requests wait for it while `old` finishes what runs on it. Callers for the
   * same `old` share one replacement.
   */
  replace(old: Connection): Promise<Connection> {
    const { slot } = this.#server;
    const existing = this.#successors.get(old);
    if (existing !== undefined) return existing;
    if (slot.live !== old) return Promise.reject(new Error('not the live connection'));
    slot.detach();
    slot.retire(old);
    const next = slot.attempt(true).then((outcome) => {
      if (outcome.ok) return outcome.connection;
      if (outcome.error.code === 'needs_login') this.#fail(outcome);
      else if (outcome.error.code !== 'connection_closed') this.#down(failureOf(outcome));
      throw outcome.error;
    });
    next.catch(() => {});
    this.#successors.set(old, next);
    return next;
  }

  async #connectNow(): Promise<void> {
    const { slot, state } = this.#server;
    if (this.#closing !== undefined) await this.#closing;
    const attempting = slot.attempting;
    if (attempting !== undefined) return settled(attempting.outcome);
    this.#watchdog.stop();
    state.connecting();
    const outcome = await slot.attempt(true);
    if (outcome.ok) return;
    this.#fail(outcome);
    throw outcome.error;
  }

  async #reconnectOnce(): Promise<void> {
    const { slot, state } = this.#server;
    if (this.#closing !== undefined) await this.#closing;
    // An attempt in flight settles first (within its connect_timeout); then we start over.
    await slot.attempting?.outcome;
    this.#watchdog.stop();
    const old = slot.detach();
    if (old !== undefined) slot.retire(old);
    state.connecting();
    const outcome = await slot.attempt(true);
    if (outcome.ok) return;
    const { error } = outcome;
    if (error.code === 'connection_closed' || error.code === 'needs_login') {
      this.#fail(outcome);
      throw error;
    }
    this.#lastFailure = failureOf(outcome);
    await this.#watchdog.start(true);
    if (slot.live === undefined) throw this.#stateError();
  }

  async #closeOnce(): Promise<void> {
    this.#watchdog.stop();
    try {
      await this.#server.slot.closeAll();
      this.#lastFailure = undefined;
      this.#server.state.set({ kind: 'disconnected' });
    } finally {
      this.#closing = undefined;
    }
  }

  /** The live connection died (exit, stream loss, failed keepalive): the watchdog takes over. */
  #dead(connection: Connection, error: McpStateError): void {
    const { slot, settings } = this.#server;
    if (slot.live !== connection) return;
    // What is left of the tree (a helper the server started) is reaped in the background.
    void slot.end(slot.detach());
    settings.logger.warn(error.message, { server: this.#name });
    const exit = connection.handle.exit?.();
    this.#down({ ...error, stderrTail: connection.handle.stderrTail(), ...(exit && { exit }) });
  }

  #down(failure: Failure): void {
    this.#lastFailure = failure;
    void this.#watchdog.start(false);
  }

  async #reconnectAttempt(attempt: number): Promise<AttemptResult> {
    // No state of its own: the one that scheduled it says when it starts, and a reader sees the
    // time has passed. A second `reconnecting` per attempt reads as the same event twice.
    const outcome = await this.#server.slot.attempt(false);
    if (outcome.ok) return 'connected';
    const { error } = outcome;
    if (error.code === 'connection_closed') return 'stop';
    if (error.code === 'needs_login') {
      this.#fail(outcome);
      return 'stop';
    }
    this.#lastFailure = failureOf(outcome);
    this.#server.settings.logger.warn(
      `${error.message} (reconnect attempt ${attempt} of ${this.#watchdog.attempts})`,
      { server: this.#name },
    );
    return 'retry';
  }

  /** The watchdog scheduled attempt `attempt` of its series for `at`. */
  #scheduled(attempt: number, at: number): void {
    const { code, message, stderrTail, exit } = this.#lastFailure ?? this.#unknownFailure();
    this.#server.state.set({
      kind: 'reconnecting',
      attempt,
      attempts: this.#watchdog.attempts,
      nextAttemptAt: at,
      error: { code, message },
      stderrTail,
      // A server that exits as it starts says how each time, as a failed one does.
      ...(exit && { exit }),
    });
  }

  #giveUp(): void {
    const last = this.#lastFailure ?? this.#unknownFailure();
    const message = gaveUp(last.message, this.#watchdog.attempts);
    this.#server.settings.logger.warn(message, { server: this.#name });
    this.#server.state.set({ kind: 'failed', ...last, message });
  }

  /** A connect that failed: `needsLogin` for a refused login (never retried), else `failed`. */
  #fail(outcome: AttemptFailure): void {
    const { error } = outcome;
    if (error.code === 'connection_closed') return;
    this.#watchdog.stop();
    if (error.code === 'needs_login') {
      this.#server.state.set({ kind: 'needsLogin', message: error.message });
      return;
    }
    const failure = failureOf(outcome);
    this.#lastFailure = failure;
    this.#server.state.set({ kind: 'failed', ...failure });
  }

  #idle(connection: Connection): void {
    const { slot, state } = this.#server;
    if (slot.live !== connection || connection.inFlight > 0) return;
    void slot.end(slot.detach());
    state.set({ kind: 'idle', since: Date.now() });
  }

  #pingFailed(connection: Connection, error: unknown): void {
    const { slot, config, scrub } = this.#server;
    if (slot.live !== connection) return;
    const target = { server: this.#name, method: 'ping' };
    const failure = connection.failure(error);
    if (failure === 'refused') {
      this.refused(connection, error, target);
      return;
    }
    if (failure === 'forgotten') {
      void this.replace(connection).catch(() => {});
      return;
    }
    const failed = loadedConnectionCode().requestError(error, {
      ...target,
      timeoutMs: config.timeoutMs,
      sent: true,
      scrub,
      url: remoteUrl(config),
    });
    this.#dead(connection, { code: failed.code, message: keepaliveFailed(failed.message) });
  }

  #unknownFailure(): Failure {
    return { ...lost(this.#name, { kind: 'closed' }), stderrTail: '' };
  }

  /** Why reconnect() ended without a connection. */
  #stateError(): McpError {
    const state = this.#server.state.current;
    const server = this.#name;
    if (state.kind === 'failed') return new McpError(state.code, state.message, { server });
    if (state.kind === 'needsLogin') return new McpError('needs_login', state.message, { server });
    return closedWhileConnecting(server);
  }
}

function failureOf(outcome: AttemptFailure): Failure {
  const { error, stderrTail, exit } = outcome;
  return { code: error.code, message: error.message, stderrTail, ...(exit && { exit }) };
}

/** Resolves when the attempt succeeded; rejects with its error otherwise. */
async function settled(outcome: Promise<AttemptOutcome>): Promise<void> {
  const result = await outcome;
  if (!result.ok) throw result.error;
}

/** `schema` with its tool list no longer fresh: the next connect asks for it. */
function withoutFreshness(schema: McpServerSchema | undefined): McpServerSchema | undefined {
  if (schema?.memory?.toolsFreshUntil === undefined) return schema;
  const { toolsFreshUntil: _, ...memory } = schema.memory;
  return { ...schema, memory };
}
