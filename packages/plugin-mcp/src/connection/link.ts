// One live link to one server: its requests in flight (idle and draining before a recycle depend
// on them), what the SDK's errors on it mean (a refused login, a forgotten HTTP session), and its
// end, reported once if it came without close(). An McpClient goes through many of these: the
// watchdog, an idle close, a lifetime recycle and a forgotten HTTP session each end one and open
// the next (open.ts). Loaded with the SDK, on a client's first connect or request (start.ts).
import {
  type Client,
  type GetPromptResult,
  type McpSubscription,
  ProtocolError,
  type ReadResourceResult,
  type RequestOptions,
  SseError,
  type Tool,
  withInputRequired,
} from '@modelcontextprotocol/client';
import type { QuestionTarget } from '../elicitation/ask.js';
import type { ConnectionQuestions } from '../elicitation/questions.js';
import { isAuthFailure, isSessionExpired } from '../errors/connect.js';
import { networkFailure } from '../errors/http.js';
import type { ConnectionLoss } from '../errors/unavailable.js';
import { ConnectionTasks } from '../tasks/connection-tasks.js';
import { type ToolCallResult, toolCallResultSchema } from '../tools/result.js';
import type { McpTransportHandle } from '../transport/handle.js';
import { MessageTooLongError } from '../transport/message-lines.js';
import { type ParamHeader, paramHeaders } from '../transport/param-headers.js';
import type { McpTaskCalls } from '../types.js';
import type { McpServerCapabilities } from './capabilities.js';
import { DirectToolCalls } from './direct-calls.js';
import { type InputAnswerers, withInputAnswered } from './input-required.js';
import type { ToolsSubscription } from './list-changes.js';
import { type ListItem, type ListMethod, type ListOwner, listAll } from './paginate.js';
import { keepProgressFirst } from './progress-order.js';
import type { McpConnectMemory, McpProtocol } from './protocol.js';
import type { McpRoots } from './roots.js';
import type { QueueTurn } from './serial-queue.js';
import type { ServerLog } from './server-log.js';
import type { McpServerInfo } from './state.js';
import { listTools } from './tool-list.js';
import { type McpOperation, type SessionClock, within } from './tracing.js';

