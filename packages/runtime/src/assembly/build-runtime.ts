// buildRuntime: the assembly an agent process runs on, and the one every front end (the `epoch`
// command, the connectors page) runs on too. It reads the MCP servers of the three sources (see
// read-servers.ts), connects them in one McpRegistry with the source set here and nowhere else, and
// keeps their tools, next to the host's own, in one ToolRegistry.

import { isDeepStrictEqual } from 'node:util';
import { silentLogger } from '@epoch-agent/infra';
import {
  loginToServer,
  logoutFromServer,
  type McpLoginOptions,
  type McpLoginResult,
  type McpLogoutResult,
  McpRegistry,
  type McpRegistryOptions,
  type McpServerConfig,
  type McpServerSource,
  type McpServerStatus,
  type McpStatusListener,
  type McpStoredLogin,
  sameChoice,
  serverPrefix,
  storedLoginOf,
} from '@epoch-agent/plugin-mcp';
import { suggest } from '@epoch-agent/plugin-mcp/config';
import { McpConfigWriteError } from '../config-edit/errors.js';
import {
  type AddServerInput,
  type AddServerResult,
  addServer,
  type ChoiceEdit,
  type ChoiceEditResult,
  type EntryForEditing,
  type McpConfigWriteOptions,
  type RemoveServerResult,
  type ReplaceServerEntryResult,
  readServerEntry,
  removeServer,
  replaceServerEntry,
  setServerChoice,
} from '../config-edit/index.js';
import { RuntimeError } from '../errors.js';
import type { FoundServer } from '../import/found-server.js';
import { type ImportOptions, type ImportResult, importServers } from '../import/import-servers.js';
import type { ConfiguredServer } from '../servers/configured-server.js';
import {
  type McpServersRead,
  type ReadMcpServersOptions,
  readMcpServers,
} from '../servers/read-servers.js';
import { fromSource, type RuntimeDiagnostic, takesHostPrefix } from '../servers/server-names.js';
import { applyOverrides } from '../servers/server-overrides.js';
import { configuredUserServers, loadUserServers } from '../servers/user-servers.js';
import { DEFAULT_TOOL_BUDGET_TOKENS } from '../tools/tool-deferral.js';
import { ToolRegistry, type ToolRegistryOptions } from '../tools/tool-registry.js';
import { applyUserMcpConfig, type McpConfigApplied } from './apply-mcp-config.js';
import { type ConnectMode, ConnectsInFlight } from './connects-in-flight.js';
import { type McpToolGroupSync, syncMcpToolGroups } from './mcp-tool-groups.js';
import { unknownToolWarnings } from './unknown-tools.js';

export interface BuildRuntimeOptions
  extends ReadMcpServersOptions,
    Pick<ToolRegistryOptions, 'logger' | 'toolBudgetTokens'> {
  /**
   * How the MCP servers are connected (McpRegistryOptions: toolNameMaxLength, maxOutputTokens,
   * schemaCache, createTransport, reconnectDelaysMs, reap); the logger is the one above.
   */
  readonly registry?: Omit<McpRegistryOptions, 'logger'>;
  /**
   * Connect only the servers of these names, now and when applyMcpConfig finds them added; every
   * other server is still read (its name, origin and diagnostics are known) but never started.
   * For a front end that works on one server. Default: every server.
   */
  readonly connectOnly?: readonly string[];
  /**
   * When buildRuntime, and each edit the runtime applies (addServer, removeServer,
   * setServerChoice, applyMcpConfig), resolve. `wait` (the default): once every server they start
   * has a tool list or a failure status, as McpRegistry.connectAll does, and every server they
   * turn on or off is started or stopped. `background`: as soon as the servers are read (or the
   * file is written and applied), each of them already `connecting`, the connects going on behind
   * and told by status events. For a front end that shows servers as they connect. Either way
   * close() ends the connects still running and waits for them.
   */
  readonly connect?: ConnectMode;
  /**
   * Called once with what was read (every source, the user's overrides applied), before any
   * server starts: for a front end that lays out the servers before their statuses come.
   */
  readonly onRead?: (read: McpServersRead) => void;
  /** Called with every status change from the first connect on, as `runtime.mcp.onStatus`. */
  readonly onStatus?: McpStatusListener;
  /**
   * Aborting it while the servers connect closes every one of them (process trees reaped) and
   * rejects buildRuntime with the signal's reason: how Ctrl-C stops a start.
   */
  readonly signal?: AbortSignal;
  /** Waiting for another writer of the user's mcp.json (addServer, removeServer). */
  readonly configWrite?: McpConfigWriteOptions;
}

