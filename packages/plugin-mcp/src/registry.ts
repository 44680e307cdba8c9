// McpRegistry: MANY servers, each behind its own McpClient. Connects them in parallel, keeps where
// each came from (source), and answers for all of them: statuses, tools, prompts. One server's
// failure is that server's status and never anyone else's problem: nothing here throws because a
// server failed.
//
// Startup does not wait for servers whose tools are in the schema cache: they are offered from the
// cache while they connect in the background, and when a server's live list turns out different
// (at connect, or after notifications/tools/list_changed) the cache is replaced and a
// tools-changed event says what changed.

import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import { McpSchemaCache, type McpServerSchema } from './cache.js';
import { DEFAULT_MAX_OUTPUT_TOKENS, MAX_OUTPUT_TOKENS_LIMIT } from './config/output-tokens.js';
import { offersTool, serverToolName } from './config/tool-choice.js';
import { McpClient } from './connection/client.js';
import {
  type ConnectionSettings,
  connectionSettings,
  type McpConnectionOptions,
} from './connection/options.js';
import type { McpConnectionState } from './connection/state.js';
import { McpError } from './errors/mcp-error.js';
import { type RequestTarget, waitUnlessAborted } from './errors/unavailable.js';
import { Listeners } from './listeners.js';
import { DISABLED, serverStatus, type ToolCounts } from './status.js';
import { diffTools, isEmptyDiff, type McpToolsDiff } from './tools/diff.js';
import { type McpEpochTool, type McpToolBackend, toEpochTools } from './tools/epoch-tools.js';
import { assignToolNames, MAX_TOOL_NAME_LENGTH } from './tools/names.js';
import { defaultToolResultsDir } from './tools/result-files.js';
import {
  assertNever,
  type McpServerConfig,
  type McpServerSource,
  type McpServerStatus,
} from './types.js';

/** Every client's McpConnectionOptions, and what the registry itself needs. */
export interface McpRegistryOptions extends McpConnectionOptions {
  /** Longest tool name the model provider accepts. Default 128 (MAX_TOOL_NAME_LENGTH). */
  readonly toolNameMaxLength?: number;
  /**
   * Where tool lists are remembered between runs. Default: a cache under `$EPOCH_HOME` (see
   * McpSchemaCache), logging to `logger`. `null`: no cache, so connectAll waits for every server
   * — what a diagnostic that must see real connections (`epoch mcp status`) wants.
   */
  readonly schemaCache?: McpSchemaCache | null;
  /**
   * The most tokens one tool result may put into the model's context, for a server whose entry
   * sets no `max_output_tokens`. Default 25,000. A longer result is cut, and kept whole under
   * `$EPOCH_HOME/tool-results`.
   */
  readonly maxOutputTokens?: number;
}

/** Called with a server's new status whenever its state changes. */
export type McpStatusListener = (status: McpServerStatus) => void;

/**
 * A server's tools are no longer the ones `tools()` offered for it before: `tools()` already
 * returns the new ones, and the schema cache holds them.
 *
 * The registry does not swap the tools of an agent that is already running: an agent loop takes
 * its tool set as a constructor argument and cannot change it in flight. The host decides what to
 * do — tell the user, rebuild the agent with `tools()` at the next turn, or restart.
 */
export interface McpToolsChangedEvent extends McpToolsDiff {
  readonly server: string;
  readonly source: McpServerSource;
  /**
   * `connect`: the list the server gave when it (re)connected differs from the one offered before
   * (the cached one, the one from before `reconnect()`, or the old config's before
   * `reconfigure()`).
   * `list_changed`: the server sent notifications/tools/list_changed and was asked again.
   * `choice`: the user turned the server or some of its tools on or off (update).
   */
  readonly reason: 'connect' | 'list_changed' | 'choice';
}

export type McpToolsChangedListener = (event: McpToolsChangedEvent) => void;

/** A prompt and the server that offers it. */
export interface McpServerPrompt {
  readonly server: string;
  /**
   * `mcp__<server>__<prompt>`, made by the rules of tool names (tools/names.ts): the name a host
   * shows it under (a slash command), never the same for two prompts of one server. `getPrompt`
   * takes the server and `prompt.name`, the server's own name for it.
   */
  readonly name: string;
  readonly prompt: Prompt;
}

