// McpClient: ONE server as a host and the registry see it, its public surface. Its parts (its
// state, its life, its request path) share one small Server object made here. This module imports
// no SDK code: the SDK loads with a server's first connect or request, so importing the plugin,
// and a program that only reads mcp.json, pays for none of it.
import { messageOf, redactingLogger } from '@epoch-agent/infra';
import type { ToolContext, ToolProgress } from '@epoch-agent/protocol';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  RequestOptions,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import type { McpServerSchema } from '../cache.js';
import { type Scrubber, serverRedactor } from '../secrets.js';
import type { TaskCancel } from '../tasks/task-lookup.js';
import type { TaskState as McpTaskState } from '../tasks/task-wire.js';
import type { McpToolBackend } from '../tools/epoch-tools.js';
import type { ToolCallResult } from '../tools/result.js';
import {
  elicitationOf,
  type McpElicitationSetting,
  type McpServerConfig,
  type McpServerSource,
} from '../types.js';
import { ServerLife } from './life.js';
import { connectionSettings, type McpConnectionOptions } from './options.js';
import type { McpConnectMemory } from './protocol.js';
import { buildRequestOptions } from './request-options.js';
import { Requests } from './requests.js';
import { SerialQueue } from './serial-queue.js';
import type { Server } from './server.js';
import { ServerOutput } from './server-output.js';
import { ConnectionSlot } from './slot.js';
import { startConnection } from './start.js';
import { type McpConnectionState, ServerState } from './state.js';

export interface McpClientOptions extends McpConnectionOptions {
  readonly config: McpServerConfig;
  /**
   * Who configured the server: a question it asks names it, and it decides the server's default
   * elicitation setting (`elicitationOf`). The registry gives its entry's; default `user`.
   */
  readonly source?: McpServerSource;
  /** Where its output is kept; the registry passes the one its entry keeps across clients. */
  readonly output?: ServerOutput;
}

export type McpStateListener = (state: McpConnectionState) => void;

export class McpClient implements McpToolBackend {
  readonly config: McpServerConfig;
  readonly #server: Server;
  readonly #life: ServerLife;
  readonly #requests: Requests;