/**
 * Validates the host's capabilities (throwing RuntimeError `invalid_host_namespace` /
 * `invalid_host_server_name` before anything starts), reads the plugins' and the user's mcp.json,
 * and connects the servers; resolves when each one has a tool list (live or cached) or a failure
 * status, as McpRegistry.connectAll does, or at once with `connect: 'background'`. A server that
 * fails or a file with mistakes never makes this reject: see `runtime.mcp.statuses()` and
 * `runtime.diagnostics()`.
 */
export async function buildRuntime(options: BuildRuntimeOptions = {}): Promise<Runtime> {
  const { signal } = options;
  signal?.throwIfAborted();
  const read = await readMcpServers(options);
  options.onRead?.(read);
  const logger = options.logger ?? silentLogger;
  const only = options.connectOnly === undefined ? undefined : new Set(options.connectOnly);
  const hostBudget = options.toolBudgetTokens ?? DEFAULT_TOOL_BUDGET_TOKENS;
  const inFlight = new ConnectsInFlight(options.connect ?? 'wait', logger);
  const runtime = new Runtime({
    read,
    mcp: new McpRegistry({ ...options.registry, logger }),
    tools: new ToolRegistry({
      ...(options.registry?.toolNameMaxLength === undefined
        ? {}
        : { toolNameMaxLength: options.registry.toolNameMaxLength }),
      logger,
      toolBudgetTokens: read.toolBudgetTokens ?? hostBudget,
    }),
    hostBudget,
    hostNamespace: options.hostCapabilities?.namespace,
    connects: (name) => only === undefined || only.has(name),
    inFlight,
    configWrite: options.configWrite ?? {},
  });
  if (options.onStatus !== undefined) runtime.mcp.onStatus(options.onStatus);
  const bySource = (source: McpServerSource): McpServerConfig[] =>
    read.servers
      .filter(({ origin, config }) => origin.source === source && runtime.connects(config.name))
      .map(({ config }) => config);
  // Closing ends every connect in flight; each server's connectAll then settles with its status.
  const close = () => void runtime.close();
  signal?.addEventListener('abort', close, { once: true });
  try {
    await inFlight.run(
      Promise.all([
        runtime.mcp.connectAll(bySource('host'), 'host'),
        runtime.mcp.connectAll(bySource('plugin'), 'plugin'),
        runtime.mcp.connectAll(bySource('user'), 'user'),
      ]),
    );
  } finally {
    signal?.removeEventListener('abort', close);
  }
  if (signal?.aborted) {
    await runtime.close();
    signal.throwIfAborted();
  }
  return runtime;
}

interface RuntimeParts {
  readonly read: McpServersRead;
  readonly mcp: McpRegistry;
  readonly tools: ToolRegistry;
  readonly connects: (name: string) => boolean;
  readonly inFlight: ConnectsInFlight;
  readonly configWrite: McpConfigWriteOptions;
  /** The budget when the user's file does not set one. */
  readonly hostBudget: number;
  readonly hostNamespace: string | undefined;
}

/** What Runtime.addServer did: the text edit (see AddServerResult) and what it applied. */
export interface RuntimeServerAdded extends AddServerResult {
  readonly applied: McpConfigApplied;
  /** The new server's status; undefined when this runtime does not start it (connectOnly). */
  readonly status: McpServerStatus | undefined;
}