/** A server's schema and its tools, made once per schema and choice. */
interface Offer {
  /** The config it was made for: a reconfigured server offers its old one until it answers. */
  readonly config: McpServerConfig;
  readonly schema: McpServerSchema;
  /** Every tool of the schema, named over all of them: turning one off renames no other. */
  readonly tools: readonly McpEpochTool[];
  /** The ones the server's choice offers the model. */
  readonly offered: readonly McpEpochTool[];
}

interface Entry {
  /** Replaced by update() only, with the same connection. */
  config: McpServerConfig;
  readonly source: McpServerSource;
  /** None while the server is disabled: what has no client cannot start a process or a socket. */
  client: McpClient | undefined;
  /**
   * What `tools()` offers for this server: from the cached schema until the server answers, then
   * from its live one. The base of the next tools-changed diff.
   */
  offer: Offer | undefined;
  /** The client was connected at its previous state change: a new list now came by list_changed. */
  connected: boolean;
  /** The status listeners were last given for it: one that would say the same again is not sent. */
  lastStatus: McpServerStatus | undefined;
  /**
   * A reconfigure in progress: the old client closing, then the new one connecting. A request
   * waits for it, as it would for any connect, rather than meet a client not started yet.
   */
  replacing: Promise<void> | undefined;
}

export class McpRegistry {
  readonly #logger: Logger;
  /** What each client is made with. */
  readonly #connection: ConnectionSettings;
  readonly #toolNameMaxLength: number;
  readonly #cache: McpSchemaCache | undefined;
  readonly #maxOutputTokens: number;
  /** Read when the registry is made, like the schema cache's: EPOCH_HOME then. */
  readonly #toolResultsDir = defaultToolResultsDir();
  readonly #entries = new Map<string, Entry>();
  readonly #statusListeners: Listeners<McpServerStatus>;
  readonly #toolsListeners: Listeners<McpToolsChangedEvent>;

