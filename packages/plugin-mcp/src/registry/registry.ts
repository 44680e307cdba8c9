// McpRegistry: MANY servers, each behind its own McpClient. Connects them in parallel, keeps where
// each came from (source), and answers for all of them: statuses, tools, prompts. One server's
// failure is that server's status and never anyone else's problem: nothing here throws because a
// server failed. This is its public face; each method hands the work to the module that owns it.
//
// Startup does not wait for servers whose tools are in the schema cache: they are offered from the
// cache while they connect in the background, and when a server's live list turns out different
// (at connect, or after notifications/tools/list_changed) the cache is replaced and a
// tools-changed event says what changed.
//
// With a pin store (`toolPins`), every list, the cached one too, is checked against the definitions
// pinned for the server: a tool that is new or changed is withheld until approveTools (README,
// "Pinned tools").

import type { ToolProgress, ToolResult } from '@epoch-agent/protocol';
import type {
  GetPromptResult,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import type { McpServerOutput } from '../connection/server-output.js';
import { readTaskRecords } from '../tasks/task-record-list.js';
import type { McpTaskRecord } from '../tasks/task-records.js';
import type { TaskState as McpTaskState } from '../tasks/task-wire.js';
import type { McpEpochTool } from '../tools/epoch-tools.js';
import type { McpSavedResults } from '../tools/saved-results.js';
import { shownProgress, shownResult } from '../tools/shown-result.js';
import type {
  McpApprovalReason,
  McpServerConfig,
  McpServerSource,
  McpServerStatus,
  McpShownTool,
  McpWithheldTool,
} from '../types.js';
import { offeredBy, offersState, statusOf, withheldBy } from './entry-status.js';
import {
  addAll,
  holdServer,
  releaseServer,
  remove,
  removeAll,
  replaceConnection,
  restart,
  updateChoice,
} from './lifecycle.js';
import { pickUpLogins } from './login-pickup.js';
import {
  cancelTaskOf,
  connectedPrompts,
  promptFrom,
  promptsFrom,
  resourceFrom,
  resourcesFrom,
  resourceTemplatesFrom,
  taskFrom,
  taskResultFrom,
} from './routing.js';
import { Servers } from './servers.js';
import { approveTools } from './tool-approval.js';
import type {
  McpApprovalHolds,
  McpRegistryOptions,
  McpServerPrompt,
  McpStatusListener,
  McpToolsChangedListener,
} from './types.js';

export class McpRegistry {
  readonly #servers: Servers;

  constructor(options: McpRegistryOptions = {}) {
    this.#servers = new Servers(options);
    pickUpLogins(this.#servers);
  }

  /**
   * The results this registry's tools cut and saved, by the ids their notes gave the model: what
   * a reader tool (McpRegistryOptions.resultReader) may read, and nothing else.
   */
  get savedResults(): McpSavedResults {
    return this.#servers.savedResults;
  }

  /**
   * Connects every server at once (never one after another) and resolves with their statuses as
   * soon as each server has a tool list or a failure:
   * - a server whose config has a cached schema is usable at once: its status is `connecting`,
   *   `tools()` offers its cached tools, and it connects in the background (a call made meanwhile
   *   waits for the connection);
   * - the others are awaited until connected or failed (at most their connect_timeout).
   * So a warm start never waits for the slowest server. A server whose choice says
   * `enabled: false` is registered as `disabled` (a status event says so) and not started; one
   * that `options.held` names is registered as `needsApproval` and not started either (see hold).
   * A server's failure is in its status, not thrown. Throws only for a caller's mistake: a name
   * that is already registered (`duplicate_server`; disconnect it first) — checked before
   * anything starts.
   */
  connectAll(
    configs: readonly McpServerConfig[],
    source: McpServerSource,
    options: { readonly held?: McpApprovalHolds | undefined } = {},
  ): Promise<McpServerStatus[]> {
    return addAll(this.#servers, configs, source, options.held);
  }

  /**
   * Gives a registered server a config with the same connection (the same `fingerprint`: a
   * different one is reconfigure()) and another choice, `defer` or
   * `max_output_tokens`, which take effect without reconnecting anything: turned off, it is closed
   * (its process tree reaped) and offers none of its tools; turned on, it starts as connectAll
   * starts it; a new include/exclude list changes which of its tools are offered, and a tools-changed
   * event (`choice`) says how; a new `defer` is no status and no tools change, so whoever offers
   * the tools reads it from configOf() after this resolves; the cap holds from its next call; a
   * server not started that is now to start `at_start` is started. Resolves with its status once that is done (a server turned on connected or failed, or
   * offering its cached tools). `unknown_server` for a name that is not registered.
   */
  update(config: McpServerConfig): Promise<McpServerStatus> {
    return updateChoice(this.#servers, config);
  }

  /**
   * Gives a registered server a config with another connection (another `fingerprint`: a new
   * command, env, url, ...): its client is closed (process tree reaped, cached schema dropped)
   * and a new one started with the new config, as connectAll starts one. The server stays
   * registered throughout, so its tools stay offered while it reconnects (a call waits for the
   * new connection, as on any connect) and the tool objects a host holds call the new client; a
   * tools-changed event (`connect`) says what the new connection's list changed, if anything.
   * Resolves with its status as connectAll would. With `options.held`, the new config waits for
   * approval instead (see hold): the old client is closed and no new one started. Without it, a
   * held server is released: the new config is the approved one. `unknown_server` for a name that
   * is not registered.
   */
  reconfigure(
    config: McpServerConfig,
    options: { readonly held?: McpApprovalReason | undefined } = {},
  ): Promise<McpServerStatus> {
    return replaceConnection(this.#servers, config, options.held);
  }

  /**
   * Holds a registered server until a person approves what it would run: its client is closed
   * (process tree reaped) and none is made until release(); its status is `needsApproval` (or
   * `disabled` while it is turned off), it offers no tools, not even cached ones, and a request
   * to it fails with `needs_approval`. The registry keeps no approvals: its caller decides.
   * `unknown_server` for a name that is not registered.
   */
  hold(name: string, reason: McpApprovalReason): Promise<McpServerStatus> {
    return holdServer(this.#servers, name, reason);
  }

  /**
   * Ends a hold: the server starts (when it is enabled) as connectAll starts one, and this
   * resolves as connectAll would. A server that is not held is left as it is. `unknown_server`
   * for a name that is not registered.
   */
  release(name: string): Promise<McpServerStatus> {
    return releaseServer(this.#servers, name);
  }

  /**
   * Forgets the server's cached schema (a reconnect is how a user says "ask it again") and has its
   * client start over (McpClient.reconnect: requests in flight finish, then a new connection; on
   * failure the watchdog's series). Until it answers, `tools()` offers nothing for it. Resolves
   * with its status once it is connected or has given up. `unknown_server` for a name that is not
   * registered.
   */
  reconnect(name: string): Promise<McpServerStatus> {
    return restart(this.#servers, name);
  }

  /** Every registered server, in the order they were added. */
  statuses(): McpServerStatus[] {
    return [...this.#servers.entries.values()].map((entry) => statusOf(entry));
  }

  /** The config a server runs with now; undefined when no server of that name is registered. */
  configOf(name: string): McpServerConfig | undefined {
    return this.#servers.entries.get(name)?.config;
  }

  /**
   * `result`, of a call of a tool of server `name`, as a person may be shown it (the page's "Try",
   * `epoch mcp call`): every secret of the server blanked, as in a saved result. The model's copy
   * is what `execute` gave; this is only for a screen. Unchanged when no such server is registered.
   */
  shownResult(name: string, result: ToolResult): ToolResult {
    const client = this.#servers.entries.get(name)?.client;
    return client === undefined ? result : shownResult(result, client.redactor);
  }

  /**
   * A text server `name` sent (a resource it read, a prompt it made) as a person may be shown it:
   * its secrets blanked, as in shownResult. Unchanged when no such server is registered.
   */
  shownText(name: string, text: string): string {
    const client = this.#servers.entries.get(name)?.client;
    return client === undefined ? text : client.redactor(text);
  }

  /** A progress report of a call of server `name`'s tool as a person may be shown it (shownResult). */
  shownProgress(name: string, progress: ToolProgress): ToolProgress {
    const client = this.#servers.entries.get(name)?.client;
    return client === undefined ? progress : shownProgress(progress, client.redactor);
  }

  /**
   * The tools of every server a call can reach now or soon (see offersTools): connected, idle,
   * reconnecting, and connecting with its tools from the cache; as the model will see them. A
   * snapshot: see McpToolsChangedEvent for when it changes.
   */
  tools(): McpEpochTool[] {
    return [...this.#servers.entries.values()].flatMap(offeredBy);
  }

  /**
   * The part of tools() that is server `name`'s. What follows one server's status does not walk
   * every server: with thousands configured, that made a start quadratic.
   */
  toolsOf(name: string): readonly McpEpochTool[] {
    const entry = this.#servers.entries.get(name);
    return entry === undefined ? [] : offeredBy(entry);
  }

  /**
   * Server `name`'s recent output (its log messages and stderr lines, redacted, bounded), those
   * after `after` (a line's seq) when given; undefined when the registry has no such server.
   */
  outputOf(name: string, after?: number): McpServerOutput | undefined {
    return this.#servers.entries.get(name)?.output.read(after);
  }

  /**
   * Server `name`'s tools the user turned off (include_tools / exclude_tools), known when
   * toolsOf would offer its others: what turning them back on would add, and what they would cost.
   * Not callable through the model: tools() never offers them.
   */
  toolsOffOf(name: string): readonly McpEpochTool[] {
    const entry = this.#servers.entries.get(name);
    if (entry?.offer === undefined || !offersState(entry)) return [];
    const { offered, withheld, tools } = entry.offer;
    const on = new Set(offered);
    const held = new Set(withheld.map(({ name }) => name));
    return tools.filter(
      (tool) => !on.has(tool) && !(tool.target.kind === 'tool' && held.has(tool.target.name)),
    );
  }

  /**
   * Server `name`'s tools that are withheld (README, "Pinned tools"): new, or changed since a person
   * approved its tools, each with its definition before (the pinned one) and after. Never offered,
   * nor callable, until approveTools. Known when toolsOf would offer its others; [] for an unknown
   * name.
   */
  withheldOf(name: string): readonly McpWithheldTool[] {
    const entry = this.#servers.entries.get(name);
    return entry === undefined ? [] : withheldBy(entry);
  }

  /**
   * Approves the server's withheld tools: all of them as they are now (undefined: its current list
   * becomes its pins, and pins of tools it no longer lists are dropped), or those a person was
   * shown (from withheldOf or a tools-changed event), each only in the definition shown. Resolves
   * with its status once they are offered, after a tools-changed event (`approval`); rejects when
   * the pins cannot be written (nothing approved then). McpError `unknown_server`;
   * `tool_not_withheld` for a tool that is not withheld now (its message lists those that are);
   * `tools_changed` for one withheld in another definition than the one shown. Either approves
   * nothing.
   */
  approveTools(name: string, tools?: readonly McpShownTool[]): Promise<McpServerStatus> {
    return approveTools(this.#servers, name, tools);
  }

  /**
   * The prompts of every connected server that offers prompts, asked in parallel. A server whose
   * prompts/list fails is left out and logged; the others still answer.
   */
  listPrompts(signal?: AbortSignal): Promise<McpServerPrompt[]> {
    return connectedPrompts(this.#servers, signal);
  }

  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return promptFrom(this.#servers, server, name, args, signal);
  }

  /** One server's prompts (every page), each with its name; empty when it declared none. */
  promptsOf(server: string, signal?: AbortSignal): Promise<McpServerPrompt[]> {
    return promptsFrom(this.#servers, server, signal);
  }

  /** One server's resources (every page); empty when it declared none. */
  resourcesOf(server: string, signal?: AbortSignal): Promise<Resource[]> {
    return resourcesFrom(this.#servers, server, signal);
  }

  /** One server's resource templates (every page); empty when it declared no resources. */
  resourceTemplatesOf(server: string, signal?: AbortSignal): Promise<ResourceTemplateType[]> {
    return resourceTemplatesFrom(this.#servers, server, signal);
  }

  /** The tasks this machine's processes started, from their records (README "Tasks"). */
  taskRecords(): Promise<McpTaskRecord[]> {
    return readTaskRecords({ logger: this.#servers.logger });
  }

  /** tasks/get of one of a server's tasks. */
  getTask(server: string, taskId: string, signal?: AbortSignal): Promise<McpTaskState> {
    return taskFrom(this.#servers, server, taskId, signal);
  }

  /**
   * A recorded task followed to its result (a finished one's is fetched at once), whole, as
   * `executeUncut` gives a call's: for a person, through `shownResult`.
   */
  taskResult(
    record: Pick<McpTaskRecord, 'server' | 'tool' | 'taskId'>,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolResult> {
    return taskResultFrom(this.#servers, record, signal, onProgress);
  }

  /**
   * tasks/cancel of one of a server's tasks: the task as its server says the cancel left it
   * (`cancelled`, or not yet settled); `task_ended` when it had already ended, `task_gone` when
   * its server no longer knows it (its record is then removed).
   */
  cancelTask(server: string, taskId: string, signal?: AbortSignal): Promise<McpTaskState> {
    return cancelTaskOf(this.#servers, server, taskId, signal);
  }

  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return resourceFrom(this.#servers, server, uri, signal);
  }

  /**
   * Closes one server, reaps its process tree and drops its cached schema (memory and disk); the
   * others are untouched. Its last status event is `disconnected`, after which it is no longer
   * registered. A name that is not registered is a no-op.
   */
  disconnect(name: string): Promise<void> {
    return remove(this.#servers, name, { keepCache: false });
  }

  /**
   * Disconnects every server like disconnect(), but keeps their cached schemas: this is how a
   * process ends, and the next start is fast because of them. Resolves once the cache's writes in
   * flight are on disk too, so a process may exit right after.
   */
  disconnectAll(): Promise<void> {
    return removeAll(this.#servers);
  }

  /**
   * Tells every connected server that the roots (the `roots` option) changed: a host whose
   * `roots` function now gives other directories calls this. Resolves once each was told.
   */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(
      [...this.#servers.entries.values()].map((entry) => entry.client?.notifyRootsChanged()),
    );
  }

  /**
   * Calls `listener` with a server's status whenever it differs from the last one given for that
   * server (field by field); returns the unsubscribe function.
   */
  onStatus(listener: McpStatusListener): () => void {
    return this.#servers.statusListeners.add(listener);
  }

  /**
   * Calls `listener` whenever a server's tools differ from the ones `tools()` offered for it
   * before; returns the unsubscribe function. A server's first list (no cache) is not a change:
   * its `connected` status announces it.
   */
  onToolsChanged(listener: McpToolsChangedListener): () => void {
    return this.#servers.toolsListeners.add(listener);
  }
}