/** What Runtime.replaceServerEntry did: the text edit and what it applied. */
export interface RuntimeServerEntryReplaced extends ReplaceServerEntryResult {
  readonly applied: McpConfigApplied;
  /** The server's status after it; undefined when this runtime does not start it (connectOnly). */
  readonly status: McpServerStatus | undefined;
}

/** What Runtime.importServers did: each server's outcome, and what it applied (when written). */
export interface RuntimeServersImported extends ImportResult {
  readonly applied: McpConfigApplied | undefined;
}

/** What Runtime.removeServer did: the text edit and what it applied. */
export interface RuntimeServerRemoved extends RemoveServerResult {
  readonly applied: McpConfigApplied;
}

/** What Runtime.setServerChoice did: the text edit and what it applied. */
export interface RuntimeChoiceSet extends ChoiceEditResult {
  readonly applied: McpConfigApplied;
  /** The server's status after it; undefined when this runtime does not start it (connectOnly). */
  readonly status: McpServerStatus | undefined;
}

/** The login options a front end gives; the server's config and the token store are the runtime's. */
export type RuntimeLoginOptions = Omit<McpLoginOptions, 'config' | 'store'>;

/** Built by buildRuntime only. */
export class Runtime {
  /** Every connected MCP server: statuses, events (onStatus, onToolsChanged), prompts. */
  readonly mcp: McpRegistry;
  /** Every tool an agent can be given: the host's groups and one `mcp:<server>` group per server. */
  readonly tools: ToolRegistry;
  /** The user's mcp.json (absolute): the file addServer and removeServer edit. */
  readonly configFile: string;
  readonly #connects: (name: string) => boolean;
  readonly #inFlight: ConnectsInFlight;
  readonly #configWrite: McpConfigWriteOptions;
  readonly #hostBudget: number;
  /** hostCapabilities.namespace: no user server may take its tool prefix. */
  readonly #namespace: string | undefined;
  /** The host's and plugins' servers as their entries say; #fixed is them with the user's overrides. */
  readonly #entries: readonly ConfiguredServer[];
  #fixed: readonly ConfiguredServer[];
  #user: readonly ConfiguredServer[];
  readonly #diagnostics: Record<McpServerSource, readonly RuntimeDiagnostic[]>;
  readonly #groups: McpToolGroupSync;
  /** Edits and applyMcpConfig calls run one after another: two at once would both connect a server. */
  #applying: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | undefined;

  constructor(parts: RuntimeParts) {
    this.mcp = parts.mcp;
    this.tools = parts.tools;
    this.configFile = parts.read.configFile;
    this.#connects = parts.connects;
    this.#inFlight = parts.inFlight;
    this.#configWrite = parts.configWrite;
    this.#hostBudget = parts.hostBudget;
    this.#namespace = parts.hostNamespace;
    this.#entries = parts.read.entries;
    this.#fixed = parts.read.servers.filter(({ origin }) => origin.source !== 'user');
    this.#user = parts.read.servers.filter(({ origin }) => origin.source === 'user');
    this.#diagnostics = { ...parts.read.diagnostics };
    this.#groups = syncMcpToolGroups(this.mcp, this.tools);
  }

  /**
   * Whether this runtime starts the server of that name now: one of connectOnly's (or any), and
   * the runtime is not closing.
   */
  connects(name: string): boolean {
    return this.#closing === undefined && this.#connects(name);
  }

