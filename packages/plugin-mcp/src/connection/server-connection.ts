// One server's connection as McpClient drives it, loaded with the SDK on the client's first
// connect or request (client.ts): the call queue of a server that does not take parallel calls,
// what a request does with the connection it is given (a forgotten HTTP session is re-initialized
// once and the request sent again; a 401 is a needed login), and the connection's life and state
// (connection-lifecycle.ts).
import type { Logger } from '@epoch-agent/infra';
import {
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
} from '../errors/connect.js';
import { McpError } from '../errors/mcp-error.js';
import { isMethodNotFound, requestError } from '../errors/request.js';
import type { Scrubber } from '../secrets.js';
import { messageOf } from '../text.js';
import type { ToolCallResult } from '../tools/result.js';
import type { McpTransportFactory } from '../transport/create.js';
import type { ReapOptions } from '../transport/reap.js';
import type { McpServerConfig } from '../types.js';
import type { Session } from './connection.js';
import { ConnectionLifecycle } from './lifecycle.js';
import { type ListItem, type ListMethod, listAll } from './paginate.js';
import { buildRequestOptions, remoteUrl } from './request-options.js';
import { SerialQueue } from './serial-queue.js';
import type { McpConnectionState } from './state.js';

export interface ServerConnectionOptions {
  readonly config: McpServerConfig;
  /** Already redacting with the server's policy. */
  readonly logger: Logger;
  readonly scrub: Scrubber;
  readonly createTransport: McpTransportFactory;
  readonly reconnectDelaysMs: readonly number[];
  readonly reap: ReapOptions | undefined;
  /** McpClient's state listeners. */
  readonly listeners: ReadonlySet<(state: McpConnectionState) => void>;
}

interface RequestHow<T> {
  /** The raw tool name, for tools/call. */
  readonly tool?: string;
  readonly serial?: boolean;
  /** The capability the server must have declared; without it nothing is sent. */
  readonly capability?: 'resources' | 'prompts';
  /** The answer when the capability is missing; without it, `not_supported` is thrown. */
  readonly otherwise?: () => T;
}

type Send<T> = (session: Session, options: RequestOptions) => Promise<T>;

/** McpClient's methods, on the loaded connection; McpClient documents what each one does. */
export class ServerConnection {
  readonly config: McpServerConfig;
  readonly #logger: Logger;
  readonly #scrub: Scrubber;
  readonly #queue = new SerialQueue();
  readonly #lifecycle: ConnectionLifecycle;

  constructor(options: ServerConnectionOptions) {
    this.config = options.config;
    this.#scrub = options.scrub;
    this.#logger = options.logger;
    this.#lifecycle = new ConnectionLifecycle({
      ...options,
      onToolsChanged: (session) => void this.#refreshTools(session),
    });
  }

  get name(): string {
    return this.config.name;
  }

  get state(): McpConnectionState {
    return this.#lifecycle.state;
  }

  connect(): Promise<void> {
    return this.#lifecycle.connect();
  }

  reconnect(): Promise<void> {
    return this.#lifecycle.reconnect();
  }

  close(): Promise<void> {
    this.#queue.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    return this.#lifecycle.close();
  }

  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    return this.#request(
      'tools/call',
      signal,
      (session, options) => session.callTool(name, args, options),
      { tool: name, serial: !this.config.supportsParallel },
    );
  }

  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#listAll('resources/list', 'resources', signal);
  }

  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return this.#listAll('resources/templates/list', 'resources', signal);
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#request(
      'resources/read',
      signal,
      (session, options) =>
        session.sdk.request({ method: 'resources/read', params: { uri } }, options),
      { capability: 'resources' },
    );
  }

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
      (session, options) =>
        session.sdk.getPrompt(args === undefined ? { name } : { name, arguments: args }, options),
      { capability: 'prompts' },
    );
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.#request('ping', signal, (session, options) => session.sdk.ping(options));
  }

  /** After notifications/tools/list_changed: a new `connected` state carries the new tool list. */
  async #refreshTools(session: Session): Promise<void> {
    if (!this.#lifecycle.isLive(session)) return;
    try {
      const tools = await this.#request('tools/list', undefined, (live, options) =>
        listAll(live.sdk, 'tools/list', options, this.#site()),
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
        (session, options) => listAll(session.sdk, method, options, this.#site()),
        { capability, otherwise: () => [] },
      );
    } catch (error) {
      if (error instanceof McpError && isMethodNotFound(error.cause)) return [];
      throw error;
    }
  }

  /**
   * One request, through the queue when `how.serial`, on the live connection (or the one a start
   * or reconnect is making). A call is the hot path of a turn: when the connection is live nothing
   * here waits, and no promise of ours stands between the caller and the request's own.
   */
  #request<T>(
    method: string,
    signal: AbortSignal | undefined,
    send: Send<T>,
    how: RequestHow<T> = {},
  ): Promise<T> {
    const site: UnavailableSite = { server: this.name, method, tool: how.tool };
    let sent = false;
    const sendOn = (session: Session): Promise<T> => {
      if (how.capability !== undefined && !session.info[how.capability]) {
        if (how.otherwise !== undefined) return Promise.resolve(how.otherwise());
        return Promise.reject(
          new McpError(
            'not_supported',
            `MCP server "${this.name}" does not offer ${how.capability} (it did not declare the capability), so ${method} was not sent.`,
            { server: this.name },
          ),
        );
      }
      sent = true;
      return this.#send(session, site, signal, send);
    };
    const run = (): Promise<T> => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      // In the queue, not before it: a call that waited goes to the connection live by then.
      const live = this.#lifecycle.live;
      return live !== undefined
        ? sendOn(live)
        : this.#lifecycle.sessionFor(site, signal).then(sendOn);
    };
    return (how.serial ? this.#queue.run(run, signal) : run()).catch((error: unknown) => {
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
    });
  }

  /**
   * Sends on `session`. A Streamable HTTP server that forgot the session (404) gets a new one and
   * the request once more, with what is left of its timeout; a 401 means `needsLogin`.
   */
  #send<T>(
    session: Session,
    site: UnavailableSite,
    signal: AbortSignal | undefined,
    send: Send<T>,
  ): Promise<T> {
    const started = Date.now();
    return session
      .run(() => send(session, buildRequestOptions(this.config.timeoutMs, signal)))
      .catch((error: unknown) => {
        if (isAuthFailure(error)) throw this.#lifecycle.refused(session, error, site);
        if (!isSessionExpired(error, session.handle.transport)) throw error;
        return this.#sendAgain(session, site, signal, send, started);
      });
  }

  async #sendAgain<T>(
    expired: Session,
    site: UnavailableSite,
    signal: AbortSignal | undefined,
    send: Send<T>,
    started: number,
  ): Promise<T> {
    const next = await this.#lifecycle.successor(expired, site, signal);
    const left = Math.max(1, this.config.timeoutMs - (Date.now() - started));
    try {
      return await next.run(() => send(next, buildRequestOptions(left, signal)));
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
