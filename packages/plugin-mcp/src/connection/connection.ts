// One live link to one server, and the only module of the connection that is loaded late, with
// the SDK (opening.ts loads it on a client's first connect or request): opening it (preflight,
// spawn or connect, initialize, first tools/list, all within connect_timeout), what the SDK's
// errors on it mean (a refused login, a forgotten HTTP session), and closing it. An McpClient goes
// through many of these: the watchdog, an idle close, a lifetime recycle and a forgotten HTTP
// session each end one and open the next. A connection knows its requests in flight (idle and
// draining before a recycle depend on it) and reports its own loss, once.
import { messageOf } from '@epoch-agent/infra';
import {
  Client,
  type GetPromptResult,
  type McpSubscription,
  type PriorDiscovery,
  ProtocolError,
  type ReadResourceResult,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  SseError,
  type Tool,
  withInputRequired,
} from '@modelcontextprotocol/client';
import { connectFailure, isAuthFailure, isSessionExpired } from '../errors/connect.js';
import { networkFailure } from '../errors/http.js';
import { isMcpError, type McpError } from '../errors/mcp-error.js';
import { isMethodNotFound, requestError } from '../errors/request.js';
import { type ConnectionLoss, closedWhileConnecting } from '../errors/unavailable.js';
import { type ToolCallResult, toolCallResultSchema } from '../tools/result.js';
import type { McpTransportHandle } from '../transport/create.js';
import { MessageTooLongError } from '../transport/message-lines.js';
import { type ParamHeader, paramHeaders } from '../transport/param-headers.js';
import { streamableInstead } from '../transport/probe.js';
import { commandNotFoundForHosts } from '../transport/resolve-command.js';
import type { McpServerExit } from '../types.js';
import { type McpServerCapabilities, serverCapabilities } from './capabilities.js';
import { CLIENT_INFO, clientOptions } from './client-options.js';
import { DirectToolCalls } from './direct-calls.js';
import { withInputAnswered } from './input-required.js';
import { type OpenConnectionParts, type StartedAhead, transportOf } from './opening.js';
import { type ListItem, type ListMethod, type ListOwner, listAll } from './paginate.js';
import { explainStdioFailure, preflight } from './preflight.js';
import { keepProgressFirst } from './progress-order.js';
import type { McpConnectMemory, McpEraVerdict, McpProtocol } from './protocol.js';
import { remoteUrl } from './request-options.js';
import { type McpRoots, rootsOnTheWire } from './roots.js';
import { serverIdentity } from './server-identity.js';
import { ServerLog } from './server-log.js';
import type { McpServerInfo } from './state.js';
import { listTools, markedTools, type ToolList } from './tool-list.js';

/** A tools/call answer, or (2026 era) the server asking for input first. */
const TOOL_CALL_OR_INPUT = withInputRequired(toolCallResultSchema);

// notifications/tools/list_changed tends to come in bursts (a server that registers several tools
// announces each): one tools/list after the burst settles, not one per notification.
const TOOLS_LIST_CHANGED_DEBOUNCE_MS = 250;

/** What the server offered when this connection opened. */
export interface ConnectionInfo {
  readonly serverInfo: McpServerInfo;
  readonly instructions?: string;
  readonly protocol: McpProtocol;
  readonly tools: readonly Tool[];
  readonly resources: boolean;
  readonly prompts: boolean;
  readonly capabilities: McpServerCapabilities;
  /** What the next connection to this config starts from. */
  readonly memory: McpConnectMemory;
}

export interface ConnectionParts {
  readonly server: string;
  readonly sdk: Client;
  readonly handle: McpTransportHandle;
  readonly info: ConnectionInfo;
  /** SSE or Streamable HTTP: a refused or cut connection on any request means the server is gone. */
  readonly remote: boolean;
  /** Tool parameters go into headers too (2026 era, Streamable HTTP): tool-list.ts checks each tool. */
  readonly mirrors: boolean;
  /** The marked tools of the first tools/list, by name (tool-list.ts). */
  readonly paramHeaders: ReadonlyMap<string, readonly ParamHeader[]>;
  /** Where the server's log messages go; told when the connection closes. */
  readonly log: ServerLog;
  /** The host's roots, for a 2026-era server that asks for them inside a request. */
  readonly roots: McpRoots | undefined;
}