  /**
   * Every server the runtime knows, connected or not, with where its configuration lives: host's,
   * then plugins', then the user's (as the file was last read).
   */
  servers(): ConfiguredServer[] {
    return [...this.#fixed, ...this.#user];
  }

  /** The server of that name, connected or not. */
  server(name: string): ConfiguredServer | undefined {
    return this.servers().find(({ config }) => config.name === name);
  }

  /**
   * What loading the servers found, host's first, then plugins', then the user file's (as last
   * read: applyMcpConfig replaces them); then, for the servers connected now, each name in an
   * include_tools / exclude_tools that none of their tools has. Each says its source, file, field
   * path and what to do.
   */
  diagnostics(): RuntimeDiagnostic[] {
    return [
      ...this.#diagnostics.host,
      ...this.#diagnostics.plugin,
      ...this.#diagnostics.user,
      ...unknownToolWarnings(this.mcp),
    ];
  }

  /**
   * Re-reads the user's mcp.json and applies it to the user's servers only (see
   * apply-mcp-config.ts): the summary says what was added, removed, reconnected and left alone.
   */
  applyMcpConfig(): Promise<McpConfigApplied> {
    return this.#serialized(() => this.#apply());
  }

  /**
   * Adds a server to the user's mcp.json as a text edit (see mcp-config-write.ts), then applies
   * the file: the new server connects (when this runtime connects it: see connectOnly) before
   * this resolves, or is connecting with `connect: 'background'`, and `runtime.mcp.statuses()`
   * has its status. Throws McpConfigWriteError, with
   * nothing written, for a name a host or plugin server already holds (`duplicate_server`) and for
   * every refusal of addServer.
   */
  addServer(server: AddServerInput): Promise<RuntimeServerAdded> {
    return this.#serialized(async () => {
      // The same name but for case counts as taken: two near-identical tool prefixes for the model.
      const folded = server.name.toLowerCase();
      const holder = this.#fixed.find(({ config }) => config.name.toLowerCase() === folded);
      if (holder !== undefined) {
        const held = holder.config.name;
        throw new McpConfigWriteError(
          'duplicate_server',
          held === server.name
            ? `server "${server.name}" was not added to ${this.configFile}: a server of ${describeOrigin(holder)} already has that name and keeps it; choose another name.`
            : `server "${server.name}" was not added to ${this.configFile}: server "${held}" of ${describeOrigin(holder)} has the same name but for case, and the model would see two near-identical tool prefixes; choose another name.`,
          { file: this.configFile, server: server.name },
        );
      }
      if (takesHostPrefix(server.name, this.#namespace)) {
        throw new McpConfigWriteError(
          'duplicate_server',
          `server "${server.name}" was not added to ${this.configFile}: its tools would be named "${serverPrefix(server.name)}…", under "${serverPrefix(this.#namespace ?? '')}", the prefix reserved for the servers of the application that embeds epoch (namespace "${this.#namespace}"); choose another name.`,
          { file: this.configFile, server: server.name },
        );
      }
      const written = await addServer(this.configFile, server, this.#configWrite);
      const applied = await this.#apply();
      const status = this.mcp.statuses().find(({ name }) => name === server.name);
      return { ...written, applied, status };
    });
  }

  /**
   * Imports servers read from other clients' files (findClientServers, readFileAs) into the user's
   * mcp.json in one text edit (see import/import-servers.ts), a host's or plugin's name counting
   * as taken; then applies the file, unless `dryRun`. Throws McpConfigWriteError for a file that
   * cannot be edited, with nothing written.
   */
  importServers(
    found: readonly FoundServer[],
    options: Omit<ImportOptions, 'taken' | 'lockWaitMs'> = {},
  ): Promise<RuntimeServersImported> {
    return this.#serialized(async () => {
      const taken = this.#fixed.map(({ config }) => config.name);
      const result = await importServers(this.configFile, found, {
        ...options,
        taken,
        ...(this.#configWrite.lockWaitMs === undefined
          ? {}
          : { lockWaitMs: this.#configWrite.lockWaitMs }),
      });
      return { ...result, applied: result.written ? await this.#apply() : undefined };
    });
  }

  /**
   * A user server's entry as written in the user's mcp.json, secrets as placeholders, for editing
   * (see mcp-config-write.ts). A host or plugin server: RuntimeError `not_user_server`.
   */
  async serverEntry(name: string): Promise<EntryForEditing> {
    this.#mustBeUsers(name, 'edited');
    return readServerEntry(this.configFile, name);
  }

  /**
   * Replaces a user server's entry in the user's mcp.json with `edited` (the text serverEntry gave,
   * edited) as a text edit of that entry only, then applies the file: the server is reconnected
   * when its config changed, and left alone otherwise. Refusals as serverEntry's, and the edit's
   * (McpConfigWriteError), with nothing written.
   */
  replaceServerEntry(name: string, edited: string): Promise<RuntimeServerEntryReplaced> {
    return this.#serialized(async () => {
      this.#mustBeUsers(name, 'edited');
      const written = await replaceServerEntry(this.configFile, name, edited, this.#configWrite);
      const applied = await this.#apply();
      const status = this.mcp.statuses().find((s) => s.name === name);
      return { ...written, applied, status };
    });
  }

  /**
   * Takes a server out of the user's mcp.json as a text edit, then applies the file (the server is
   * disconnected and its process tree reaped). A host or plugin server is not in that file:
   * RuntimeError `not_user_server`, naming where it comes from. A name the file does not have:
   * McpConfigWriteError `unknown_server`. Nothing is written on either.
   */
  removeServer(name: string): Promise<RuntimeServerRemoved> {
    return this.#serialized(async () => {
      this.#mustBeUsers(name, 'removed');
      const written = await removeServer(this.configFile, name, this.#configWrite);
      return { ...written, applied: await this.#apply() };
    });
  }

  /**
   * Turns a server, or some of its tools, on or off in the user's mcp.json as a text edit (see
   * mcp-config-write.ts: only that field or list element changes, and off-then-on gives back the
   * original bytes), then applies the file: the server is stopped or started, or its tools leave
   * or join the offered ones, and nothing else reconnects. A user server is edited in its own
   * entry; a plugin's or the host's under `overrides`, their own entries untouched. A name no
   * source has: RuntimeError `unknown_server`, nothing written. The edit's refusals are
   * McpConfigWriteError, nothing written either.
   */
  setServerChoice(name: string, edit: ChoiceEdit): Promise<RuntimeChoiceSet> {
    return this.#serialized(async () => {
      const server = this.server(name);
      if (server === undefined) throw this.#unknownServer(name);
      const kind = server.origin.source === 'user' ? 'user' : 'override';
      const written = await setServerChoice(
        this.configFile,
        { kind, name },
        edit,
        this.#configWrite,
      );
      const applied = await this.#apply();
      const status = this.mcp.statuses().find((s) => s.name === name);
      return { ...written, applied, status };
    });
  }

  /**
   * An interactive OAuth login to a remote server (see plugin-mcp's loginToServer), the tokens
   * stored under `$EPOCH_HOME/oauth`; a connected server is then reconnected with them.
   */
  async login(name: string, options: RuntimeLoginOptions): Promise<McpLoginResult> {
    const result = await loginToServer({ ...options, config: this.#remote(name, 'login') });
    // A disabled server is not started: its new tokens are used when it is turned on.
    if (this.mcp.configOf(name)?.choice.enabled === true) await this.mcp.reconnect(name);
    return result;
  }

  /**
   * Deletes a remote server's stored login and revokes its tokens where the server allows it; a
   * connected server is then reconnected, so that it stops using them and its status says so.
   */
  async logout(name: string): Promise<McpLogoutResult> {
    const result = await logoutFromServer({ config: this.#remote(name, 'logout') });
    const state = this.mcp.statuses().find((status) => status.name === name)?.state;
    if (result.removed > 0 && state === 'connected') await this.mcp.reconnect(name);
    return result;
  }

  /** What may be shown of a remote server's stored login (never a token); undefined when none. */
  storedLogin(name: string): Promise<McpStoredLogin | undefined> {
    return storedLoginOf({ config: this.#remote(name, 'login') });
  }

  /**
   * Disconnects every server (their schema caches stay for the next start) and empties their
   * groups. A second call joins the first: it resolves only when every process tree is reaped.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // First, so connects in flight (an applyMcpConfig's too) end now rather than at their
      // connect_timeout; an apply that goes on after this connects nothing (see connects()).
      await this.mcp.disconnectAll();
      await this.#applying;
      await this.#inFlight.settled();
      this.#groups.stop();
    })();
    return this.#closing;
  }

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#applying.then(work);
    this.#applying = run.catch(() => undefined);
    return run;
  }

  async #apply(): Promise<McpConfigApplied> {
    const taken = new Map(
      this.#fixed.map(({ config, origin }) => [config.name, origin.source] as const),
    );
    const load = await loadUserServers(this.configFile, { taken, namespace: this.#namespace });
    const applied = await applyUserMcpConfig(this.mcp, {
      load,
      connects: (name) => this.connects(name),
      inFlight: this.#inFlight,
    });
    this.#diagnostics.user = applied.diagnostics;
    if (load.unreadable) return applied;
    this.tools.setToolBudget(load.toolBudgetTokens ?? this.#hostBudget);
    this.#user = configuredUserServers(load);
    const overridden = applyOverrides(this.#entries, load);
    this.#fixed = overridden.servers;
    this.#diagnostics.user = [
      ...applied.diagnostics,
      ...fromSource('user', overridden.diagnostics),
    ];
    // The user's overrides of plugins' and the host's servers: applied like a user server's choice.
    const rechosen = overridden.servers.flatMap(({ config }) => {
      const current = this.mcp.configOf(config.name);
      if (current === undefined || isDeepStrictEqual(current, config)) return [];
      const changed = !sameChoice(current.choice, config.choice) || current.defer !== config.defer;
      return [{ config, changed }];
    });
    await Promise.all(rechosen.map(({ config }) => this.#inFlight.run(this.mcp.update(config))));
    const names = rechosen.filter(({ changed }) => changed).map(({ config }) => config.name);
    const choiceChanged = [...names, ...applied.choiceChanged];
    for (const name of choiceChanged) this.#groups.sync(name);
    return { ...applied, choiceChanged };
  }

  /** Refuses a host's or plugin's server: only the user's file is edited. */
  #mustBeUsers(name: string, edit: 'removed' | 'edited'): void {
    const holder = this.#fixed.find(({ config }) => config.name === name);
    if (holder === undefined) return;
    const instead =
      holder.origin.source === 'plugin'
        ? `Uninstall or change that plugin to ${edit === 'removed' ? 'remove' : 'change'} it.`
        : 'The application that embeds epoch decides its servers.';
    throw new RuntimeError(
      'not_user_server',
      `MCP server "${name}" cannot be ${edit} here: it comes from ${describeOrigin(holder)}, not from your ${this.configFile}, which is the only file epoch edits. ${instead}`,
      { server: name, source: holder.origin.source },
    );
  }

  #unknownServer(name: string): RuntimeError {
    const known = this.servers().map(({ config }) => config.name);
    const guess = suggest(name, known);
    return new RuntimeError(
      'unknown_server',
      `there is no MCP server "${name}" (${known.length === 0 ? `${this.configFile} defines none` : guess !== undefined ? `did you mean "${guess}"?` : `the servers are: ${known.join(', ')}`}).`,
      { server: name },
    );
  }

  #remote(name: string, what: 'login' | 'logout'): McpServerConfig {
    const server = this.server(name);
    if (server === undefined) throw this.#unknownServer(name);
    if (server.config.transport === 'stdio') {
      throw new RuntimeError(
        'not_remote_server',
        `MCP server "${name}" is a stdio server: OAuth ${what} is only for remote servers (sse / http, with a "url"). A stdio server gets its credentials from its "env".`,
        { server: name },
      );
    }
    return server.config;
  }
}

/** Where a server comes from, for messages: `plugin "x" (/path/mcp.json)`. */
function describeOrigin({ origin }: ConfiguredServer): string {
  switch (origin.source) {
    case 'host':
      return `the application that embeds epoch (namespace "${origin.namespace}")`;
    case 'plugin':
      return `plugin "${origin.plugin}" (${origin.file})`;
    case 'user':
      return origin.file;
  }
}
