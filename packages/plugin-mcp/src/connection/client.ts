// McpClient: ONE server, and the one owner of everything about it: its state and listeners, the
// watchdog's series, the live connection's timers, the call queue, and the request path (a
// request waits for a connect in progress, fails at once on a server that is down, is sent again
// once on a forgotten HTTP session, and a 401 is a needed login). What one live link is (open,
// the SDK's errors, close) is connection.ts's, loaded with the SDK on the first connect or
// request, so that importing the plugin, and a program that only reads mcp.json, pays for none
// of it: this module imports no SDK code.
import { isDeepStrictEqual } from 'node:util';
import { type Logger, messageOf, redactingLogger } from '@epoch-agent/infra';
import type { ToolProgress } from '@epoch-agent/protocol';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  RequestOptions,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import type { McpServerSchema } from '../cache.js';
import { McpError } from '../errors/mcp-error.js';
import {
  closedWhileConnecting,
  gaveUp,
  keepaliveFailed,
  lost,
  needsLogin,
  type RequestTarget,
  sessionExpiredAgain,
  unavailable,
  waitUnlessAborted,
} from '../errors/unavailable.js';
import { Listeners } from '../listeners.js';
import { type Scrubber, serverRedactor } from '../secrets.js';
import type { McpToolBackend } from '../tools/epoch-tools.js';
import type { ToolCallResult } from '../tools/result.js';
import type { McpServerConfig, McpServerExit } from '../types.js';
import type { Connection, OpenOutcome } from './connection.js';
import {
  type ConnectionCode,
  loadConnectionModule,
  loadedConnectionModule,
  openAttempt,
} from './opening.js';
import {
  type ConnectionSettings,
  connectionSettings,
  type McpConnectionOptions,
} from './options.js';
import type { ListItem, ListMethod } from './paginate.js';
import type { McpConnectMemory } from './protocol.js';
import {
  buildRequestOptions,
  callRequestOptions,
  remoteUrl,
  TotalLimit,
} from './request-options.js';
import { SerialQueue } from './serial-queue.js';
import { ConnectionSlot } from './slot.js';
import { type McpConnectionState, type McpStateError, redactState } from './state.js';
import { ConnectionTimers } from './timers.js';
import { type AttemptResult, Watchdog } from './watchdog.js';

export interface McpClientOptions extends McpConnectionOptions {
  readonly config: McpServerConfig;
}

export type McpStateListener = (state: McpConnectionState) => void;

const CONNECTING: McpConnectionState = { kind: 'connecting' };

/** The connection's code where it must have loaded: a request or a live connection needed it. */
function loadedCode(): ConnectionCode {
  const code = loadedConnectionModule();
  if (code === undefined) throw new Error("the MCP connection's code was used before it loaded");
  return code;
}

type OpenFailure = Extract<OpenOutcome, { ok: false }>;

/** The failure the watchdog works against: for the states of its series and its give-up. */
interface Failure extends McpStateError {
  readonly stderrTail: string;
  readonly exit?: McpServerExit;
}

interface RequestSpec<T> {
  /** The raw tool name, for tools/call. */
  readonly tool?: string;
  readonly serial?: boolean;
  /** The capability the server must have declared; without it nothing is sent. */
  readonly capability?: 'resources' | 'prompts';
  /** The answer when the capability is missing; without it, `not_supported` is thrown. */
  readonly otherwise?: () => T;
  /** A tools/call: progress restarts `timeout`, up to `maxTotalTimeoutMs` (request-options.ts). */
  readonly progress?: { readonly onProgress: ((progress: ToolProgress) => void) | undefined };
}

type Send<T> = (connection: Connection, options: RequestOptions) => Promise<T>;

export class McpClient implements McpToolBackend {
  readonly config: McpServerConfig;
  /** Its logger passes the server's redaction policy. */
  readonly #settings: ConnectionSettings;
  readonly #logger: Logger;
  readonly #scrub: Scrubber;
  readonly #listeners: Listeners<McpConnectionState>;
  readonly #queue = new SerialQueue();
  readonly #watchdog: Watchdog;
  readonly #slot: ConnectionSlot;
  #state: McpConnectionState = { kind: 'disconnected' };
  /** connect() or reconnect() waits for the connection's code to load: already `connecting`. */
  #starting = false;
  /** The connection that took over from a replaced one. */
  readonly #successors = new WeakMap<Connection, Promise<Connection>>();
  #lastFailure: Failure | undefined;
  #reconnecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /**
   * Where the next connect starts: the schema cache's entry for this config, then what each
   * connection learned (its era verdict, and its tool list while the server says it stays fresh).
   */
  #remembered: McpServerSchema | undefined;

