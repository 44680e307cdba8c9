// McpClient: ONE server, as the rest of the plugin sees it: its public face, the options of every
// request (requestOptions), and its state. The connection itself (server-connection.ts: the call
// queue, every request, the connection's life) is loaded with the SDK on the first connect or
// request, so that importing the plugin, and a program that only reads mcp.json, pays for none of
// it.
import { type Logger, redactingLogger, silentLogger } from '@epoch-agent/infra';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  RequestOptions,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import { type Scrubber, serverRedactor } from '../secrets.js';
import type { McpToolBackend } from '../tools/epoch-tools.js';
import type { ToolCallResult } from '../tools/result.js';
import { createTransport, type McpTransportFactory } from '../transport/create.js';
import type { ReapOptions } from '../transport/reap.js';
import type { McpServerConfig } from '../types.js';
import { buildRequestOptions } from './request-options.js';
import type { ServerConnection } from './server-connection.js';
import type { McpConnectionState } from './state.js';
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

const DISCONNECTED: McpConnectionState = { kind: 'disconnected' };
const CONNECTING: McpConnectionState = { kind: 'connecting' };

type ConnectionModule = typeof import('./server-connection.js');

/** server-connection.ts once loaded: every client after the first uses it without waiting. */
let connectionModule: ConnectionModule | undefined;
let loadingModule: Promise<ConnectionModule> | undefined;

/**
 * Loads the connection's code (and the SDK) for every client of this process. A caller that
 * awaits it first (McpRegistry.connectAll) has its clients start as the first line of connect().
 */
export function loadConnectionModule(): Promise<ConnectionModule> {
  loadingModule ??= import('./server-connection.js').then((module) => {
    connectionModule = module;
    return module;
  });
  return loadingModule;
}

export class McpClient implements McpToolBackend {
  readonly config: McpServerConfig;
  readonly #options: McpClientOptions;
  readonly #logger: Logger;
  readonly #scrub: Scrubber;
  readonly #listeners = new Set<McpStateListener>();
  #connection: ServerConnection | undefined;
  /** connect() or reconnect() waits for the connection's code to load: already `connecting`. */
  #starting = false;

  constructor(options: McpClientOptions) {
    this.config = options.config;
    this.#options = options;
    this.#scrub = serverRedactor(options.config);
    // Every line logged about this server passes its policy, whoever wrote the message.
    this.#logger = redactingLogger(options.logger ?? silentLogger, this.#scrub);
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
    if (this.#starting) return CONNECTING;
    return this.#connection?.state ?? DISCONNECTED;
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: McpStateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Spawns or connects, initializes and reads the first tools/list, all within connect_timeout.
   * Joins an attempt in flight; resolves at once when connected; a reconnect series waiting for
   * its next attempt gives way to this attempt, made now. Rejects with an McpError (the state is
   * then `failed` or `needsLogin`, or `disconnected` when close() ended the attempt).
   */
  connect(): Promise<void> {
    return this.#use((connection) => connection.connect(), { starts: true });
  }

  /**
   * Starts over: the current connection (if any) finishes its requests in flight and closes, and
   * a new one is made at once; if that fails, the watchdog's series follows. Resolves when
   * connected; rejects when the series gives up, the server needs a login, or close() ends it.
   */
  reconnect(): Promise<void> {
    return this.#use((connection) => connection.reconnect(), { starts: true });
  }

  /**
   * Ends the connection: a stdio server's whole process tree is reaped, a remote transport is
   * closed, every timer and the watchdog stop. Everything pending settles: requests in flight and
   * queued calls reject with `connection_closed`, a connect in flight rejects. A second close()
   * while the first runs joins it and skips what is left of the grace periods.
   */
  close(): Promise<void> {
    return this.#use((connection) => connection.close());
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
  ): Promise<ToolCallResult> {
    return this.#use((connection) => connection.callTool(name, args, signal));
  }

  /** Every page of resources/list; empty (and nothing sent) when the server declared no resources. */
  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#use((connection) => connection.listResources(signal));
  }

  /** Every page of resources/templates/list; empty when the server declared no resources. */
  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return this.#use((connection) => connection.listResourceTemplates(signal));
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#use((connection) => connection.readResource(uri, signal));
  }

  /** Every page of prompts/list; empty (and nothing sent) when the server declared no prompts. */
  listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    return this.#use((connection) => connection.listPrompts(signal));
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#use((connection) => connection.getPrompt(name, args, signal));
  }

  ping(signal?: AbortSignal): Promise<void> {
    return this.#use((connection) => connection.ping(signal));
  }

  /**
   * `run` on the connection; the first time any client of this process needs one, after its code
   * (and the SDK) has loaded. `starts`: the client reads as `connecting` while it loads.
   */
  #use<T>(run: (connection: ServerConnection) => Promise<T>, { starts = false } = {}): Promise<T> {
    if (this.#connection !== undefined) return run(this.#connection);
    if (connectionModule !== undefined) return run(this.#create(connectionModule));
    if (starts) this.#starting = true;
    return loadConnectionModule().then((module) => {
      const connection = this.#connection ?? this.#create(module);
      if (starts) this.#starting = false;
      return run(connection);
    });
  }

  #create(module: ConnectionModule): ServerConnection {
    const options = this.#options;
    this.#connection = new module.ServerConnection({
      config: options.config,
      logger: this.#logger,
      scrub: this.#scrub,
      createTransport: options.createTransport ?? createTransport,
      reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
      reap: options.reap,
      listeners: this.#listeners,
    });
    return this.#connection;
  }
}
