// The Runtime buildRuntime gives: what it read of every source, kept current as the user's mcp.json
// and the project's file are applied again (each edit and applyMcpConfig in turn, never two at
// once), the approvals of what its servers run, and its close.
import { isDeepStrictEqual } from 'node:util';
import {
  type McpLoginResult,
  type McpLogoutResult,
  type McpRegistry,
  type McpServerConfig,
  type McpServerSource,
  type McpServerStatus,
  type McpShownTool,
  type McpStoredLogin,
  sameChoice,
} from '@epoch-agent/plugin-mcp';
import type {
  AddServerInput,
  ChoiceEdit,
  EntryForEditing,
  McpConfigWriteOptions,
} from '../config-edit/index.js';
import type { FoundServer } from '../import/found-server.js';
import type { ImportOptions } from '../import/import-servers.js';
import type { ConfiguredServer } from '../servers/configured-server.js';
import type { McpServersRead } from '../servers/read-servers.js';
import { fromSource, type RuntimeDiagnostic } from '../servers/server-names.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { applyMcpFiles, type McpConfigApplied } from './apply-mcp-config.js';
import type { ServerApprovals } from './approvals.js';
import type { ConnectsInFlight } from './connects-in-flight.js';
import { type McpToolGroupSync, syncMcpToolGroups } from './mcp-tool-groups.js';
import { namedServer } from './named-server.js';
import { rereadFiles } from './reread-files.js';
import {
  approveServer,
  approveTools,
  type RuntimeApprovalParts,
  type RuntimeServerRevoked,
  revokeServer,
} from './runtime-approvals.js';
import type { RuntimeLoginOptions, ServerLogins } from './server-login.js';
import { unknownToolWarnings } from './unknown-tools.js';
import {
  addUserServer,
  importUserServers,
  type RuntimeChoiceSet,
  type RuntimeRemoveOptions,
  type RuntimeServerAdded,
  type RuntimeServerEntryReplaced,
  type RuntimeServerRemoved,
  type RuntimeServersImported,
  removeUserServer,
  replaceUserServerEntry,
  type ServerScope,
  setChoice,
  type UserFile,
  userServerEntry,
} from './user-edits.js';

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
  readonly approvals: ServerApprovals;
  readonly logins: ServerLogins;
}

/** Built by buildRuntime only. */
export class Runtime {
  /** Every connected MCP server: statuses, events (onStatus, onToolsChanged), prompts. */
  readonly mcp: McpRegistry;
  /** Every tool an agent can be given: the host's groups and one `mcp:<server>` group per server. */
  readonly tools: ToolRegistry;
  /** The user's mcp.json (absolute): the file addServer and removeServer edit. */
  readonly configFile: string;
  /**
   * Where the project's `.epoch/mcp.json` was looked for (absolute); undefined when the runtime
   * reads no project file (`projectDir: null`).
   */
  readonly projectDir: string | undefined;
  readonly #connects: (name: string) => boolean;
  readonly #inFlight: ConnectsInFlight;
  readonly #hostBudget: number;
  /** hostCapabilities.namespace: no user server may take its tool prefix. */
  readonly #namespace: string | undefined;
  /** The host's and plugins' servers as their entries say; #fixed is them with the user's overrides. */
  readonly #entries: readonly ConfiguredServer[];
  #fixed: readonly ConfiguredServer[];
  #user: readonly ConfiguredServer[];
  #project: readonly ConfiguredServer[];
  /** The project's file that applies, as last looked for (each apply looks again). */
  #projectFile: string | undefined;
  readonly #diagnostics: Record<McpServerSource, readonly RuntimeDiagnostic[]>;
  readonly #groups: McpToolGroupSync;
  readonly #userFile: UserFile;
  readonly #approvals: ServerApprovals;
  /** Servers approved here that connectOnly left out: approving one is asking for it to run. */
  readonly #approvedHere = new Set<string>();
  readonly #approvalParts: RuntimeApprovalParts;
  readonly #logins: ServerLogins;
  /** Edits and applyMcpConfig calls run one after another: two at once would both connect a server. */
  #applying: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | undefined;