  constructor({ config, ...options }: McpClientOptions) {
    this.config = config;
    this.#scrub = serverRedactor(config);
    const settings = connectionSettings(options);
    // Every line logged about this server passes its policy, whoever wrote the message.
    this.#logger = redactingLogger(settings.logger, this.#scrub);
    this.#settings = { ...settings, logger: this.#logger };
    this.#listeners = new Listeners((error) =>
      this.#logger.error(
        `MCP server "${config.name}": a state listener threw: ${messageOf(error)}`,
        {
          server: config.name,
        },
      ),
    );
    this.#slot = new ConnectionSlot({
      server: config.name,
      logger: this.#logger,
      scrub: this.#scrub,
      open: (signal) => this.#open(signal),
      onLive: (connection) => this.#adopt(connection),
    });
    this.#watchdog = new Watchdog({
      delaysMs: settings.reconnectDelaysMs,
      onScheduled: (attempt, at) => this.#setState(this.#reconnectingState(attempt, at)),
      attempt: (attempt) => this.#reconnectAttempt(attempt),
      onExhausted: () => this.#giveUp(),
    });
  }

  get name(): string {
    return this.config.name;
  }

  /**
   * This server's redaction policy: its config's secrets and every one learned since (a login's
   * tokens), for text about the server that is kept (a saved tool result).
   */
  get redactor(): Scrubber {
    return this.#scrub;
  }

  get state(): McpConnectionState {
    return this.#starting ? CONNECTING : this.#state;
  }

  /** Has the next connect start from the schema cache's entry for this config (the registry). */
  remember(schema: McpServerSchema | undefined): void {
    this.#remembered = schema;
  }

  /** What the connections so far learned for the next one; the registry caches it. */
  get memory(): McpConnectMemory | undefined {
    return this.#remembered?.memory;
  }

  /**
   * Tells the server the host's roots changed, on the live connection. A connection opened later
   * asks for them afresh anyway; a server that cannot be told now is told nothing more (logged).
   */
  async notifyRootsChanged(): Promise<void> {
    try {
      await this.#slot.live?.rootsChanged();
    } catch (error) {
      this.#logger.warn(
        `MCP server "${this.config.name}" could not be told that the roots changed: ${messageOf(error)}`,
        { server: this.config.name },
      );
    }
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: McpStateListener): () => void {
    return this.#listeners.add(listener);
  }

  /**
   * Spawns or connects, initializes and reads the first tools/list, all within connect_timeout.
   * Joins an attempt in flight; resolves at once when connected; a reconnect series waiting for
   * its next attempt gives way to this attempt, made now. Rejects with an McpError (the state is
   * then `failed` or `needsLogin`, or `disconnected` when close() ended the attempt).
   */
  connect(): Promise<void> {
    // Not after the connection's code has loaded: a stdio server starts while it loads (opening.ts).
    if (this.#slot.live !== undefined) return Promise.resolve();
    const opening = this.#slot.opening;
    return opening === undefined ? this.#connectNow() : settled(opening.outcome);
  }

  /**
   * Starts over: the current connection (if any) finishes its requests in flight and closes, and
   * a new one is made at once; if that fails, the watchdog's series follows. Resolves when
   * connected; rejects when the series gives up, the server needs a login, or close() ends it.
   */
  reconnect(): Promise<void> {
    // A reconnect is how a user says "ask it again": its tools, whatever their ttlMs. Its era is
    // asked again only if the server refuses it.
    this.#remembered = withoutFreshness(this.#remembered);
    return this.#withCode(() => {
      this.#reconnecting ??= this.#reconnectOnce().finally(() => {
        this.#reconnecting = undefined;
      });
      return this.#reconnecting;
    }, true);
  }

  /**
   * Ends the connection: a stdio server's whole process tree is reaped, a remote transport is
   * closed, every timer and the watchdog stop. Everything pending settles: requests in flight and
   * queued calls reject with `connection_closed`, a connect in flight rejects. A second close()
   * while the first runs joins it and skips what is left of the grace periods.
   */
  close(): Promise<void> {
    return this.#withCode((code) => {
      this.#queue.close(code.connectionClosed());
      if (this.#closing !== undefined) {
        void this.#slot.closeAll(); // the second call: escalates
        return this.#closing;
      }
      this.#closing = this.#closeOnce().finally(() => {
        this.#closing = undefined;
      });
      return this.#closing;
    });
  }

  /** The options of every request this client sends: the config's `timeout` and the caller's signal. */
  requestOptions(signal?: AbortSignal): RequestOptions {
    return buildRequestOptions(this.config.timeoutMs, signal);
  }

  /**
   * tools/call. Serialized unless the config says `supports_parallel`. The result is checked
   * leniently (checkToolCallResult): one content block of a type the SDK does not know must not
   * cost the model the rest of the answer.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolCallResult> {
    return this.#request(
      'tools/call',
      signal,
      (connection, options) => connection.callTool(name, args, options),
      { tool: name, serial: !this.config.supportsParallel, progress: { onProgress } },
    );
  }

  /** Every page of resources/list; empty (and nothing sent) when the server declared no resources. */
  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#listAll('resources/list', 'resources', signal);
  }

  /** Every page of resources/templates/list; empty when the server declared no resources. */
  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return this.#listAll('resources/templates/list', 'resources', signal);
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#request(
      'resources/read',
      signal,
      (connection, options) => connection.readResource(uri, options),
      { capability: 'resources' },
    );
  }

  /** Every page of prompts/list; empty (and nothing sent) when the server declared no prompts. */
  listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    return this.#listAll('prompts/list', 'prompts', signal);
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#request(
      'prompts/get',
      signal,
      (connection, options) => connection.getPrompt(name, args, options),
      { capability: 'prompts' },
    );
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.#request('ping', signal, (connection, options) => connection.sdk.ping(options));
  }

  /**
   * `run` with the connection's code; the first time any client of this process needs it, after
   * it (and the SDK) has loaded. `starts`: the client reads as `connecting` while it loads.
   */
  #withCode<T>(run: (code: ConnectionCode) => Promise<T>, starts = false): Promise<T> {
    const loaded = loadedConnectionModule();
    if (loaded !== undefined) return run(loaded);
    if (starts) this.#starting = true;
    return loadConnectionModule().then((code) => {
      if (starts) this.#starting = false;
      return run(code);
    });
  }

  // ---- the request path ----

  /**
   * One request, through the queue when `spec.serial`, on the live connection (or the one a start
   * or reconnect is making). A call is the hot path of a turn: when the connection is live nothing
   * here waits, and no promise of ours stands between the caller and the request's own.
   */
  #request<T>(
    method: string,
    signal: AbortSignal | undefined,
    send: Send<T>,
    spec: RequestSpec<T> = {},
  ): Promise<T> {
    return this.#withCode((code) => {
      const target: RequestTarget = { server: this.name, method, tool: spec.tool };
      let sent = false;
      let limit: TotalLimit | undefined;
      const sendOn = (connection: Connection, sendSignal: AbortSignal | undefined): Promise<T> => {
        if (spec.capability !== undefined && !connection.info[spec.capability]) {
          if (spec.otherwise !== undefined) return Promise.resolve(spec.otherwise());
          return Promise.reject(
            new McpError(
              'not_supported',
              `MCP server "${this.name}" does not offer ${spec.capability} (it did not declare the capability), so ${method} was not sent.`,
              { server: this.name },
            ),
          );
        }
        sent = true;
        const progress = spec.progress;
        const options = (timeoutMs: number): RequestOptions =>
          progress === undefined
            ? buildRequestOptions(timeoutMs, sendSignal)
            : callRequestOptions(timeoutMs, sendSignal, progress.onProgress);
        return this.#send(connection, target, sendSignal, send, options);
      };
      const run = (): Promise<T> => {
        if (signal?.aborted) return Promise.reject(signal.reason);
        // Counted from the call's turn in the queue, not from the wait before it.
        if (spec.progress !== undefined) {
          limit = new TotalLimit(this.config.maxTotalTimeoutMs, signal);
        }
        const sendSignal = limit?.signal ?? signal;
        // In the queue, not before it: a call that waited goes to the connection live by then.
        const live = this.#slot.live;
        return live !== undefined
          ? sendOn(live, sendSignal)
          : this.#connectionFor(target, sendSignal).then((next) => sendOn(next, sendSignal));
      };
      return (spec.serial ? this.#queue.run(run, signal) : run()).then(
        (answer) => {
          limit?.end();
          return answer;
        },
        (error: unknown) => {
          limit?.end();
          throw code.requestError(error, {
            server: this.name,
            method,
            tool: spec.tool,
            timeoutMs: this.config.timeoutMs,
            ...(limit?.passed ? { totalLimitMs: this.config.maxTotalTimeoutMs } : {}),
            signal,
            sent,
            scrub: this.#scrub,
            url: remoteUrl(this.config),
          });
        },
      );
    });
  }

  /**
   * Sends on `connection`. A Streamable HTTP server that forgot the session (404) gets a new one
   * and the request once more, with what is left of its timeout; a 401 means `needsLogin`.
   */
  #send<T>(
    connection: Connection,
    target: RequestTarget,
    signal: AbortSignal | undefined,
    send: Send<T>,
    options: (timeoutMs: number) => RequestOptions,
  ): Promise<T> {
    const started = Date.now();
    return connection
      .run(() => send(connection, options(this.config.timeoutMs)))
      .catch((error: unknown) => {
        const failure = connection.failure(error);
        if (failure === 'refused') throw this.#refused(connection, error, target);
        if (failure !== 'forgotten') throw error;
        return this.#sendAgain(connection, target, signal, send, options, started);
      });
  }

  async #sendAgain<T>(
    forgotten: Connection,
    target: RequestTarget,
    signal: AbortSignal | undefined,
    send: Send<T>,
    options: (timeoutMs: number) => RequestOptions,
    started: number,
  ): Promise<T> {
    const next = await this.#successor(forgotten, target, signal);
    const left = Math.max(1, this.config.timeoutMs - (Date.now() - started));
    try {
      return await next.run(() => send(next, options(left)));
    } catch (error) {
      const failure = next.failure(error);
      if (failure === 'refused') throw this.#refused(next, error, target);
      if (failure === 'forgotten') throw sessionExpiredAgain(target, error);
      throw error;
    }
  }

  /**
   * Every page of `method`, a list the server offers under `capability`: empty (and nothing sent)
   * when the capability is missing. Method-not-found is empty too: some servers declare a
   * capability without implementing all of it, and "there are none" is closer to the truth than
   * a failure.
   */
  async #listAll<M extends Exclude<ListMethod, 'tools/list'>>(
    method: M,
    capability: 'resources' | 'prompts',
    signal: AbortSignal | undefined,
  ): Promise<ListItem[M][]> {
    try {
      return await this.#request<ListItem[M][]>(
        method,
        signal,
        (connection, options) => connection.list(method, options, this.#listOwner()),
        { capability, otherwise: () => [] },
      );
    } catch (error) {
      if (error instanceof McpError && loadedCode().isMethodNotFound(error.cause)) return [];
      throw error;
    }
  }

  /** After notifications/tools/list_changed: a new `connected` state carries the new tool list. */
  async #refreshTools(connection: Connection): Promise<void> {
    if (this.#slot.live !== connection) return;
    try {
      const tools = await this.#request('tools/list', undefined, (live, options) =>
        live.listTools(options, this.#listOwner()),
      );
      this.#setTools(connection, tools);
    } catch (error) {
      this.#logger.warn(
        `MCP server "${this.name}" announced a new tool list, but asking for it failed: ${messageOf(error)}. Its previous tools stay in use.`,
        { server: this.name },
      );
    }
  }

  #listOwner(): { readonly server: string; readonly logger: Logger } {
    return { server: this.name, logger: this.#logger };
  }

  /**
   * The connection a request goes to. A connect in progress (not a watchdog attempt) is waited
   * for, bounded by its connect_timeout and the caller's signal; an idle server is woken and
   * waited for. Otherwise a server that is down fails the request at once, and a `failed` one
   * also starts a new reconnect series in the background.
   */
  async #connectionFor(
    target: RequestTarget,
    signal: AbortSignal | undefined,
  ): Promise<Connection> {
    const live = this.#slot.live;
    if (live !== undefined) return live;
    if (this.#slot.opening === undefined && this.#state.kind === 'idle') {
      void this.#connectNow().catch(() => {});
    }
    const opening = this.#slot.opening;
    if (opening?.waitable) {
      const outcome = await waitUnlessAborted(opening.outcome, signal, target);
      const next = this.#slot.live;
      if (next !== undefined) return next;
      const closed = !outcome.ok && outcome.error.code === 'connection_closed';
      throw unavailable(closed ? { kind: 'disconnected' } : this.#state, target);
    }
    const state = this.#state;
    if (state.kind === 'failed') {
      const { kind: _, ...failure } = state;
      this.#down(this.#lastFailure ?? failure);
    }
    throw unavailable(this.#state, target);
  }

  /**
   * The server forgot `old`'s Streamable HTTP session (404): the connection that takes over from
   * it (a new initialize), waited for as in #connectionFor.
   */
  #successor(
    old: Connection,
    target: RequestTarget,
    signal: AbortSignal | undefined,
  ): Promise<Connection> {
    this.#logger.info(
      `MCP server "${this.name}" no longer knows our session (HTTP 404); opening a new one and sending ${target.method} again.`,
      { server: this.name },
    );
    const next = this.#replace(old).catch(() => {
      throw unavailable(this.#state, target);
    });
    return waitUnlessAborted(next, signal, target);
  }

  /**
   * The server refused our credentials on `connection`: if it is the live one it is closed and
   * the state is `needsLogin`, which no retry leaves. Returns the error for the request.
   */
  #refused(connection: Connection, cause: unknown, target: RequestTarget): McpError {
    const error = needsLogin(this.name, cause);
    if (this.#slot.live === connection) {
      this.#watchdog.stop();
      void this.#slot.end(this.#slot.detach());
      this.#setState({ kind: 'needsLogin', message: error.message });
    }
    return new McpError('needs_login', error.message, {
      server: this.name,
      tool: target.tool,
      cause,
    });
  }

  // ---- the connection's life ----

  /** One attempt at a connection, within connect_timeout (connection.ts). Never rejects. */
  #open(signal: AbortSignal): Promise<OpenOutcome> {
    return openAttempt({
      config: this.config,
      settings: this.#settings,
      scrub: this.#scrub,
      signal,
      onToolsChanged: (connection) => void this.#refreshTools(connection),
      remembered: this.#remembered,
    });
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
  #adopt(connection: Connection): ConnectionTimers {
    const { config } = this;
    this.#lastFailure = undefined;
    connection.onLost((loss) => this.#dead(connection, lost(config.name, loss)));
    const timers = new ConnectionTimers({
      keepaliveIntervalMs: config.keepaliveIntervalMs,
      idleTimeoutMs: config.idleTimeoutMs,
      maxLifetimeMs: config.maxLifetimeMs,
      // The same bound as requestOptions(): `timeout`.
      ping: () => connection.keepalive(buildRequestOptions(config.timeoutMs)),
      onPingFailed: (error) => this.#pingFailed(connection, error),
      onIdle: () => this.#idle(connection),
      onLifetimeEnd: () => void this.#replace(connection).catch(() => {}),
    });
    connection.onBusy((busy) => timers.busy(busy));
    const { memory, ...shown } = connection.info;
    this.#remembered = {
      tools: shown.tools,
      resources: shown.resources,
      prompts: shown.prompts,
      memory,
    };
    this.#setState({ kind: 'connected', ...shown });
    return timers;
  }

  /**
   * The live connection's server has a new tool list: a new `connected` state carries it. A list
   * equal to the one it has is no news (many servers send list_changed right after initialize,
   * before anything changed): no state, so no status or tools event follows.
   */
  #setTools(connection: Connection, tools: readonly Tool[]): void {
    const state = this.#state;
    if (
      this.#slot.live === connection &&
      state.kind === 'connected' &&
      !isDeepStrictEqual(state.tools, tools)
    ) {
      // The server's freshness promise was for the list it replaced.
      const remembered = withoutFreshness(this.#remembered);
      if (remembered !== undefined) this.#remembered = { ...remembered, tools };
      this.#setState({ ...state, tools });
    }
  }

  /**
   * A new connection takes over from `old` (its lifetime ended, or the server forgot its HTTP
   * session); new requests wait for it while `old` finishes what runs on it. Callers for the
   * same `old` share one replacement.
   */
  #replace(old: Connection): Promise<Connection> {
    const existing = this.#successors.get(old);
    if (existing !== undefined) return existing;
    if (this.#slot.live !== old) return Promise.reject(new Error('not the live connection'));
    this.#slot.detach();
    this.#slot.retire(old);
    const next = this.#slot.open(true).then((outcome) => {
      if (outcome.ok) return outcome.connection;
      if (outcome.error.code === 'needs_login') this.#fail(outcome);
      else if (outcome.error.code !== 'connection_closed') this.#down(failureOf(outcome));
      throw outcome.error;
    });
    next.catch(() => {});
    this.#successors.set(old, next);
    return next;
  }

  /** The live connection died (exit, stream loss, failed keepalive): the watchdog takes over. */
  #dead(connection: Connection, error: McpStateError): void {
    if (this.#slot.live !== connection) return;
    // What is left of the tree (a helper the server started) is reaped in the background.
    void this.#slot.end(this.#slot.detach());
    this.#logger.warn(error.message, { server: this.name });
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
    const outcome = await this.#slot.open(false);
    if (outcome.ok) return 'connected';
    const { error } = outcome;
    if (error.code === 'connection_closed') return 'stop';
    if (error.code === 'needs_login') {
      this.#fail(outcome);
      return 'stop';
    }
    this.#lastFailure = failureOf(outcome);
    this.#logger.warn(
      `${error.message} (reconnect attempt ${attempt} of ${this.#watchdog.attempts})`,
      { server: this.name },
    );
    return 'retry';
  }

  #giveUp(): void {
    const last = this.#lastFailure ?? this.#unknownFailure();
    const message = gaveUp(last.message, this.#watchdog.attempts);
    this.#logger.warn(message, { server: this.name });
    this.#setState({ kind: 'failed', ...last, message });
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

  #idle(connection: Connection): void {
    if (this.#slot.live !== connection || connection.inFlight > 0) return;
    void this.#slot.end(this.#slot.detach());
    this.#setState({ kind: 'idle', since: Date.now() });
  }

  #pingFailed(connection: Connection, error: unknown): void {
    if (this.#slot.live !== connection) return;
    const target = { server: this.name, method: 'ping' };
    const failure = connection.failure(error);
    if (failure === 'refused') {
      this.#refused(connection, error, target);
      return;
    }
    if (failure === 'forgotten') {
      void this.#replace(connection).catch(() => {});
      return;
    }
    const failed = loadedCode().requestError(error, {
      ...target,
      timeoutMs: this.config.timeoutMs,
      sent: true,
      scrub: this.#scrub,
      url: remoteUrl(this.config),
    });
    this.#dead(connection, { code: failed.code, message: keepaliveFailed(failed.message) });
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
    return { ...lost(this.name, { kind: 'closed' }), stderrTail: '' };
  }

  /** Why reconnect() ended without a connection. */
  #stateError(): McpError {
    const state = this.#state;
    const server = this.name;
    if (state.kind === 'failed') return new McpError(state.code, state.message, { server });
    if (state.kind === 'needsLogin') return new McpError('needs_login', state.message, { server });
    return closedWhileConnecting(server);
  }

  #setState(next: McpConnectionState): void {
    // Every state passes here, so none can carry a secret, whatever text went into it: an
    // injected transport's stderr, a message made before a token was learned.
    const state = redactState(next, this.#scrub);
    this.#state = state;
    this.#listeners.emit(state);
  }
}

function failureOf(outcome: OpenFailure): Failure {
  const { error, stderrTail, exit } = outcome;
  return { code: error.code, message: error.message, stderrTail, ...(exit && { exit }) };
}

/** Resolves when the open succeeded; rejects with its error otherwise. */
async function settled(outcome: Promise<OpenOutcome>): Promise<void> {
  const result = await outcome;
  if (!result.ok) throw result.error;
}

/** `schema` with its tool list no longer fresh: the next connect asks for it. */
function withoutFreshness(schema: McpServerSchema | undefined): McpServerSchema | undefined {
  if (schema?.memory?.toolsFreshUntil === undefined) return schema;
  const { toolsFreshUntil: _, ...memory } = schema.memory;
  return { ...schema, memory };
}
