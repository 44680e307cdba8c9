// McpClient: ONE server, as the rest of the plugin sees it. It owns the options of every request
// (requestOptions), the call queue of a server that does not take parallel calls, what a request
// does with the connection it is given (a forgotten HTTP session is re-initialized once and the
// request sent again; a 401 is a needed login), and its public face. The connection's life and
// state (connect, the watchdog, timers, idle, recycle) is connection-lifecycle.ts's.
import { type Logger, redactingLogger, silentLogger } from '@epoch-agent/infra';
import {
  type Client,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type RequestOptions,
  type Resource,
  type ResourceTemplateType,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import {
  isAuthFailure,
  isSessionExpired,
  sessionExpiredAgain,
  type UnavailableSite,
} from './connect-errors.js';
import { ConnectionLifecycle } from './connection-lifecycle.js';
import type { McpConnectionState } from './connection-state.js';
import { McpError } from './errors.js';
import { type ListItem, type ListMethod, listAll } from './paginate.js';
import {
  buildRequestOptions,
  isMethodNotFound,
  messageOf,
  remoteUrl,
  requestError,
} from './request-options.js';
import { type Scrubber, serverRedactor } from './secrets.js';
import { SerialQueue } from './serial-queue.js';
import type { Session } from './session.js';
import { type McpToolBackend, type ToolCallResult, toolCallResultSchema } from './tools.js';
import { createTransport, type McpTransportFactory } from './transport/create.js';
import type { ReapOptions } from './transport/reap.js';
import type { McpServerConfig } from './types.js';
import { DEFAULT_RECONNECT_DELAYS_MS } from './watchdog.js';

export interface McpClientOptions {
  readonly config: McpServerConfig;
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Default: the real transports (createTransport). Tests of higher layers may inject their own. */
  readonly createTransport?: McpTransportFactory;
  /** The wait before each attempt of a reconnect series; one attempt per entry. Default 1 s, 2 s, 4 s. */
  readonly reconnectDelaysMs?: readonly number[];
  /**
   * The grace periods of closing a stdio server: stdin EOF, then SIGTERM, then the tree is killed.
   * Default 500 ms each (see ReapOptions).
   */
  readonly reap?: ReapOptions;
}

export type McpStateListener = (state: McpConnectionState) => void;

interface RequestHow<T> {
  /** The raw tool name, for tools/call. */
  readonly tool?: string;
  readonly serial?: boolean;
  /** The capability the server must have declared; without it nothing is sent. */
  readonly capability?: 'resources' | 'prompts';
  /** The answer when the capability is missing; without it, `not_supported` is thrown. */
  readonly otherwise?: () => T;
}

type Send<T> = (sdk: Client, options: RequestOptions) => Promise<T>;

export class McpClient implements McpToolBackend {
  readonly config: McpServerConfig;
  readonly #logger: Logger;
  readonly #scrub: Scrubber;
  readonly #queue = new SerialQueue();
  readonly #lifecycle: ConnectionLifecycle;

  constructor(options: McpClientOptions) {
    this.config = options.config;
    this.#scrub = serverRedactor(options.config);
    // Every line logged about this server passes its policy, whoever wrote the message.
    this.#logger = redactingLogger(options.logger ?? silentLogger, this.#scrub);
    this.#lifecycle = new ConnectionLifecycle({
      config: options.config,
      logger: this.#logger,
      createTransport: options.createTransport ?? createTransport,
      scrub: this.#scrub,
      reap: options.reap,
      reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
      onToolsChanged: (session) => void this.#refreshTools(session),
    });
  }

  get name(): string {
    return this.config.name;
  }

  get state(): McpConnectionState {
    return this.#lifecycle.state;
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: McpStateListener): () => void {
    return this.#lifecycle.onStateChange(listener);
  }

  /**
   * Spawns or connects, initializes and reads the first tools/list, all within connect_timeout.
   * Joins an attempt in flight; resolves at once when connected; a reconnect series waiting for
   * its next attempt gives way to this attempt, made now. Rejects with an McpError (the state is
   * then `failed` or `needsLogin`, or `disconnected` when close() ended the attempt).
   */
  connect(): Promise<void> {
    return this.#lifecycle.connect();
  }

  /**
   * Starts over: the current connection (if any) finishes its requests in flight and closes, and
   * a new one is made at once; if that fails, the watchdog's series follows. Resolves when
   * connected; rejects when the series gives up, the server needs a login, or close() ends it.
   */
  reconnect(): Promise<void> {
    return this.#lifecycle.reconnect();
  }

  /**
   * Ends the connection: a stdio server's whole process tree is reaped, a remote transport is
   * closed, every timer and the watchdog stop. Everything pending settles: requests in flight and
   * queued calls reject with `connection_closed`, a connect in flight rejects. A second close()
   * while the first runs joins it and skips what is left of the grace periods.
   */
  close(): Promise<void> {
    this.#queue.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    return this.#lifecycle.close();
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
      (sdk, options) => sdk.request({ method: 'resources/read', params: { uri } }, options),
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
      (sdk, options) =>
        sdk.getPrompt(args === undefined ? { name } : { name, arguments: args }, options),
      { capability: 'prompts' },
    );
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.#request('ping', signal, (sdk, options) => sdk.ping(options));
  }

  /** After notifications/tools/list_changed: a new `connected` state carries the new tool list. */
  async #refreshTools(session: Session): Promise<void> {
    if (!this.#lifecycle.isLive(session)) return;
    try {
      const tools = await this.#request('tools/list', undefined, (sdk, options) =>
        listAll(sdk, 'tools/list', options, this.#site()),
      );
      this.#lifecycle.setTools(session, tools);
    } catch (error) {
      this.#logger.warn(
        `MCP server "${this.name}" announced a new tool list, but asking for it failed: ${messageOf(error)}. Its previous tools stay in use.`,
        { server: this.name },
      );
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
        (sdk, options) => listAll(sdk, method, options, this.#site()),
        { capability, otherwise: () => [] },
      );
    } catch (error) {
      if (error instanceof McpError && isMethodNotFound(error.cause)) return [];
      throw error;
    }
  }

  async #request<T>(
    method: string,
    signal: AbortSignal | undefined,
    send: Send<T>,
    how: RequestHow<T> = {},
  ): Promise<T> {
    const site: UnavailableSite = { server: this.name, method, tool: how.tool };
    let sent = false;
    const run = async (): Promise<T> => {
      if (signal?.aborted) throw signal.reason;
      // In the queue, not before it: a call that waited goes to the connection live by then.
      const session = await this.#lifecycle.sessionFor(site, signal);
      if (how.capability !== undefined && !session.info[how.capability]) {
        if (how.otherwise !== undefined) return how.otherwise();
        throw new McpError(
          'not_supported',
          `MCP server "${this.name}" does not offer ${how.capability} (it did not declare the capability), so ${method} was not sent.`,
          { server: this.name },
        );
      }
      sent = true;
      return this.#send(session, site, signal, send);
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
        url: remoteUrl(this.config),
      });
    }
  }

  /**
   * Sends on `session`. A Streamable HTTP server that forgot the session (404) gets a new one and
   * the request once more, with what is left of its timeout; a 401 means `needsLogin`.
   */
  async #send<T>(
    session: Session,
    site: UnavailableSite,
    signal: AbortSignal | undefined,
    send: Send<T>,
  ): Promise<T> {
    const started = Date.now();
    try {
      return await session.run((sdk) => send(sdk, this.requestOptions(signal)));
    } catch (error) {
      if (isAuthFailure(error)) throw this.#lifecycle.refused(session, error, site);
      if (!isSessionExpired(error, session.handle.transport)) throw error;
    }
    const next = await this.#lifecycle.successor(session, site, signal);
    const left = Math.max(1, this.config.timeoutMs - (Date.now() - started));
    try {
      return await next.run((sdk) => send(sdk, buildRequestOptions(left, signal)));
    } catch (error) {
      if (isAuthFailure(error)) throw this.#lifecycle.refused(next, error, site);
      if (isSessionExpired(error, next.handle.transport)) throw sessionExpiredAgain(site, error);
      throw error;
    }
  }

  #site(): { readonly server: string; readonly logger: Logger } {
    return { server: this.name, logger: this.#logger };
  }
}