  constructor({
    config,
    source = 'user',
    output = new ServerOutput(),
    ...options
  }: McpClientOptions) {
    this.config = config;
    const scrub = serverRedactor(config);
    const resolved = connectionSettings(options);
    // Every line logged about this server passes its policy, whoever wrote the message.
    const logger = redactingLogger(resolved.logger, scrub);
    const settings = { ...resolved, logger };
    const server = config.name;
    this.#server = {
      config,
      settings,
      scrub,
      state: new ServerState({
        redact: scrub,
        onListenerError: (error) =>
          logger.error(`MCP server "${server}": a state listener threw: ${messageOf(error)}`, {
            server,
          }),
      }),
      slot: new ConnectionSlot({
        server,
        logger,
        scrub,
        start: (signal) =>
          startConnection({
            config,
            source,
            elicitation: () => this.#server.elicitation,
            settings,
            scrub,
            signal,
            onToolsChanged: (connection) => void this.#requests.refreshTools(connection),
            remembered: this.#server.remembered,
            output,
          }),
        onLive: (connection) => this.#life.adopt(connection),
      }),
      queue: new SerialQueue(),
      remembered: undefined,
      elicitation: elicitationOf(config, source),
    };
    this.#life = new ServerLife(this.#server);
    this.#requests = new Requests({ server: this.#server, life: this.#life });
  }

  get name(): string {
    return this.config.name;
  }

  /**
   * This server's redaction policy: its config's secrets and every one learned since (a login's
   * tokens), for text about the server that is kept (a saved tool result).
   */
  /**
   * Its elicitation setting from now on (README "Servers that ask you"): an edit of the user's
   * file changes it without a reconnect, and the next question is answered by it.
   */
  useElicitation(setting: McpElicitationSetting): void {
    this.#server.elicitation = setting;
  }

  get redactor(): Scrubber {
    return this.#server.scrub;
  }

  get state(): McpConnectionState {
    return this.#server.state.current;
  }

  /** Has the next connect start from the schema cache's entry for this config (the registry). */
  remember(schema: McpServerSchema | undefined): void {
    this.#server.remembered = schema;
  }

  /** What the connections so far learned for the next one; the registry caches it. */
  get memory(): McpConnectMemory | undefined {
    return this.#server.remembered?.memory;
  }

  /**
   * Tells the server the host's roots changed, on the live connection. A connection opened later
   * asks for them afresh anyway; a server that cannot be told now is told nothing more (logged).
   */
  async notifyRootsChanged(): Promise<void> {
    try {
      await this.#server.slot.live?.rootsChanged();
    } catch (error) {
      this.#server.settings.logger.warn(
        `MCP server "${this.config.name}" could not be told that the roots changed: ${messageOf(error)}`,
        { server: this.config.name },
      );
    }
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onStateChange(listener: McpStateListener): () => void {
    return this.#server.state.onChange(listener);
  }

  /**
   * For a host with work to do before connect() (the registry reads the schema cache): a client
   * not started yet (or closed) is `connecting` from now, this instant its `since`, and its state
   * listeners hear of it when connect() begins the connect.
   */
  willConnect(): void {
    this.#life.willConnect();
  }

  /**
   * For a server started on demand whose tools the host already has (the registry's schema cache):
   * a client not started yet is `notStarted`, with no process and no socket, until its first
   * request starts it (that request waits for the connect, within connect_timeout).
   */
  standBy(): void {
    this.#life.standBy();
  }

  /**
   * connect(), begun on the next turn of the event loop rather than now, so the caller finishes
   * what it does with the server's cached tools before its process is spawned. A request, connect()
   * or close() meanwhile begins it at once (or drops it). Settles as connect() does.
   */
  connectSoon(): Promise<void> {
    return this.#life.connectSoon();
  }

  /**
   * Spawns or connects, initializes and reads the first tools/list, all within connect_timeout.
   * Joins an attempt in flight; resolves at once when connected; a reconnect series waiting for
   * its next attempt gives way to this attempt, made now. Rejects with an McpError (the state is
   * then `failed` or `needsLogin`, or `disconnected` when close() ended the attempt).
   */
  connect(): Promise<void> {
    return this.#life.connect();
  }

  /**
   * Starts over: the current connection (if any) finishes its requests in flight and closes, and
   * a new one is made at once; if that fails, the watchdog's series follows. Resolves when
   * connected; rejects when the series gives up, the server needs a login, or close() ends it.
   */
  reconnect(): Promise<void> {
    return this.#life.reconnect();
  }

  /**
   * Ends the connection: a stdio server's whole process tree is reaped, a remote transport is
   * closed, every timer and the watchdog stop. Everything pending settles: requests in flight and
   * queued calls reject with `connection_closed`, a connect in flight rejects. A second close()
   * while the first runs joins it and skips what is left of the grace periods.
   */
  close(): Promise<void> {
    return this.#life.close();
  }

  /** The options of every request this client sends: the config's `timeout` and the caller's signal. */
  requestOptions(signal?: AbortSignal): RequestOptions {
    return buildRequestOptions(this.config.timeoutMs, signal);
  }

  /**
   * tools/call. Serialized unless the config says `supports_parallel`. The result is checked
   * leniently (checkToolCallResult): one content block of a type the SDK does not know must not
   * cost the model the rest of the answer. `context`: the ToolContext the host passed to the
   * tool's `execute`, which a question the server asks during the call carries to the host.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
    context?: ToolContext,
  ): Promise<ToolCallResult> {
    return this.#requests.asking(
      'tools/call',
      signal,
      context === undefined ? { kind: 'tool', name } : { kind: 'tool', name, context },
      (connection, options, target, turn) => connection.callTool(name, args, options, target, turn),
      {
        tool: name,
        serial: !this.config.supportsParallel,
        progress: { onProgress },
        traced: { args },
      },
    );
  }

  /**
   * tasks/get of one of this server's tasks (by the id a record of an earlier call keeps), in a
   * turn of the call queue of a server that takes one call at a time.
   */
  getTask(taskId: string, signal?: AbortSignal): Promise<McpTaskState> {
    return this.#requests.request(
      'tasks/get',
      signal,
      (connection, options) => connection.tasks.get(taskId, options),
      { serial: !this.config.supportsParallel },
    );
  }

  /**
   * tasks/cancel of one of this server's tasks: the task as the server says the cancel left it, or
   * (`ended`) that it had already ended, when nothing was sent.
   */
  cancelTask(taskId: string, signal?: AbortSignal): Promise<TaskCancel> {
    return this.#requests.request('tasks/cancel', signal, (connection, options) =>
      connection.tasks.cancel(taskId, options),
    );
  }

  /**
   * One of this server's tasks (of `tool`) followed to its result, as the call that made it would
   * have: progress, questions, `timeout` and `max_total_timeout`, tasks/cancel when stopped; each
   * request in a turn of its own on a server that takes one call at a time.
   */
  taskResult(
    taskId: string,
    tool: string,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolCallResult> {
    return this.#requests.asking(
      'tasks/get',
      signal,
      { kind: 'tool', name: tool },
      (connection, options, target, turn) =>
        connection.tasks.resume(taskId, tool, options, target, turn),
      { tool, serial: !this.config.supportsParallel, progress: { onProgress } },
    );
  }

  /** Every page of resources/list; empty (and nothing sent) when the server declared no resources. */
  listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.#requests.listAll('resources/list', 'resources', signal);
  }

  /** Every page of resources/templates/list; empty when the server declared no resources. */
  listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return this.#requests.listAll('resources/templates/list', 'resources', signal);
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#requests.asking(
      'resources/read',
      signal,
      { kind: 'resource', name: uri },
      (connection, options, target) => connection.readResource(uri, options, target),
      { capability: 'resources', traced: { uri } },
    );
  }

  /** Every page of prompts/list; empty (and nothing sent) when the server declared no prompts. */
  listPrompts(signal?: AbortSignal): Promise<Prompt[]> {
    return this.#requests.listAll('prompts/list', 'prompts', signal);
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#requests.asking(
      'prompts/get',
      signal,
      { kind: 'prompt', name },
      (connection, options, target) => connection.getPrompt(name, args, options, target),
      { capability: 'prompts', traced: { prompt: name } },
    );
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.#requests.request('ping', signal, (connection, options) =>
      connection.sdk.ping(options),
    );
  }
}