  constructor(options: McpRegistryOptions = {}) {
    this.#connection = connectionSettings(options);
    const { logger } = this.#connection;
    this.#logger = logger;
    this.#toolNameMaxLength = options.toolNameMaxLength ?? MAX_TOOL_NAME_LENGTH;
    const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    if (
      !Number.isSafeInteger(maxOutputTokens) ||
      maxOutputTokens < 1 ||
      maxOutputTokens > MAX_OUTPUT_TOKENS_LIMIT
    ) {
      throw new RangeError(
        `maxOutputTokens must be an integer from 1 to ${MAX_OUTPUT_TOKENS_LIMIT}, got ${maxOutputTokens}`,
      );
    }
    this.#maxOutputTokens = maxOutputTokens;
    this.#cache =
      options.schemaCache === null
        ? undefined
        : (options.schemaCache ?? new McpSchemaCache({ logger }));
    this.#statusListeners = new Listeners((error, status) =>
      logger.error(`An MCP status listener threw: ${messageOf(error)}`, { server: status.name }),
    );
    this.#toolsListeners = new Listeners((error, event) =>
      logger.error(`An MCP tools-changed listener threw: ${messageOf(error)}`, {
        server: event.server,
      }),
    );
  }

  /**
   * Connects every server at once (never one after another) and resolves with their statuses as
   * soon as each server has a tool list or a failure:
   * - a server whose config has a cached schema is usable at once: its status is `connecting`,
   *   `tools()` offers its cached tools, and it connects in the background (a call made meanwhile
   *   waits for the connection);
   * - the others are awaited until connected or failed (at most their connect_timeout).
   * So a warm start never waits for the slowest server. A server whose choice says
   * `enabled: false` is registered as `disabled` (a status event says so) and not started.
   * A server's failure is in its status, not thrown. Throws only for a caller's mistake: a name
   * that is already registered (`duplicate_server`; disconnect it first) — checked before
   * anything starts.
   */
  async connectAll(
    configs: readonly McpServerConfig[],
    source: McpServerSource,
  ): Promise<McpServerStatus[]> {
    this.#checkNames(configs, source);
    const entries = configs.map((config) => this.#add(config, source));
    for (const entry of entries) {
      if (entry.client === undefined) this.#emitStatus(entry);
    }
    await Promise.all(
      entries.map((entry) =>
        entry.client === undefined ? undefined : this.#start(entry, entry.client),
      ),
    );
    return entries.map((entry) => this.#status(entry));
  }

  /**
   * Gives a registered server a config with the same connection (the same `fingerprint`: a
   * different one is reconfigure()) and another choice, `defer` or
   * `max_output_tokens`, which take effect without reconnecting anything: turned off, it is closed
   * (its process tree reaped) and offers none of its tools; turned on, it starts as connectAll
   * starts it; a new include/exclude list changes which of its tools are offered, and a tools-changed
   * event (`choice`) says how; a new `defer` is no status and no tools change, so whoever offers
   * the tools reads it from configOf() after this resolves; the cap holds from its next call.
   * Resolves with its status once that is done (a server turned on connected or failed, or
   * offering its cached tools). `unknown_server` for a name that is not registered.
   */
  async update(config: McpServerConfig): Promise<McpServerStatus> {
    const entry = this.#entries.get(config.name);
    if (entry === undefined) throw this.#unknown(config.name);
    const before = offeredBy(entry);
    const { client, offer } = entry;
    entry.config = config;
    const { enabled } = config.choice;
    if (client !== undefined && !enabled) {
      entry.client = undefined;
      entry.offer = undefined;
      entry.connected = false;
      this.#emitStatus(entry);
      this.#announce(entry, before, [], 'choice');
      await client.close();
    } else if (client === undefined && enabled) {
      await this.#start(entry, this.#attach(entry));
      // Its first list is a change too here: the model was offered none of its tools before.
      if (this.#entries.get(config.name) === entry) {
        this.#announce(entry, before, offeredBy(entry), 'choice');
      }
    } else {
      if (client !== undefined && offer !== undefined) {
        entry.offer = this.#offer(entry, client, offer.schema);
      }
      this.#emitStatus(entry);
      this.#announce(entry, before, offeredBy(entry), 'choice');
    }
    return this.#status(entry);
  }

  /**
   * Gives a registered server a config with another connection (another `fingerprint`: a new
   * command, env, url, ...): its client is closed (process tree reaped, cached schema dropped)
   * and a new one started with the new config, as connectAll starts one. The server stays
   * registered throughout, so its tools stay offered while it reconnects (a call waits for the
   * new connection, as on any connect) and the tool objects a host holds call the new client; a
   * tools-changed event (`connect`) says what the new connection's list changed, if anything.
   * Resolves with its status as connectAll would. `unknown_server` for a name that is not
   * registered.
   */
  async reconfigure(config: McpServerConfig): Promise<McpServerStatus> {
    const entry = this.#entries.get(config.name);
    if (entry === undefined) throw this.#unknown(config.name);
    const { client: old, config: previous } = entry;
    entry.config = config;
    entry.connected = false;
    // Before the old client closes, so its last states are not heard and the status says
    // `connecting` (with the tools it offered) rather than disconnected for that moment.
    const client = config.choice.enabled ? this.#attach(entry) : undefined;
    entry.client = client;
    client?.willConnect();
    if (client === undefined) entry.offer = undefined;
    this.#emitStatus(entry);
    const replacing = (async () => {
      await Promise.all([old?.close(), this.#cache?.invalidate(previous)]);
      if (
        client !== undefined &&
        this.#entries.get(config.name) === entry &&
        entry.client === client
      ) {
        await this.#start(entry, client);
      }
    })();
    entry.replacing = replacing;
    try {
      await replacing;
    } finally {
      if (entry.replacing === replacing) entry.replacing = undefined;
    }
    return this.#status(entry);
  }

  /**
   * Forgets the server's cached schema (a reconnect is how a user says "ask it again") and has its
   * client start over (McpClient.reconnect: requests in flight finish, then a new connection; on
   * failure the watchdog's series). Until it answers, `tools()` offers nothing for it. Resolves
   * with its status once it is connected or has given up. `unknown_server` for a name that is not
   * registered.
   */
  async reconnect(name: string): Promise<McpServerStatus> {
    const entry = this.#entries.get(name);
    if (entry === undefined) throw this.#unknown(name);
    const { client } = entry;
    if (client === undefined) throw this.#disabled(name);
    const before = entry.offer;
    entry.offer = undefined;
    await this.#cache?.invalidate(entry.config);
    await client.reconnect().catch((error: unknown) => this.#logFailure(entry, error));
    // Learned from the client's state meanwhile, unless the server was disconnected.
    const current = this.#entries.get(name);
    const after = current === entry ? current.offer : undefined;
    if (before !== undefined && after !== undefined) {
      this.#announce(entry, before.tools, after.tools, 'connect');
    }
    return this.#status(entry);
  }

  /** Every registered server, in the order they were added. */
  statuses(): McpServerStatus[] {
    return [...this.#entries.values()].map((entry) => this.#status(entry));
  }

  /** The config a server runs with now; undefined when no server of that name is registered. */
  configOf(name: string): McpServerConfig | undefined {
    return this.#entries.get(name)?.config;
  }

  /**
   * The tools of every server a call can reach now or soon (see offersTools): connected, idle,
   * reconnecting, and connecting with its tools from the cache; as the model will see them. A
   * snapshot: see McpToolsChangedEvent for when it changes.
   */
  tools(): McpEpochTool[] {
    return [...this.#entries.values()].flatMap(offeredBy);
  }

  /**
   * The part of tools() that is server `name`'s. What follows one server's status does not walk
   * every server: with thousands configured, that made a start quadratic.
   */
  toolsOf(name: string): readonly McpEpochTool[] {
    const entry = this.#entries.get(name);
    return entry === undefined ? [] : offeredBy(entry);
  }

  /**
   * Server `name`'s tools the user turned off (include_tools / exclude_tools), known when
   * toolsOf would offer its others: what turning them back on would add, and what they would cost.
   * Not callable through the model: tools() never offers them.
   */
  toolsOffOf(name: string): readonly McpEpochTool[] {
    const entry = this.#entries.get(name);
    if (entry?.offer === undefined || !offersState(entry)) return [];
    const offered = new Set(entry.offer.offered);
    return entry.offer.tools.filter((tool) => !offered.has(tool));
  }

  /**
   * The prompts of every connected server that offers prompts, asked in parallel. A server whose
   * prompts/list fails is left out and logged; the others still answer.
   */
  async listPrompts(signal?: AbortSignal): Promise<McpServerPrompt[]> {
    const connected = [...this.#entries.values()].flatMap(({ config, client }) =>
      client?.state.kind === 'connected' ? [{ config, client }] : [],
    );
    const lists = await Promise.all(
      connected.map(async ({ config, client }): Promise<McpServerPrompt[]> => {
        try {
          return this.#named(config.name, await client.listPrompts(signal));
        } catch (error) {
          this.#logger.warn(messageOf(error), { server: config.name });
          return [];
        }
      }),
    );
    return lists.flat();
  }

  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#ask({ server, method: 'prompts/get' }, signal, (client) =>
      client.getPrompt(name, args, signal),
    );
  }

  /** One server's prompts (every page), each with its name; empty when it declared none. */
  promptsOf(server: string, signal?: AbortSignal): Promise<McpServerPrompt[]> {
    return this.#ask({ server, method: 'prompts/list' }, signal, async (client) =>
      this.#named(server, await client.listPrompts(signal)),
    );
  }

  /** Prompts with their `mcp__<server>__<prompt>` names, held to the tool names' length. */
  #named(server: string, prompts: readonly Prompt[]): McpServerPrompt[] {
    const names = assignToolNames({
      server,
      tools: prompts.map(({ name }) => name),
      reserved: [],
      nameOptions: { maxLength: this.#toolNameMaxLength },
    });
    return prompts.map((prompt, i) => ({ server, name: names[i] as string, prompt }));
  }

  /** One server's resources (every page); empty when it declared none. */
  resourcesOf(server: string, signal?: AbortSignal): Promise<Resource[]> {
    return this.#ask({ server, method: 'resources/list' }, signal, (client) =>
      client.listResources(signal),
    );
  }

  /** One server's resource templates (every page); empty when it declared no resources. */
  resourceTemplatesOf(server: string, signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return this.#ask({ server, method: 'resources/templates/list' }, signal, (client) =>
      client.listResourceTemplates(signal),
    );
  }

  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#ask({ server, method: 'resources/read' }, signal, (client) =>
      client.readResource(uri, signal),
    );
  }

  /**
   * Closes one server, reaps its process tree and drops its cached schema (memory and disk); the
   * others are untouched. Its last status event is `disconnected`, after which it is no longer
   * registered. A name that is not registered is a no-op.
   */
  disconnect(name: string): Promise<void> {
    return this.#remove(name, { keepCache: false });
  }

  /**
   * Disconnects every server like disconnect(), but keeps their cached schemas: this is how a
   * process ends, and the next start is fast because of them. Resolves once the cache's writes in
   * flight are on disk too, so a process may exit right after.
   */
  async disconnectAll(): Promise<void> {
    await Promise.all(
      [...this.#entries.keys()].map((name) => this.#remove(name, { keepCache: true })),
    );
    await this.#cache?.settled();
  }

  /**
   * Tells every connected server that the roots (the `roots` option) changed: a host whose
   * `roots` function now gives other directories calls this. Resolves once each was told.
   */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(
      [...this.#entries.values()].map((entry) => entry.client?.notifyRootsChanged()),
    );
  }

  /**
   * Calls `listener` with a server's status whenever it differs from the last one given for that
   * server (field by field); returns the unsubscribe function.
   */
  onStatus(listener: McpStatusListener): () => void {
    return this.#statusListeners.add(listener);
  }

  /**
   * Calls `listener` whenever a server's tools differ from the ones `tools()` offered for it
   * before; returns the unsubscribe function. A server's first list (no cache) is not a change:
   * its `connected` status announces it.
   */
  onToolsChanged(listener: McpToolsChangedListener): () => void {
    return this.#toolsListeners.add(listener);
  }

  #checkNames(configs: readonly McpServerConfig[], source: McpServerSource): void {
    const seen = new Set<string>();
    for (const { name } of configs) {
      const existing = this.#entries.get(name);
      if (existing !== undefined || seen.has(name)) {
        const owner = existing === undefined ? 'this same call' : `a ${existing.source} server`;
        throw new McpError(
          'duplicate_server',
          `MCP server "${name}" (${source}) cannot be added: the name is already used by ${owner}. Disconnect that one first, or rename this one.`,
          { server: name },
        );
      }
      seen.add(name);
    }
  }

  #add(config: McpServerConfig, source: McpServerSource): Entry {
    const entry: Entry = {
      config,
      source,
      client: undefined,
      offer: undefined,
      connected: false,
      lastStatus: undefined,
      replacing: undefined,
    };
    this.#entries.set(config.name, entry);
    if (config.choice.enabled) this.#attach(entry);
    return entry;
  }

  /** Gives an enabled server its client, not started yet. */
  #attach(entry: Entry): McpClient {
    const { config } = entry;
    const client = new McpClient({ ...this.#connection, config });
    entry.client = client;
    client.onStateChange((state) => {
      // A server being disconnected reports its own last status; a removed one, or a client
      // closed by turning the server off, reports nothing.
      if (this.#entries.get(config.name) !== entry || entry.client !== client) return;
      const change = state.kind === 'connected' ? this.#learn(entry, client, state) : undefined;
      entry.connected = state.kind === 'connected';
      this.#emitStatus(entry);
      if (change !== undefined) this.#announce(entry, change.before, change.after, change.reason);
    });
    return client;
  }

  /**
   * Offers the server's cached tools, if any, and connects it: resolves at once with a cache
   * (the connect goes on in the background), else when it is connected or failed. The client
   * says `connecting` (a status event) as connect() is called, before the SDK has loaded: a host
   * registers the cached tools on that event, so they never wait for the connection's code.
   */
  async #start(entry: Entry, client: McpClient): Promise<void> {
    // `connecting` from now, though its first status event waits for the cached tools (when
    // reconfigure() began the connect already, its status said since when).
    client.willConnect();
    const schema = await this.#cache?.get(entry.config);
    // Disconnected or turned off meanwhile: its client is closed, and a connect would start it again.
    if (this.#entries.get(entry.config.name) !== entry || entry.client !== client) return;
    client.remember(schema);
    // A reconfigured server offers what it offered until its new connection (or cache) says otherwise.
    if (schema !== undefined) {
      const before = entry.offer;
      entry.offer = this.#offer(entry, client, schema);
      if (before !== undefined) this.#announce(entry, before.tools, entry.offer.tools, 'connect');
    }
    const connection = this.#connect(entry, client);
    if (schema === undefined) await connection;
  }

  async #remove(name: string, how: { readonly keepCache: boolean }): Promise<void> {
    const entry = this.#entries.get(name);
    if (entry === undefined) return;
    this.#entries.delete(name);
    await Promise.all([
      entry.client?.close(),
      how.keepCache ? undefined : this.#cache?.invalidate(entry.config),
    ]);
    this.#statusListeners.emit(
      serverStatus(entry.config, entry.source, { kind: 'disconnected' }, { offered: 0, off: 0 }),
    );
  }

  /** Resolves when the server is connected or failed; a failure is its status (and a log line). */
  #connect(entry: Entry, client: McpClient): Promise<void> {
    return client.connect().catch((error: unknown) => this.#logFailure(entry, error));
  }

  #logFailure(entry: Entry, error: unknown): void {
    // Messages from the client are already free of secrets.
    this.#logger.warn(messageOf(error), { server: entry.config.name, source: entry.source });
  }

  /**
   * The server answered with its live schema: offer it from now on and cache it. Returns what to
   * announce when it replaced a different one.
   */
  #learn(
    entry: Entry,
    client: McpClient,
    state: Extract<McpConnectionState, { kind: 'connected' }>,
  ):
    | {
        before: readonly McpEpochTool[];
        after: readonly McpEpochTool[];
        reason: McpToolsChangedEvent['reason'];
      }
    | undefined {
    const before = entry.offer;
    const { memory } = client;
    const schema: McpServerSchema = {
      tools: state.tools,
      resources: state.resources,
      prompts: state.prompts,
      ...(memory === undefined ? {} : { memory }),
    };
    const same = before !== undefined && before.config === entry.config;
    if (same && isDeepStrictEqual(before.schema, schema)) return undefined;
    void this.#cache?.set(entry.config, schema);
    // What the connection learned may be new while the tools are not: nothing to announce. Tools
    // made for another config (before a reconfigure) are made again: its choice may differ.
    if (same && sameTools(before.schema, schema)) {
      entry.offer = { ...before, schema };
      return undefined;
    }
    const after = this.#offer(entry, client, schema);
    entry.offer = after;
    if (before === undefined) return undefined;
    return {
      before: before.tools,
      after: after.tools,
      reason: entry.connected ? 'list_changed' : 'connect',
    };
  }

  #announce(
    entry: Entry,
    before: readonly McpEpochTool[],
    after: readonly McpEpochTool[],
    reason: McpToolsChangedEvent['reason'],
  ): void {
    const diff = diffTools(before, after);
    if (isEmptyDiff(diff)) return;
    this.#toolsListeners.emit({ server: entry.config.name, source: entry.source, reason, ...diff });
  }

  /**
   * For an enabled server: its tools call whatever client the server of that name has at the
   * call (see #liveBackend), so a tool object a host holds outlives a reconnect or a new config.
   */
  #offer(entry: Entry, client: McpClient, schema: McpServerSchema): Offer {
    const { config, source } = entry;
    const { name } = config;
    const live = (): Entry | undefined => this.#entries.get(name);
    const tools = toEpochTools({
      server: name,
      source,
      tools: schema.tools,
      resources: schema.resources,
      backend: this.#liveBackend(name),
      cap: {
        // The server's config and secrets at the call: update() and reconfigure() replace them.
        maxTokens: () => (live() ?? entry).config.maxOutputTokens ?? this.#maxOutputTokens,
        dir: this.#toolResultsDir,
        get redact() {
          return (live()?.client ?? client).redactor;
        },
      },
      nameOptions: { maxLength: this.#toolNameMaxLength },
    });
    const offered = tools.filter((tool) => offersTool(config.choice, serverToolName(tool)));
    return { config, schema, tools, offered };
  }

  /**
   * Tells the status listeners the server's status, unless it is the one they were last told: a
   * host acts on every event (re-renders, rebuilds its tool set), so an event means a change.
   */
  #emitStatus(entry: Entry): void {
    const status = this.#status(entry);
    if (isDeepStrictEqual(status, entry.lastStatus)) return;
    entry.lastStatus = status;
    this.#statusListeners.emit(status);
  }

  /** `toolCount` is what tools() offers for it, so list_resources / read_resource are counted. */
  #status(entry: Entry): McpServerStatus {
    const { config, source, client } = entry;
    return client === undefined
      ? serverStatus(config, source, DISABLED, { offered: 0, off: 0 })
      : serverStatus(config, source, client.state, this.#counts(entry));
  }

  #counts(entry: Entry): ToolCounts {
    const { offer } = entry;
    if (offer === undefined || !offersState(entry)) return { offered: 0, off: 0 };
    return { offered: offer.offered.length, off: offer.tools.length - offer.offered.length };
  }

  #disabled(server: string): McpError {
    return new McpError(
      'server_disabled',
      `MCP server "${server}" is turned off ("enabled": false), so it is not started.`,
      { server },
    );
  }

  /**
   * What a server's tools call: the client the server of that name has when the call is made (the
   * one a reconfigure gave it, a call waiting for its connect), never the one the tools were made
   * with. Rejects with a code when the server, or the tool on it, is gone.
   */
  #liveBackend(server: string): McpToolBackend {
    return {
      callTool: (tool, args, signal, onProgress) =>
        this.#ask({ server, method: 'tools/call', tool }, signal, (client, entry) => {
          const schema = entry.offer?.schema;
          if (schema !== undefined && !schema.tools.some(({ name }) => name === tool)) {
            throw new McpError(
              'unknown_tool',
              `MCP server "${server}" no longer offers tool "${tool}" (its tools now: ${schema.tools.map(({ name }) => name).join(', ') || 'none'}).`,
              { server, tool },
            );
          }
          return client.callTool(tool, args, signal, onProgress);
        }),
      listResources: (signal) => this.resourcesOf(server, signal),
      listResourceTemplates: (signal) => this.resourceTemplatesOf(server, signal),
      readResource: (uri, signal) => this.readResource(server, uri, signal),
    };
  }

  /** A request to one server's client; rejects for a server that is unknown or disabled. */
  async #ask<T>(
    target: RequestTarget,
    signal: AbortSignal | undefined,
    request: (client: McpClient, entry: Entry) => Promise<T>,
  ): Promise<T> {
    const { server } = target;
    const replacing = this.#entries.get(server)?.replacing;
    if (replacing !== undefined) await waitUnlessAborted(replacing, signal, target);
    const entry = this.#entries.get(server);
    if (entry === undefined) throw this.#unknown(server);
    if (entry.client === undefined) throw this.#disabled(server);
    return request(entry.client, entry);
  }

  #unknown(server: string): McpError {
    const known = [...this.#entries.keys()].map((name) => `"${name}"`).join(', ') || 'none';
    return new McpError(
      'unknown_server',
      `No MCP server "${server}" is registered (registered: ${known}).`,
      { server },
    );
  }
}

function offeredBy(entry: Entry): readonly McpEpochTool[] {
  return entry.offer !== undefined && offersState(entry) ? entry.offer.offered : [];
}

/** An enabled server in a state whose tools are offered (see offersTools). */
function offersState({ client }: Entry): boolean {
  return client !== undefined && offersTools(client.state);
}

/**
 * Whether a server in this state has its tools offered (when its schema is known). Yes while a call
 * can still reach it: connecting (from the cache; a call waits), idle (a call reconnects) and
 * reconnecting (a call fails at once with a message the model reads, and the watchdog brings the
 * server back within seconds, so a host rebuilding its tool set now should not drop them). No
 * once only a person can bring it back: failed, needsLogin, disconnected.
 */
function offersTools(state: McpConnectionState): boolean {
  switch (state.kind) {
    case 'connecting':
    case 'connected':
    case 'idle':
    case 'reconnecting':
      return true;
    case 'failed':
    case 'needsLogin':
    case 'disconnected':
      return false;
    default:
      return assertNever(state, 'connection state');
  }
}

function sameTools(a: McpServerSchema, b: McpServerSchema): boolean {
  return (
    a.resources === b.resources && a.prompts === b.prompts && isDeepStrictEqual(a.tools, b.tools)
  );
}