  constructor(parts: RuntimeParts) {
    this.mcp = parts.mcp;
    this.tools = parts.tools;
    this.configFile = parts.read.configFile;
    this.projectDir = parts.read.projectDir;
    this.#projectFile = parts.read.projectFile;
    this.#connects = parts.connects;
    this.#approvals = parts.approvals;
    this.#logins = parts.logins;
    this.#inFlight = parts.inFlight;
    this.#hostBudget = parts.hostBudget;
    this.#namespace = parts.hostNamespace;
    this.#entries = parts.read.entries;
    const by: Record<McpServerSource, ConfiguredServer[]> = {
      host: [],
      plugin: [],
      user: [],
      project: [],
    };
    for (const server of parts.read.servers) by[server.origin.source].push(server);
    this.#fixed = [...by.host, ...by.plugin];
    this.#user = by.user;
    this.#project = by.project;
    this.#diagnostics = { ...parts.read.diagnostics };
    this.#groups = syncMcpToolGroups(this.mcp, this.tools);
    this.#userFile = {
      path: this.configFile,
      write: parts.configWrite,
      namespace: this.#namespace,
      projectDir: this.projectDir,
      fixed: () => this.#fixed,
      user: () => this.#user,
      named: (name) => this.#named(name),
      server: (name) => this.server(name),
      apply: (approved) => this.#apply(approved),
      status: (name) => this.mcp.statuses().find((status) => status.name === name),
    };
    this.#approvalParts = {
      mcp: this.mcp,
      approvals: this.#approvals,
      inFlight: this.#inFlight,
      approvedHere: this.#approvedHere,
      named: (name) => this.#named(name),
      connects: (name) => this.connects(name),
    };
  }

  /**
   * Whether this runtime starts the server of that name now: one of connectOnly's (or any), and
   * the runtime is not closing.
   */
  connects(name: string): boolean {
    return this.#closing === undefined && (this.#connects(name) || this.#approvedHere.has(name));
  }

  /** The project's `.epoch/mcp.json` that applies (absolute); undefined when there is none. */
  get projectFile(): string | undefined {
    return this.#projectFile;
  }

  /**
   * Every server the runtime knows, connected or not, with where its configuration lives: host's,
   * then plugins', then the user's, then the project's (as the files were last read).
   */
  servers(): ConfiguredServer[] {
    return [...this.#fixed, ...this.#user, ...this.#project];
  }

  /** The server of that name, connected or not. */
  server(name: string): ConfiguredServer | undefined {
    return this.servers().find(({ config }) => config.name === name);
  }

  /**
   * What loading the servers found, host's first, then plugins', the user file's and the project
   * file's (as last read: applyMcpConfig replaces them); then, for the servers connected now,
   * each name in an include_tools / exclude_tools that none of their tools has. Each says its
   * source, file, field path and what to do.
   */
  diagnostics(): RuntimeDiagnostic[] {
    return [
      ...this.#diagnostics.host,
      ...this.#diagnostics.plugin,
      ...this.#diagnostics.user,
      ...this.#diagnostics.project,
      ...unknownToolWarnings(this.mcp),
    ];
  }

  /**
   * Re-reads the user's mcp.json and the project's file and applies them to their servers only
   * (see apply-mcp-config.ts): the summary says what was added, removed, reconnected and left
   * alone (the project's under `project`).
   */
  applyMcpConfig(): Promise<McpConfigApplied> {
    return this.#serialized(() => this.#apply());
  }

  /**
   * Adds a server to the user's mcp.json (or, with scope `project`, to the project's
   * `.epoch/mcp.json`, created in projectDir when none applies) as a text edit (see
   * config-edit/), then applies the files: the new server connects (when this runtime connects
   * it: see connectOnly) before this resolves, or is connecting with `connect: 'background'`,
   * and `runtime.mcp.statuses()` has its status. Throws McpConfigWriteError, with nothing
   * written, for a name a host or plugin server already holds, or for the project a user
   * server too (`duplicate_server`), and for every refusal of addServer.
   */
  addServer(
    server: AddServerInput,
    options: { readonly scope?: ServerScope } = {},
  ): Promise<RuntimeServerAdded> {
    return this.#serialized(() => addUserServer(this.#userFile, server, options.scope ?? 'user'));
  }

  /**
   * Imports servers read from other clients' files (findClientServers, readFileAs) into the user's
   * mcp.json (or, with scope `project`, the project's file) in one text edit (see
   * import/import-servers.ts), a host's or plugin's name counting as taken (and for the project a
   * user's); then applies the files, unless `dryRun`. Throws McpConfigWriteError for a file that
   * cannot be edited, with nothing written.
   */
  importServers(
    found: readonly FoundServer[],
    options: Omit<ImportOptions, 'taken' | 'lockWaitMs'> & { readonly scope?: ServerScope } = {},
  ): Promise<RuntimeServersImported> {
    const { scope = 'user', ...rest } = options;
    return this.#serialized(() => importUserServers(this.#userFile, found, rest, scope));
  }

  /**
   * A user server's entry as written in the user's mcp.json (a project server's in the project's
   * file), secrets as placeholders, for editing (see config-edit/). A host or plugin server:
   * RuntimeError `not_user_server`.
   */
  serverEntry(name: string): Promise<EntryForEditing> {
    return userServerEntry(this.#userFile, name);
  }

  /**
   * Replaces a user server's entry in the user's mcp.json (a project server's in the project's
   * file) with `edited` (the text serverEntry gave, edited) as a text edit of that entry only,
   * then applies the files: the server is reconnected when its config changed, and left alone
   * otherwise. Refusals as serverEntry's, and the edit's (McpConfigWriteError), with nothing
   * written. `basedOn`, the `version` serverEntry gave with the text: refused (`changed_since`)
   * when the entry was written otherwise since (by hand, or by another front end).
   */
  replaceServerEntry(
    name: string,
    edited: string,
    options: { readonly basedOn?: string | undefined } = {},
  ): Promise<RuntimeServerEntryReplaced> {
    return this.#serialized(() =>
      replaceUserServerEntry(this.#userFile, name, edited, options.basedOn),
    );
  }

  /**
   * Takes a server out of the user's mcp.json (a project server out of the project's file) as a
   * text edit, then applies the files (the server is disconnected and its process tree reaped).
   * A host or plugin server: RuntimeError `not_user_server`, naming where it comes from. A name the
   * file does not have: McpConfigWriteError `unknown_server`; a `basedOn` (serverEntry's `version`)
   * the entry no longer has: `changed_since` (it changed since it was shown). Nothing is written.
   */
  removeServer(name: string, options: RuntimeRemoveOptions = {}): Promise<RuntimeServerRemoved> {
    return this.#serialized(() => removeUserServer(this.#userFile, name, options.basedOn));
  }

  /**
   * Turns a server, or some of its tools, on or off in the user's mcp.json as a text edit (see
   * config-edit/: only that field or list element changes, and off-then-on gives back the
   * original bytes), then applies the file: the server is stopped or started, or its tools leave
   * or join the offered ones, and nothing else reconnects. A user server is edited in its own
   * entry; a plugin's, the host's or the project's under `overrides` of the user's file, their
   * own entries untouched (the project's file is shared: a choice of yours stays yours). A name no
   * source has: RuntimeError `unknown_server`, nothing written. The edit's refusals are
   * McpConfigWriteError, nothing written either. `shown`: whether the front end showed it on when
   * it was asked; a user server's entry that has what is asked but not what was shown changed
   * since, and is refused (`changed_since`) rather than answered "already so".
   */
  setServerChoice(
    name: string,
    edit: ChoiceEdit,
    options: { readonly shown?: boolean | undefined } = {},
  ): Promise<RuntimeChoiceSet> {
    return this.#serialized(() => setChoice(this.#userFile, name, edit, options.shown));
  }

  /**
   * Approves the server's present launch (records it in the approval store, `$EPOCH_HOME/
   * approvals.json`) and starts it: a server in `needsApproval` connects, one that connectOnly
   * left out is started too (approving it is asking for it). Resolves with its status after the
   * connect, as addServer does (the connect mode respected). RuntimeError `unknown_server` for a
   * name no source has.
   */
  approveServer(name: string): Promise<McpServerStatus> {
    return this.#serialized(() => approveServer(this.#approvalParts, name));
  }

  /**
   * Removes every approval of the server and, when it needs one to run (see
   * RuntimeServerRevoked.needsApproval), stops it: `needsApproval`, no tools, no process.
   * RuntimeError `unknown_server` for a name no source has.
   */
  revokeServer(name: string): Promise<RuntimeServerRevoked> {
    return this.#serialized(() => revokeServer(this.#approvalParts, name));
  }

  /**
   * Approves the server's withheld tools (README, "Pinned tools"): all of them as they are now
   * (`tools` undefined: its current list becomes its pins), or those a person was shown (from
   * `mcp.withheldOf` or a tools-changed event), each only in the definition shown. They are
   * offered from then on, with a tools-changed event (`approval`); resolves with its status.
   * RuntimeError `unknown_server` for a name no source has; McpError `unknown_server` for one this
   * runtime does not run (connectOnly), `tool_not_withheld` for a tool that is not withheld now,
   * `tools_changed` for one the server changed again after it was shown (nothing approved).
   */
  approveTools(name: string, tools?: readonly McpShownTool[]): Promise<McpServerStatus> {
    return this.#serialized(() => approveTools(this.#approvalParts, name, tools));
  }

  /**
   * An interactive OAuth login to a remote server (see plugin-mcp's loginToServer), its connections
   * made as the runtime's (McpError `needs_approval` while its `headers_helper` waits for
   * approval); the tokens stored under `$EPOCH_HOME/oauth`, a connected server then reconnected.
   */
  async login(name: string, options: RuntimeLoginOptions): Promise<McpLoginResult> {
    return this.#logins.login(this.#named(name), options);
  }

  /**
   * Deletes a remote server's stored login and revokes its tokens where the server allows it; a
   * connected server is then reconnected, so that it stops using them and its status says so.
   */
  async logout(name: string): Promise<McpLogoutResult> {
    return this.#logins.logout(this.#named(name));
  }

  /** What may be shown of a remote server's stored login (never a token); undefined when none. */
  storedLogin(name: string): Promise<McpStoredLogin | undefined> {
    return this.#logins.storedLogin(this.#named(name));
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

  /**
   * `approved`: the servers one of epoch's own writers just wrote, having shown what they run:
   * their entries as read now are approved in the same act, before anything starts.
   */
  async #apply(approved: readonly string[] = []): Promise<McpConfigApplied> {
    const options = {
      connects: (name: string) => this.connects(name),
      inFlight: this.#inFlight,
      holds: (source: McpServerSource, configs: readonly McpServerConfig[]) =>
        this.#approvals.holds(source, configs, { atBuild: false }),
    };
    const read = await rereadFiles({
      configFile: this.configFile,
      projectDir: this.projectDir,
      projectFile: this.#projectFile,
      entries: this.#entries,
      fixed: this.#fixed,
      namespace: this.#namespace,
    });
    if (read.unreadable) {
      const { user: applied } = await applyMcpFiles(this.mcp, { user: read.user }, options);
      this.#diagnostics.user = applied.diagnostics;
      return applied;
    }
    await this.#approvals.approveWritten(approved, [
      ['user', read.user.servers],
      ['project', read.project?.servers ?? []],
    ]);
    this.tools.setToolBudget(read.user.toolBudgetTokens ?? this.#hostBudget);
    this.#user = read.userServers;
    this.#project = read.projectServers;
    this.#projectFile = read.projectFile;
    const { user: applied, project: projectApplied } = await applyMcpFiles(
      this.mcp,
      { user: read.user, project: read.project },
      options,
    );
    this.#fixed = read.fixed;
    this.#diagnostics.user = [
      ...applied.diagnostics,
      ...fromSource('user', read.overrideDiagnostics),
    ];
    this.#diagnostics.project = projectApplied?.diagnostics ?? [];
    // The user's overrides of plugins' and the host's servers: applied like a user server's choice.
    const rechosen = this.#fixed.flatMap(({ config }) => {
      const current = this.mcp.configOf(config.name);
      if (current === undefined || isDeepStrictEqual(current, config)) return [];
      const changed = !sameChoice(current.choice, config.choice) || current.defer !== config.defer;
      return [{ config, changed }];
    });
    await Promise.all(rechosen.map(({ config }) => this.#inFlight.run(this.mcp.update(config))));
    const names = rechosen.filter(({ changed }) => changed).map(({ config }) => config.name);
    const choiceChanged = [...names, ...applied.choiceChanged];
    for (const name of [...choiceChanged, ...(projectApplied?.choiceChanged ?? [])]) {
      this.#groups.sync(name);
    }
    return {
      ...applied,
      choiceChanged,
      ...(projectApplied === undefined ? {} : { project: projectApplied }),
    };
  }

  /** The server of that name, of any source; RuntimeError `unknown_server` when none has it. */
  #named(name: string): ConfiguredServer {
    return namedServer(this.servers(), name, this.configFile);
  }
}
