// McpClient: the connection to ONE MCP server. It owns connect (bounded by connect_timeout), the
// options of every request (requestOptions), the call queue of a server that does not take
// parallel calls, and the connection state. Timers beyond connect (keepalive, idle, lifetime) and
// the watchdog that reconnects belong here too once they exist: a lost connection already ends in
// a `failed` state with its message and stderr, which is where a watchdog would pick it up.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import {
  Client,
  type GetPromptResult,
  type ListResourcesResult,
  type Prompt,
  type ReadResourceResult,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  type Tool,
} from '@modelcontextprotocol/client';
import { connectFailure, unavailable } from './connect-errors.js';
import type { McpConnectionState } from './connection-state.js';
import { McpError } from './errors.js';
import {
  collectPages,
  cursorParams,
  type ListItem,
  type ListMethod,
  MAX_PAGES,
  PAGE_FETCHERS,
  type PageFetcher,
} from './paginate.js';
import {
  buildRequestOptions,
  isMethodNotFound,
  messageOf,
  requestError,
} from './request-options.js';
import { type Scrubber, secretScrubber } from './secrets.js';
import { SerialQueue } from './serial-queue.js';
import { type McpToolBackend, type ToolCallResult, toolCallResultSchema } from './tools.js';
import {
  createTransport,
  type McpTransportFactory,
  type McpTransportHandle,
} from './transport/create.js';
import type { McpServerConfig } from './types.js';

// Only what every server may know about us. No sampling / elicitation / roots capabilities: the
// seed rules them out until there is a permission story for a server asking things of us.
const CLIENT_INFO = { name: 'epoch-agent', version: '0.1.0' };

export interface McpClientOptions {
  readonly config: McpServerConfig;
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Default: the real transports (createTransport). Tests of higher layers may inject their own. */
  readonly createTransport?: McpTransportFactory;
}

export type McpStateListener = (state: McpConnectionState) => void;

interface Session {
  readonly sdk: Client;
  readonly handle: McpTransportHandle;
}

/** Why a connect attempt was aborted. */
const TIMED_OUT = 'connect_timeout';
const CLOSED = 'closed';

type Connected = Extract<McpConnectionState, { kind: 'connected' }>;

