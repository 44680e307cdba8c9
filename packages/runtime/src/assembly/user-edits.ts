// A runtime's edits of the user's mcp.json and of the project's `.epoch/mcp.json`: first what only
// a runtime can refuse, knowing every source's servers (a name one of them holds, the host's tool
// prefix, a server that is in neither file); then the text edit (config-edit/); then the files
// applied, and what came of it. A new project server may not take a name a user server holds: the
// user's would keep it and the new entry would be left out at once (read-servers.ts). The entries
// an edit writes (add, import, a replaced entry) are approved as they are applied: the front end
// that made the edit showed what they run (README, "Trust").
import { join } from 'node:path';
import { type McpServerSource, type McpServerStatus, serverPrefix } from '@epoch-agent/plugin-mcp';
import {
  type AddServerInput,
  type AddServerResult,
  addServer,
  type ChoiceEdit,
  type ChoiceEditResult,
  type EntryForEditing,
  McpConfigWriteError,
  type McpConfigWriteOptions,
  type RemoveServerOptions,
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
import { PROJECT_CONFIG_PATH, projectConfigFor } from '../servers/project-file.js';
import { takesHostPrefix } from '../servers/server-names.js';
import type { McpConfigApplied } from './apply-mcp-config.js';

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

/** Where a server's choice is written: its own entry (`user`) or the user's `overrides`. */
const CHOSEN_IN: Readonly<Record<McpServerSource, 'user' | 'override'>> = {
  user: 'user',
  project: 'override',
  plugin: 'override',
  host: 'override',
};

/** Which file a new server is written to: the user's mcp.json, or the project's. */
export type ServerScope = 'user' | 'project';

/** What the edits know of the runtime they are made in; each runs in the runtime's queue. */
export interface UserFile {
  /** The user's mcp.json (absolute). */
  readonly path: string;
  readonly write: McpConfigWriteOptions;
  /** hostCapabilities.namespace: no user server may take its tool prefix. */
  readonly namespace: string | undefined;
  /** Where the project's file is looked for; undefined when the runtime reads none. */
  readonly projectDir: string | undefined;
  /** The host's and plugins' servers as the runtime holds them now. */
  fixed(): readonly ConfiguredServer[];
  /** The user file's servers as the runtime holds them now. */
  user(): readonly ConfiguredServer[];
  /** The server of that name, of any source; RuntimeError `unknown_server` when none has it. */
  named(name: string): ConfiguredServer;
  /** The server of that name, of any source; undefined when none has it. */
  server(name: string): ConfiguredServer | undefined;
  /**
   * Reads the files again and applies them, the servers `approved` names (just written by this
   * edit) approved in their form as read, before anything starts.
   */
  apply(approved?: readonly string[]): Promise<McpConfigApplied>;
  /** The server's status now; undefined when this runtime does not start it. */
  status(name: string): McpServerStatus | undefined;
}

export async function addUserServer(
  file: UserFile,
  server: AddServerInput,
  scope: ServerScope,
): Promise<RuntimeServerAdded> {
  const path = await target(file, scope);
  refuseTakenName(file, server.name, path, holders(file, scope));
  const written = await addServer(path, server, file.write);
  const applied = await file.apply([server.name]);
  return { ...written, applied, status: file.status(server.name) };
}

export async function importUserServers(
  file: UserFile,
  found: readonly FoundServer[],
  options: Omit<ImportOptions, 'taken' | 'lockWaitMs'>,
  scope: ServerScope,
): Promise<RuntimeServersImported> {
  const taken = holders(file, scope).map(({ config }) => config.name);
  const result = await importServers(await target(file, scope), found, {
    ...options,
    taken,
    ...(file.write.lockWaitMs === undefined ? {} : { lockWaitMs: file.write.lockWaitMs }),
  });
  const added = result.servers.filter(
    ({ outcome }) => outcome.kind === 'added' || outcome.kind === 'renamed',
  );
  const approved = added.map(({ name }) => name);
  return { ...result, applied: result.written ? await file.apply(approved) : undefined };
}

export async function userServerEntry(file: UserFile, name: string): Promise<EntryForEditing> {
  return readServerEntry(fileOf(file, name, 'edited'), name);
}

export async function replaceUserServerEntry(
  file: UserFile,
  name: string,
  edited: string,
  basedOn: string | undefined,
): Promise<RuntimeServerEntryReplaced> {
  const path = fileOf(file, name, 'edited');
  const written = await replaceServerEntry(path, name, edited, { ...file.write, basedOn });
  // An entry that came back as it was approves nothing new.
  const applied = await file.apply(written.changed ? [name] : []);
  return { ...written, applied, status: file.status(name) };
}

/** Runtime.removeServer's: `basedOn`, the entry's version a front end showed (RemoveServerOptions). */
export type RuntimeRemoveOptions = Pick<RemoveServerOptions, 'basedOn'>;

export async function removeUserServer(
  file: UserFile,
  name: string,
  basedOn: string | undefined,
): Promise<RuntimeServerRemoved> {
  const path = fileOf(file, name, 'removed');
  const written = await removeServer(path, name, { ...file.write, basedOn });
  return { ...written, applied: await file.apply() };
}

/**
 * A user server's choice in its own entry; a plugin's, the host's or the project's under the user's
 * `overrides`: the project's file is everyone's who works on it, a choice is one person's.
 */
export async function setChoice(
  file: UserFile,
  name: string,
  edit: ChoiceEdit,
  shown: boolean | undefined,
): Promise<RuntimeChoiceSet> {
  const kind = CHOSEN_IN[file.named(name).origin.source];
  const written = await setServerChoice(file.path, { kind, name }, edit, { ...file.write, shown });
  const applied = await file.apply();
  return { ...written, applied, status: file.status(name) };
}

/**
 * The file a new server of `scope` goes to: the project's that applies now (looked for again: one
 * may have been made since), or a new one in the directory the runtime looked from. Refused when
 * there is no project there: the runtime reads none, or it runs in the user's home, whose
 * `.epoch/mcp.json` is no project's.
 */
async function target(file: UserFile, scope: ServerScope): Promise<string> {
  switch (scope) {
    case 'user':
      return file.path;
    case 'project': {
      const dir = file.projectDir;
      const path =
        dir === undefined ? undefined : await projectConfigFor(dir, { userFile: file.path });
      if (path !== undefined) return path;
      throw new McpConfigWriteError(
        'unusable_file',
        dir === undefined
          ? 'this epoch reads no project file, so no project server can be added; nothing was written.'
          : `${dir} is not in a project (it is your home, whose .epoch is epoch's own); run the command in the project's directory. Nothing was written.`,
        { file: dir === undefined ? file.path : join(dir, PROJECT_CONFIG_PATH) },
      );
    }
  }
}

/** The servers whose names a new server of `scope` may not take. */
function holders(file: UserFile, scope: ServerScope): readonly ConfiguredServer[] {
  switch (scope) {
    case 'user':
      return file.fixed();
    case 'project':
      return [...file.fixed(), ...file.user()];
  }
}

/** Refuses a new server's name an earlier source's server holds, or the host's prefix would. */
function refuseTakenName(
  file: UserFile,
  name: string,
  path: string,
  taken: readonly ConfiguredServer[],
): void {
  const { namespace } = file;
  // The same name but for case counts as taken: two near-identical tool prefixes for the model.
  const folded = name.toLowerCase();
  const holder = taken.find(({ config }) => config.name.toLowerCase() === folded);
  if (holder !== undefined) {
    const held = holder.config.name;
    throw new McpConfigWriteError(
      'duplicate_server',
      held === name
        ? `server "${name}" was not added to ${path}: a server of ${describeOrigin(holder)} already has that name and keeps it; choose another name.`
        : `server "${name}" was not added to ${path}: server "${held}" of ${describeOrigin(holder)} has the same name but for case, and the model would see two near-identical tool prefixes; choose another name.`,
      { file: path, server: name },
    );
  }
  if (takesHostPrefix(name, namespace)) {
    throw new McpConfigWriteError(
      'duplicate_server',
      `server "${name}" was not added to ${path}: its tools would be named "${serverPrefix(name)}…", under "${serverPrefix(namespace ?? '')}", the prefix reserved for the servers of the application that embeds epoch (namespace "${namespace}"); choose another name.`,
      { file: path, server: name },
    );
  }
}

/**
 * The file that holds server `name`: a project server's is the project's; a name no source has is
 * looked for in the user's (an entry that did not load is still written there). A host's or
 * plugin's server is refused: epoch edits only those two files.
 */
function fileOf(file: UserFile, name: string, edit: 'removed' | 'edited'): string {
  const holder = file.server(name);
  if (holder === undefined) return file.path;
  const { origin } = holder;
  switch (origin.source) {
    case 'user':
    case 'project':
      return origin.file;
    case 'plugin':
    case 'host': {
      const instead =
        origin.source === 'plugin'
          ? `Uninstall or change that plugin to ${edit === 'removed' ? 'remove' : 'change'} it.`
          : 'The application that embeds epoch decides its servers.';
      throw new RuntimeError(
        'not_user_server',
        `MCP server "${name}" cannot be ${edit} here: it comes from ${describeOrigin(holder)}, not from your ${file.path} or the project's .epoch/mcp.json, the only files epoch edits. ${instead}`,
        { server: name, source: origin.source },
      );
    }
  }
}

/** Where a server comes from, for messages: `plugin "x" (/path/mcp.json)`. */
function describeOrigin({ origin }: ConfiguredServer): string {
  switch (origin.source) {
    case 'host':
      return `the application that embeds epoch (namespace "${origin.namespace}")`;
    case 'plugin':
      return `plugin "${origin.plugin}" (${origin.file})`;
    case 'project':
      return `the project's ${origin.file}`;
    case 'user':
      return origin.file;
  }
}