/** A tools/call answer, or (2026 era) the server asking for input first. */
const TOOL_CALL_OR_INPUT = withInputRequired(toolCallResultSchema);

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
  /** Which 2025-11-25 tools are called as tasks (the server's `task_calls`). */
  readonly taskCalls: McpTaskCalls;
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
  /** Its requests a server's question may belong to, and who answers the questions. */
  readonly questions: ConnectionQuestions;
  /** A span for a request of its own upkeep (a keepalive), with no caller's trace (tracing.ts). */
  readonly upkeep: (method: string) => McpOperation | undefined;
  /** Its life, for `mcp.client.session.duration`. */
  readonly session: SessionClock;
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
  readonly #questions: ConnectionQuestions;
  readonly #upkeep: (method: string) => McpOperation | undefined;
  readonly #session: SessionClock;
  /** Of the latest tools/list on this connection: what each call of a marked tool carries. */
  #paramHeaders: ReadonlyMap<string, readonly ParamHeader[]>;
  /** Which calls run as tasks, and how a task is followed (tasks/connection-tasks.ts). */
  readonly tasks: ConnectionTasks;
  /** The subscriptions/listen stream list changes come by on a 2026-07-28 connection. */
  #listening: ToolsSubscription | undefined;
  /** That stream, once the server acknowledged it. */
  #subscription: McpSubscription | undefined;
  #inFlight = 0;
  #quiet: Array<() => void> = [];
  #onBusy: ((busy: boolean) => void) | undefined;
  #onLost: ((loss: ConnectionLoss) => void) | undefined;
  #lost: ConnectionLoss | undefined;
  #closing: Promise<void> | undefined;
  /**
   * close() was called: what the transport reports from then on is the close's doing, not a loss.
   * Set before the end begins, which may report it before close() has returned.
   */
  #closed = false;

  constructor({
    server,
    taskCalls,
    sdk,
    handle,
    info,
    remote,
    mirrors,
    paramHeaders,
    log,
    roots,
    questions,
    upkeep,
    session,
  }: ConnectionParts) {
    this.#upkeep = upkeep;
    this.#session = session;
    this.sdk = sdk;
    this.#log = log;
    this.handle = handle;
    this.info = info;
    this.#server = server;
    this.#mirrors = mirrors;
    this.#roots = roots;
    this.#questions = questions;
    this.#paramHeaders = paramHeaders;
    sdk.onclose = () => this.#markLost({ kind: 'closed' });
    this.#calls =
      !remote && sdk.getProtocolEra() === 'legacy'
        ? new DirectToolCalls(handle.transport)
        : undefined;
    // direct-calls.ts takes its calls' reports in order itself.
    if (this.#calls === undefined) keepProgressFirst(handle.transport);
    this.tasks = new ConnectionTasks({
      server,
      taskCalls,
      sdk,
      transport: handle.transport,
      tools: info.tools,
      answerers: (target) => this.#answerers(target),
    });
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
   * Watches the 2026-07-28 stream list changes come by, from its acknowledgement on (`late`: called
   * when that came after the connect had listed the tools without it). The server ending it, or
   * losing it, is a lost connection: the reconnect lists the tools again and listens anew, so no
   * change is missed.
   */
  watch(listening: ToolsSubscription, late: () => void): void {
    this.#listening = listening;
    void listening.opened.then((subscription) => {
      if (subscription === undefined) return;
      if (this.#closed || this.#lost !== undefined) {
        listening.stop();
        return;
      }
      this.#subscription = subscription;
      void subscription.closed.then((how) => {
        if (how !== 'local') this.#markLost({ kind: 'subscription' });
      });
      if (listening.late) late();
    });
  }

  /** How the connection ended without close(), once it has. */
  get lost(): ConnectionLoss | undefined {
    return this.#lost;
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

  /** Whether a tools/call of `tool` goes out as direct-calls.ts sends it, not the SDK's way. */
  direct(tool: string): boolean {
    return this.#calls !== undefined && !this.tasks.mustCall(tool);
  }

  /**
   * tools/call; run() it to have it counted. `target`: the call as a question the server asks
   * during it names it. On a 2026-era connection the server may ask for input first
   * (input-required.ts), and a marked tool's parameters go into headers too. `turn`: its turn in
   * the server's queue, which a call the server makes a task of gives up (tasks/task-run.ts).
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: RequestOptions,
    target: QuestionTarget,
    turn?: QueueTurn,
  ): Promise<ToolCallResult> {
    if (this.tasks.mustCall(name)) {
      return this.#questions.during(target, () =>
        this.tasks.callLegacy(name, args, options, target, turn),
      );
    }
    const calls = this.#calls;
    if (calls !== undefined) {
      return this.#questions.during(target, () => calls.call(name, args, options));
    }
    const marked = this.#paramHeaders.get(name);
    const callOptions =
      marked === undefined ? options : { ...options, headers: paramHeaders(marked, args) };
    return this.#questions.during(target, async () => {
      const answer = await withInputAnswered(
        { server: this.#server, method: 'tools/call', name },
        callOptions,
        (retry, leg) =>
          this.sdk.request(
            { method: 'tools/call', params: { name, arguments: args, ...retry } },
            TOOL_CALL_OR_INPUT,
            { ...leg, allowInputRequired: true },
          ),
        this.#answerers(target),
      );
      return this.tasks.answered(answer, name, options, target, turn);
    });
  }

  /** resources/read; run() it to have it counted. The server may ask for input first. */
  readResource(
    uri: string,
    options: RequestOptions,
    target: QuestionTarget,
  ): Promise<ReadResourceResult> {
    return this.#questions.during(target, () =>
      withInputAnswered(
        { server: this.#server, method: 'resources/read', name: uri },
        options,
        (retry, leg) =>
          this.sdk.request(
            { method: 'resources/read', params: { uri, ...retry } },
            { ...leg, allowInputRequired: true },
          ),
        this.#answerers(target),
      ),
    );
  }

  /** prompts/get; run() it to have it counted. The server may ask for input first. */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: RequestOptions,
    target: QuestionTarget,
  ): Promise<GetPromptResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.#questions.during(target, () =>
      withInputAnswered(
        { server: this.#server, method: 'prompts/get', name },
        options,
        (retry, leg) =>
          this.sdk.request(
            { method: 'prompts/get', params: { ...params, ...retry } },
            { ...leg, allowInputRequired: true },
          ),
        this.#answerers(target),
      ),
    );
  }

  #answerers(request: QuestionTarget): InputAnswerers {
    return { roots: this.#roots, questions: this.#questions, request };
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
    const modern = this.info.protocol.era === 'modern';
    const operation = this.#upkeep(modern ? 'server/discover' : 'ping');
    operation?.on({
      protocolVersion: this.info.protocol.version,
      sessionId: this.handle.transport.sessionId,
    });
    try {
      await within(operation, () => (modern ? this.sdk.discover(options) : this.sdk.ping(options)));
      operation?.end({ result: undefined });
    } catch (error) {
      operation?.end({ error });
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
    this.tasks.listed(tools);
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
    this.#closed = true;
    this.#closing ??= this.#end();
    return this.#closing;
  }

  async #end(): Promise<void> {
    const subscription = this.#subscription;
    // Its own cancellation first, so the server stops holding the stream for us; one not
    // acknowledged yet is given up.
    if (subscription !== undefined) await subscription.close().catch(() => {});
    this.#listening?.stop();
    // The transport's close begins before the bookkeeping: a stdio server (it has no subscription)
    // has its EOF at once, and exits while the session's end and the log's report are made.
    const closed = this.handle.close();
    this.#session.ended();
    this.#log.end();
    await closed;
  }

  /** A second close of the transport: the reaper skips what is left of its grace periods. */
  force(): void {
    void this.handle.close().catch(() => {});
  }

  #markLost(loss: ConnectionLoss): void {
    if (this.#lost !== undefined || this.#closed) return;
    this.#lost = loss;
    this.#session.ended(loss.kind);
    this.#onLost?.(loss);
  }
}