export class McpClient implements McpToolBackend {
  readonly config: McpServerConfig;
  readonly #logger: Logger;
  readonly #createTransport: McpTransportFactory;
  readonly #scrub: Scrubber;
  readonly #queue = new SerialQueue();
  readonly #listeners = new Set<McpStateListener>();
  #state: McpConnectionState = { kind: 'disconnected' };
  #session: Session | undefined;
  /** The session close() is ending, so that a second close() can escalate it. */
  #ending: Session | undefined;
  /** Aborted with TIMED_OUT or CLOSED to end the connect attempt in flight. */
  #attempt: AbortController | undefined;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: McpClientOptions) {
    this.config = options.config;
    this.#logger = options.logger ?? silentLogger;
    this.#createTransport = options.createTransport ?? createTransport;
    this.#scrub = secretScrubber(options.config);
  }

  get name(): string {
    return this.config.name;
  }

  get state(): McpConnectionState {
    return this.#state;
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: McpStateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Spawns or connects, initializes and reads the first tools/list, all within connect_timeout.
   * Joins an attempt in flight; resolves at once when connected. Rejects with an McpError (the
   * state is then `failed`, or `disconnected` when close() ended the attempt).
   */
  connect(): Promise<void> {
    if (this.#state.kind === 'connected') return Promise.resolve();
    if (this.#connecting === undefined) {
      this.#connecting = this.#connectOnce().finally(() => {
        this.#connecting = undefined;
      });
    }
    return this.#connecting;
  }

  /**
   * Ends the connection: a stdio server's whole process tree is reaped, a remote transport is
   * closed. Everything pending settles: requests in flight and queued calls reject with
   * `connection_closed`, a connect in flight rejects. A second close() while the first runs joins
   * it and skips what is left of the grace periods.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) {
      // The reaper skips the rest of its grace periods on a second caller close.
      void this.#ending?.handle.close().catch(() => {});
      return this.#closing;
    }
    this.#closing = this.#closeOnce().finally(() => {
      this.#closing = undefined;
    });
    return this.#closing;
  }

  /** The options of every request this client sends: the config's `timeout` and the caller's signal. */
  requestOptions(signal?: AbortSignal): RequestOptions {
    return buildRequestOptions(this.config.timeoutMs, signal);
  }

  /**
   * tools/call. Serialized unless the config says `supports_parallel`. The result is checked
   * leniently (toolCallResultSchema): one content block of a type the SDK does not know must not
   * cost the model the rest of the answer.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    return this.#request(
      'tools/call',
      signal,
      (sdk, options) =>
        sdk.request(
          { method: 'tools/call', params: { name, arguments: args } },
          toolCallResultSchema,
          options,
        ),
      { tool: name, serial: !this.config.supportsParallel },
    );
  }

  /** One page of resources/list; empty (and nothing sent) when the server declared no resources. */
  async listResources(
    cursor: string | undefined,
    signal?: AbortSignal,
  ): Promise<ListResourcesResult> {
    if (!this.#connected('resources/list').resources) return { resources: [] };
    try {
      return await this.#request('resources/list', signal, (sdk, options) =>
        sdk.request({ method: 'resources/list', ...cursorParams(cursor) }, options),
      );
    } catch (error) {
      // Declared but not implemented: "no resources" is closer to the truth than a failure.
      if (error instanceof McpError && isMethodNotFound(error.cause)) return { resources: [] };
      throw error;
    }
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    this.#requireCapability('resources', 'resources/read');
    return this.#request('resources/read', signal, (sdk, options) =>
      sdk.request({ method: 'resources/read', params: { uri } }, options),
    );
  }

  /** Every page of prompts/list; empty (and nothing sent) when the server declared no prompts. */
  async listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    if (!this.#connected('prompts/list').prompts) return [];
    try {
      return await this.#request('prompts/list', signal, (sdk, options) =>
        this.#listAll(sdk, 'prompts/list', options),
      );
    } catch (error) {
      if (error instanceof McpError && isMethodNotFound(error.cause)) return [];
      throw error;
    }
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    this.#requireCapability('prompts', 'prompts/get');
    return this.#request('prompts/get', signal, (sdk, options) =>
      sdk.getPrompt(args === undefined ? { name } : { name, arguments: args }, options),
    );
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.#request('ping', signal, (sdk, options) => sdk.ping(options));
  }

  async #connectOnce(): Promise<void> {
    const { config } = this;
    if (this.#closing !== undefined) await this.#closing;
    const attempt = new AbortController();
    this.#attempt = attempt;
    // One deadline for spawn, initialize and the first tools/list: each step spends what the
    // previous ones left, none starts a fresh connect_timeout.
    const timer = setTimeout(() => attempt.abort(TIMED_OUT), config.connectTimeoutMs);
    this.#setState({ kind: 'connecting' });
    let handle: McpTransportHandle | undefined;
    try {
      handle = this.#createTransport(config, { logger: this.#logger });
      const sdk = new Client(CLIENT_INFO, { capabilities: {} });
      const connectOptions = { timeout: config.timeoutMs, signal: attempt.signal };
      await untilAborted(sdk.connect(handle.transport, connectOptions), attempt.signal);
      const capabilities = sdk.getServerCapabilities() ?? {};
      const tools = capabilities.tools
        ? await untilAborted(this.#listTools(sdk, connectOptions), attempt.signal)
        : [];
      if (attempt.signal.aborted) throw attempt.signal.reason;
      const session: Session = { sdk, handle };
      this.#session = session;
      sdk.onclose = () => this.#lost(session);
      if (sdk.transport === undefined) throw new Error('the server closed the connection');
      const info = sdk.getServerVersion();
      this.#setState({
        kind: 'connected',
        serverInfo: { name: info?.name ?? '', version: info?.version ?? '' },
        tools,
        resources: capabilities.resources !== undefined,
        prompts: capabilities.prompts !== undefined,
      });
    } catch (error) {
      this.#session = undefined;
      await handle?.close().catch((closeError: unknown) => this.#logCloseError(closeError));
      if (attempt.signal.reason === CLOSED) {
        throw new McpError(
          'connection_closed',
          `MCP server "${config.name}": connect was ended by close().`,
          {
            server: config.name,
            cause: error,
          },
        );
      }
      const failure = connectFailure(error, {
        server: config.name,
        connectTimeoutMs: config.connectTimeoutMs,
        timedOut: attempt.signal.reason === TIMED_OUT,
        scrub: this.#scrub,
      });
      this.#setState({
        kind: 'failed',
        code: failure.code,
        message: failure.message,
        stderrTail: this.#stderrTail(handle),
      });
      throw failure;
    } finally {
      clearTimeout(timer);
      this.#attempt = undefined;
    }
  }

  async #closeOnce(): Promise<void> {
    this.#attempt?.abort(CLOSED);
    const connecting = this.#connecting;
    const session = this.#session;
    this.#session = undefined;
    this.#ending = session;
    this.#queue.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    try {
      // Requests in flight reject with connection_closed when the transport reports the close.
      await session?.handle.close().catch((error: unknown) => this.#logCloseError(error));
      await connecting?.catch(() => {});
    } finally {
      this.#ending = undefined;
    }
    this.#setState({ kind: 'disconnected' });
  }

  /** The connection ended without close(): the process exited or the stream closed. */
  #lost(session: Session): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    const message = `MCP server "${this.name}" closed the connection (for a stdio server: the process exited). See its stderr below; the next connect() starts it again.`;
    this.#queue.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    // What is left of the tree (a helper the server started) is reaped in the background.
    void session.handle.close().catch((error: unknown) => this.#logCloseError(error));
    this.#logger.warn(message, { server: this.name });
    this.#setState({
      kind: 'failed',
      code: 'connection_closed',
      message,
      stderrTail: this.#stderrTail(session.handle),
    });
  }

  async #request<T>(
    method: string,
    signal: AbortSignal | undefined,
    send: (sdk: Client, options: RequestOptions) => Promise<T>,
    how: { readonly tool?: string; readonly serial?: boolean } = {},
  ): Promise<T> {
    const session = this.#sessionFor(method, how.tool);
    let sent = false;
    const run = (): Promise<T> => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sent = true;
      return send(session.sdk, this.requestOptions(signal));
    };
    try {
      return await (how.serial ? this.#queue.run(run, signal) : run());
    } catch (error) {
      throw requestError(error, {
        server: this.name,
        method,
        ...(how.tool === undefined ? {} : { tool: how.tool }),
        timeoutMs: this.config.timeoutMs,
        signal,
        sent,
        scrub: this.#scrub,
      });
    }
  }

  /** tools/list during connect: every page, with the connect attempt's options. */
  async #listTools(sdk: Client, options: RequestOptions): Promise<Tool[]> {
    try {
      return await this.#listAll(sdk, 'tools/list', options);
    } catch (error) {
      throw requestError(error, {
        server: this.name,
        method: 'tools/list',
        timeoutMs: this.config.timeoutMs,
        signal: undefined,
        sent: true,
        scrub: this.#scrub,
      });
    }
  }

  /** Every page of a list, each page a request of its own with the full `options`. */
  #listAll<M extends ListMethod>(
    sdk: Client,
    method: M,
    options: RequestOptions,
  ): Promise<ListItem[M][]> {
    const page: PageFetcher<M> = PAGE_FETCHERS[method];
    return collectPages({
      fetchPage: (cursor) => page(sdk, cursor, options),
      onTruncated: () =>
        this.#logger.warn(
          `MCP server "${this.name}": ${method} still had a nextCursor after ${MAX_PAGES} pages; using those ${MAX_PAGES} pages and asking no further. The server's pagination may be broken.`,
          { server: this.name, method },
        ),
    });
  }

  /** The connected state, or the error #sessionFor throws. */
  #connected(method: string): Connected {
    this.#sessionFor(method);
    return this.#state as Connected;
  }

  #requireCapability(capability: 'resources' | 'prompts', method: string): void {
    if (this.#connected(method)[capability]) return;
    throw new McpError(
      'not_supported',
      `MCP server "${this.name}" does not offer ${capability} (it did not declare the capability), so ${method} was not sent.`,
      { server: this.name },
    );
  }

  /** The live session, or an error the model can read at once: a call never waits on a dead server. */
  #sessionFor(method: string, tool?: string): Session {
    const session = this.#session;
    if (session !== undefined && this.#state.kind === 'connected') return session;
    throw unavailable(this.#state, { server: this.name, method, tool });
  }

  #stderrTail(handle: McpTransportHandle | undefined): string {
    return this.#scrub(handle?.stderrTail() ?? '');
  }

  #logCloseError(error: unknown): void {
    this.#logger.warn(
      `MCP server "${this.name}": closing the connection failed: ${this.#scrub(messageOf(error))}`,
      {
        server: this.name,
      },
    );
  }

  #setState(state: McpConnectionState): void {
    this.#state = state;
    for (const listener of [...this.#listeners]) {
      try {
        listener(state);
      } catch (error) {
        this.#logger.error(
          `MCP server "${this.name}": a state listener threw: ${messageOf(error)}`,
          {
            server: this.name,
          },
        );
      }
    }
  }
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