export class Connection {
  readonly sdk: Client;
  readonly handle: McpTransportHandle;
  readonly info: ConnectionInfo;
  readonly #server: string;
  /** How tools/call goes: direct-calls.ts on a stdio connection of the 2025 era, else the SDK's request. */
  readonly #calls: DirectToolCalls | undefined;
  readonly #mirrors: boolean;
  readonly #log: ServerLog;
  readonly #roots: McpRoots | undefined;
  /** Of the latest tools/list on this connection: what each call of a marked tool carries. */
  #paramHeaders: ReadonlyMap<string, readonly ParamHeader[]>;
  /** The subscriptions/listen stream list changes come by on a 2026-07-28 connection. */
  #subscription: McpSubscription | undefined;
  #inFlight = 0;
  #quiet: Array<() => void> = [];
  #onBusy: ((busy: boolean) => void) | undefined;
  #onLost: ((loss: ConnectionLoss) => void) | undefined;
  #lost: ConnectionLoss | undefined;
  #closing: Promise<void> | undefined;

  constructor({
    server,
    sdk,
    handle,
    info,
    remote,
    mirrors,
    paramHeaders,
    log,
    roots,
  }: ConnectionParts) {
    this.sdk = sdk;
    this.#log = log;
    this.handle = handle;
    this.info = info;
    this.#server = server;
    this.#mirrors = mirrors;
    this.#roots = roots;
    this.#paramHeaders = paramHeaders;
    sdk.onclose = () => this.#markLost({ kind: 'closed' });
    this.#calls =
      !remote && sdk.getProtocolEra() === 'legacy'
        ? new DirectToolCalls(handle.transport)
        : undefined;
    // direct-calls.ts takes its calls' reports in order itself.
    if (this.#calls === undefined) keepProgressFirst(handle.transport);
    sdk.onerror = (error) => {
      // Before the close it causes, which would otherwise say only that the connection closed.
      if (error instanceof MessageTooLongError) {
        this.#markLost({ kind: 'tooLong', error });
        return;
      }
      // When a legacy SSE stream drops, EventSource reconnects on its own and the SDK's transport
      // never fires onclose; the new stream would be a server session nobody initialized. Its
      // error events are the only sign, so after connect any SseError means the connection is gone.
      if (error instanceof SseError) {
        this.#markLost({ kind: 'stream' });
        return;
      }
      // HTTP has no connection to watch between requests: a server that died is only seen when a
      // request (a call, a ping, a notification, the GET stream's retry) cannot reach it. The
      // transport reports that here before the request itself fails, so the state is already
      // `reconnecting` when the caller reads the error.
      const failure = remote ? networkFailure(error) : undefined;
      if (failure !== undefined) this.#markLost({ kind: 'unreachable', failure });
    };
  }

  /** Requests running on this connection now (keepalive pings not counted). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Watches the 2026-07-28 stream list changes come by. The server ending it, or losing it, is a
   * lost connection: the reconnect lists the tools again and listens anew, so no change is missed.
   */
  watch(subscription: McpSubscription): void {
    this.#subscription = subscription;
    void subscription.closed.then((how) => {
      if (how !== 'local') this.#markLost({ kind: 'subscription' });
    });
  }

  /** Called once if the connection ends without close(); at once if that already happened. */
  onLost(listener: (loss: ConnectionLoss) => void): void {
    this.#onLost = listener;
    const lost = this.#lost;
    if (lost !== undefined) queueMicrotask(() => listener(lost));
  }

  /** Called when the first request starts (true) and when the last one settles (false). */
  onBusy(listener: (busy: boolean) => void): void {
    this.#onBusy = listener;
  }

  /**
   * Runs one request on this connection, counted as in flight until it settles. The request's own
   * promise is returned: the count is settled by a reaction registered before the caller's, so it
   * is up to date when the caller resumes, without a promise of ours in between.
   */
  run<T>(send: () => Promise<T>): Promise<T> {
    this.#inFlight += 1;
    if (this.#inFlight === 1) this.#onBusy?.(true);
    let running: Promise<T>;
    try {
      running = send();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(this.#settled, this.#settled);
    return running;
  }

  readonly #settled = (): void => {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) {
      this.#onBusy?.(false);
      for (const resolve of this.#quiet.splice(0)) resolve();
    }
  };

  /**
   * tools/call; run() it to have it counted. On a 2026-era connection the server may ask for input
   * first (input-required.ts), and a marked tool's parameters go into headers too.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: RequestOptions,
  ): Promise<ToolCallResult> {
    if (this.#calls !== undefined) return this.#calls.call(name, args, options);
    const marked = this.#paramHeaders.get(name);
    const callOptions =
      marked === undefined ? options : { ...options, headers: paramHeaders(marked, args) };
    return withInputAnswered(
      { server: this.#server, method: 'tools/call', name },
      callOptions,
      (retry, leg) =>
        this.sdk.request(
          { method: 'tools/call', params: { name, arguments: args, ...retry } },
          TOOL_CALL_OR_INPUT,
          { ...leg, allowInputRequired: true },
        ),
      this.#roots,
    );
  }

  /** resources/read; run() it to have it counted. The server may ask for input first. */
  readResource(uri: string, options: RequestOptions): Promise<ReadResourceResult> {
    return withInputAnswered(
      { server: this.#server, method: 'resources/read', name: uri },
      options,
      (retry, leg) =>
        this.sdk.request(
          { method: 'resources/read', params: { uri, ...retry } },
          { ...leg, allowInputRequired: true },
        ),
      this.#roots,
    );
  }

  /** prompts/get; run() it to have it counted. The server may ask for input first. */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: RequestOptions,
  ): Promise<GetPromptResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return withInputAnswered(
      { server: this.#server, method: 'prompts/get', name },
      options,
      (retry, leg) =>
        this.sdk.request(
          { method: 'prompts/get', params: { ...params, ...retry } },
          { ...leg, allowInputRequired: true },
        ),
      this.#roots,
    );
  }

  /**
   * Tells a 2025-era server that the host's roots changed (it asks roots/list again). A 2026-era
   * server has no such notification: it asks for roots inside the request that needs them.
   */
  async rootsChanged(): Promise<void> {
    if (this.#roots === undefined || this.sdk.getProtocolEra() !== 'legacy') return;
    await this.sdk.sendRootsListChanged();
  }

  /**
   * What a request's failure on this connection asks of the client: `refused` (HTTP 401: a login
   * is needed), `forgotten` (a Streamable HTTP server answered 404 to our session id: a new
   * initialize), or nothing special. Decided on the SDK's typed errors, never on message text.
   */
  failure(error: unknown): 'refused' | 'forgotten' | undefined {
    if (isAuthFailure(error)) return 'refused';
    if (isSessionExpired(error, this.handle.transport)) return 'forgotten';
    return undefined;
  }

  /**
   * A keepalive check, not run() (it is not activity, or idle_timeout could never pass): a ping,
   * or on a 2026-07-28 connection, which has no ping, a server/discover, the one request every
   * server of that era must answer and that changes nothing. Rejects when the server did not
   * answer; a JSON-RPC error is still an answer: it is alive.
   */
  async keepalive(options: RequestOptions): Promise<void> {
    try {
      if (this.info.protocol.era === 'modern') await this.sdk.discover(options);
      else await this.sdk.ping(options);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
    }
  }

  /** Every page of a list other than tools/list; run() it to have it counted. */
  list<M extends Exclude<ListMethod, 'tools/list'>>(
    method: M,
    options: RequestOptions,
    owner: ListOwner,
  ): Promise<ListItem[M][]> {
    return listAll(this.sdk, method, options, owner);
  }

  /** Every tool the server offers now (tool-list.ts); run() it to have it counted. */
  async listTools(options: RequestOptions, owner: ListOwner): Promise<Tool[]> {
    const { tools, paramHeaders } = await listTools(this.sdk, options, owner, this.#mirrors);
    this.#paramHeaders = paramHeaders;
    return tools;
  }

  /** Resolves when no request runs on this connection. */
  whenQuiet(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#quiet.push(resolve));
  }

  /**
   * Ends the connection for good (a stdio server's tree is reaped); requests in flight reject with
   * connection_closed. Idempotent; `force()` is the escalation.
   */
  close(): Promise<void> {
    this.#closing ??= this.#end();
    return this.#closing;
  }

  async #end(): Promise<void> {
    this.#log.end();
    // Its own cancellation first, so the server stops holding the stream for us.
    await this.#subscription?.close().catch(() => {});
    await this.handle.close();
  }

  /** A second close of the transport: the reaper skips what is left of its grace periods. */
  force(): void {
    void this.handle.close().catch(() => {});
  }

  #markLost(loss: ConnectionLoss): void {
    if (this.#lost !== undefined || this.#closing !== undefined) return;
    this.#lost = loss;
    this.#onLost?.(loss);
  }
}

export type OpenOutcome =
  | { readonly ok: true; readonly connection: Connection }
  | {
      readonly ok: false;
      /** `needs_login`, `connect_timeout`, `command_not_found`, ...; `connection_closed` when
       * the signal ended the attempt. */
      readonly error: McpError;
      /** The server's last stderr lines (stdio), secrets blanked by its transport. */
      readonly stderrTail: string;
      /** stdio: how the server's process ended, if it ended by itself. */
      readonly exit?: McpServerExit;
    };

// What McpClient needs of the SDK's classes, loaded with this module: the error a request's
// failure becomes, whether it was a method-not-found, and the one that settles the calls still
// queued when the client closes.
export { isMethodNotFound, requestError };

export function connectionClosed(): Error {
  return new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
}

/** Why an attempt was aborted. */
const TIMED_OUT = 'connect_timeout';
const CLOSED = 'closed';

/**
 * Opens one connection within connect_timeout. Never rejects: a failure is an outcome. `ahead`:
 * the stdio server its first attempt uses, spawned while this module loaded (opening.ts).
 */
export function openConnection(
  options: OpenConnectionParts,
  ahead?: StartedAhead,
): Promise<OpenOutcome> {
  return openRemembering(options, ahead);
}

/** What a first connect meets a server with when it is known to be of the 2025 era. */
const LEGACY: PriorDiscovery = { kind: 'legacy' };

/**
 * Opens from the remembered era verdict, or with a probe when there is none. A server that
 * refused the remembered verdict (it answered, and not with a 401) may have changed era: one more
 * attempt, with a probe. A stdio server that exited when probed is of the 2025 era (servers of
 * some SDKs end on any request before initialize): it is started once more, with initialize.
 */
async function openRemembering(
  options: OpenConnectionParts,
  ahead: StartedAhead | undefined,
): Promise<OpenOutcome> {
  // One connect_timeout for the attempt and its one more: a second try spends what the first left.
  const deadline = (ahead?.at ?? Date.now()) + options.config.connectTimeoutMs;
  const verdict = options.remembered?.memory?.verdict;
  const prior = verdict === undefined ? undefined : priorDiscovery(verdict);
  const first = await openNow(options, prior, deadline, ahead?.handle);
  const { outcome } = first;
  if (outcome.ok || options.signal.aborted) return outcome;
  const { logger } = options.settings;
  const server = options.config.name;
  if (verdict === undefined) {
    if (!first.exitedWhileProbing) return outcome;
    logger.info(
      `MCP server "${server}" exited when asked server/discover before initialize, as some 2025-era servers do; starting it again with initialize.`,
      { server },
    );
    return (await openNow(options, LEGACY, deadline)).outcome;
  }
  if (!first.verdictRefused) return outcome;
  logger.info(
    `MCP server "${server}": connecting as it was met last time failed (${outcome.error.message}); asking it which protocol it speaks now.`,
    { server },
  );
  return (await openNow({ ...options, remembered: undefined }, undefined, deadline)).outcome;
}

interface Attempt {
  readonly outcome: OpenOutcome;
  /** A stdio server exited before the connect's first answer, which was the era probe's. */
  readonly exitedWhileProbing: boolean;
  /**
   * Connecting from a remembered verdict failed while the server was there to answer: no
   * timeout, no close(), no process that exited, no unreachable host, no refused login.
   */
  readonly verdictRefused: boolean;
}

/**
 * One attempt, ended at `deadline` (Date.now() milliseconds); `prior` skips the probe (a verdict),
 * none probes with server/discover. `started`: its transport, already made (and spawning).
 */
async function openNow(
  options: OpenConnectionParts,
  prior: PriorDiscovery | undefined,
  deadline: number,
  started?: McpTransportHandle,
): Promise<Attempt> {
  const { config, scrub } = options;
  const { logger } = options.settings;
  const attempt = new AbortController();
  const onClose = (): void => attempt.abort(CLOSED);
  if (options.signal.aborted) onClose();
  options.signal.addEventListener('abort', onClose, { once: true });
  // One deadline for preflight, spawn, initialize and the first tools/list: each step spends what
  // the previous ones left, none starts a fresh connect_timeout.
  const timer = setTimeout(() => attempt.abort(TIMED_OUT), Math.max(0, deadline - Date.now()));
  let handle = started;
  let tooLong: MessageTooLongError | undefined;
  let exited = false;
  let handshaken = false;
  try {
    // A stdio server's checks only explain a connect that failed (below).
    if (config.transport !== 'stdio') await preflight(config, attempt.signal);
    handle ??= await transportOf(options);
    let opened: Connection | undefined;
    const { roots } = options.settings;
    const sdk = new Client(CLIENT_INFO, {
      ...clientOptions(config, roots !== undefined),
      // The SDK would find no handler to fulfil an input_required result with: input-required.ts
      // answers what can be answered without one.
      inputRequired: { autoFulfill: false },
      // The SDK debounces (and, on a 2026-era connection, subscribes); the list itself is asked by
      // the client so that it gets the client's request options and page limit.
      listChanged: {
        tools: {
          autoRefresh: false,
          debounceMs: TOOLS_LIST_CHANGED_DEBOUNCE_MS,
          onChanged: () => {
            if (opened !== undefined) options.onToolsChanged(opened);
          },
        },
      },
    });
    // From the handshake on: a server may log while it starts.
    const log = new ServerLog(config.name, logger);
    sdk.setNotificationHandler('notifications/message', ({ params }) => log.write(params));
    // Asked afresh each time: a host's function may give other roots than at the connect.
    if (roots !== undefined) {
      sdk.setRequestHandler('roots/list', async () => ({ roots: await rootsOnTheWire(roots) }));
    }
    // The transport stops a server whose line is too long; the connect then fails as "closed", so
    // the reason is kept from its report (the connection installs its own handler once open).
    sdk.onerror = (error) => {
      if (error instanceof MessageTooLongError) tooLong ??= error;
    };
    // The handshake is connect_timeout's alone (the README's mcp.json table: start + handshake);
    // `timeout` is per request, so it bounds each page of the first tools/list inside the same deadline.
    const remembered = options.remembered;
    // Chained by the SDK's own close handling: did the process end before any answer came?
    handle.transport.onclose = () => {
      exited = true;
    };
    await untilAborted(
      sdk.connect(handle.transport, {
        timeout: config.connectTimeoutMs,
        signal: attempt.signal,
        ...(prior === undefined ? {} : { prior }),
      }),
      attempt.signal,
    );
    handshaken = true;
    const connectOptions = { timeout: config.timeoutMs, signal: attempt.signal };
    const capabilities = sdk.getServerCapabilities() ?? {};
    const era = sdk.getProtocolEra() ?? 'legacy';
    // SEP-2243 binds Streamable HTTP only; the 2025 era has no such headers.
    const mirrors = config.transport === 'http' && era === 'modern';
    const owner = { server: config.name, logger };
    const freshUntil = remembered?.memory?.toolsFreshUntil;
    // A list the server said stays fresh is not asked for again until then.
    const listed: ToolList & { readonly freshUntil: number | undefined } =
      !capabilities.tools || (freshUntil !== undefined && freshUntil > Date.now())
        ? {
            ...markedTools(
              capabilities.tools ? [...(remembered?.tools ?? [])] : [],
              owner,
              mirrors,
            ),
            ttlMs: undefined,
            scope: remembered?.memory?.toolsScope,
            freshUntil,
          }
        : await untilAborted(
            listTools(sdk, connectOptions, owner, mirrors).then(
              (list) => ({
                ...list,
                freshUntil: list.ttlMs === undefined ? undefined : Date.now() + list.ttlMs,
              }),
              (error: unknown) => {
                throw requestError(error, {
                  server: config.name,
                  method: 'tools/list',
                  timeoutMs: config.timeoutMs,
                  sent: true,
                  scrub,
                  url: remoteUrl(config),
                });
              },
            ),
            attempt.signal,
          );
    // On 2026-07-28 list changes come by a subscriptions/listen stream. A probed connect has the
    // SDK open it; a remembered one (no round trip at all) opens it here. A server that refuses
    // it is still usable: its tools are known, only their changes would go unseen.
    const subscription =
      era === 'modern' && capabilities.tools?.listChanged
        ? (sdk.autoOpenedSubscription ??
          (await untilAborted(
            sdk.listen({ toolsListChanged: true }, connectOptions).catch((error: unknown) => {
              logger.warn(
                `MCP server "${config.name}" refused subscriptions/listen (${scrub(messageOf(error))}), so a change to its tools is seen only when it reconnects.`,
                { server: config.name },
              );
              return undefined;
            }),
            attempt.signal,
          )))
        : undefined;
    if (attempt.signal.aborted) throw attempt.signal.reason;
    // Closed between its answers and now: checked in the same tick the connection starts watching.
    if (sdk.transport === undefined) throw new Error('the server closed the connection');
    const discover = sdk.getDiscoverResult();
    const protocol = { era, version: sdk.getNegotiatedProtocolVersion() ?? '' };
    opened = new Connection({
      server: config.name,
      sdk,
      handle,
      roots,
      info: {
        ...serverIdentity(sdk),
        protocol,
        tools: listed.tools,
        resources: capabilities.resources !== undefined,
        prompts: capabilities.prompts !== undefined,
        capabilities: serverCapabilities(capabilities),
        memory: {
          verdict:
            era === 'modern' && discover !== undefined
              ? { ...protocol, era, discover }
              : { ...protocol, era: 'legacy' },
          ...(listed.freshUntil === undefined ? {} : { toolsFreshUntil: listed.freshUntil }),
          ...(listed.scope === undefined ? {} : { toolsScope: listed.scope }),
        },
      },
      remote: config.transport !== 'stdio',
      mirrors,
      paramHeaders: listed.paramHeaders,
      log,
    });
    if (subscription !== undefined) opened.watch(subscription);
    const outcome: OpenOutcome = { ok: true, connection: opened };
    return { outcome, exitedWhileProbing: false, verdictRefused: false };
  } catch (thrown) {
    const error = probeCause(thrown);
    // Before the close below, which ends the process too; a timeout is not a server that exited.
    const answered =
      !attempt.signal.aborted &&
      (config.transport === 'stdio' ? !exited : networkFailure(error) === undefined);
    // A spawn that failed (our transport's McpError: command not found, no descriptor) ran nothing.
    const exitedWhileProbing =
      config.transport === 'stdio' &&
      prior === undefined &&
      exited &&
      !handshaken &&
      !attempt.signal.aborted &&
      !isMcpError(error);
    const verdictRefused = prior !== undefined && answered && !isAuthFailure(error);
    await handle
      ?.close()
      .catch((closeError: unknown) =>
        logger.warn(
          `MCP server "${config.name}": closing the connection failed: ${scrub(messageOf(closeError))}`,
          { server: config.name },
        ),
      );
    const stderrTail = handle?.stderrTail() ?? '';
    const exit = handle?.exit?.();
    const ended = exit === undefined ? {} : { exit };
    if (attempt.signal.reason === CLOSED) {
      const closed = closedWhileConnecting(config.name, error);
      const outcome: OpenOutcome = { ok: false, error: closed, stderrTail };
      return { outcome, exitedWhileProbing: false, verdictRefused: false };
    }
    const failure = connectFailure(
      tooLong ?? (await explainStdioFailure(config, error, attempt.signal)),
      {
        config,
        timedOut: attempt.signal.reason === TIMED_OUT,
        stderrTail,
        redirect: handle?.lastRedirect?.(),
        scrub,
      },
    );
    if (failure.code === 'command_not_found') {
      // The user's message says what is missing; why it may be missing is the host's business.
      logger.warn(commandNotFoundForHosts(config.name), { server: config.name });
    }
    // Within this attempt's deadline: the probe ends with it (timeout or close()).
    const probed = await streamableInstead(config, error, async (http) => {
      const probe = await openConnection({ ...options, config: http, signal: attempt.signal });
      if (probe.ok) await probe.connection.close().catch(() => {});
      return probe.ok;
    });
    return {
      outcome: { ok: false, error: probed ?? failure, stderrTail, ...ended },
      exitedWhileProbing,
      verdictRefused,
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onClose);
  }
}

/**
 * What failed under the SDK's "version negotiation probe failed": the probe is only the first
 * request a server gets, so why it failed (a refused port, a web page, a 404) is told as for any
 * connect.
 */
function probeCause(error: unknown): unknown {
  return error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause !== undefined
    ? error.cause
    : error;
}

function priorDiscovery(verdict: McpEraVerdict): PriorDiscovery {
  return verdict.era === 'modern'
    ? { kind: 'modern', discover: verdict.discover }
    : { kind: 'legacy' };
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: for steps (a transport
 * start, an SSE stream that never opens) that take no signal of their own.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
