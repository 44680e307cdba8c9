// A runtime's edits of the user's mcp.json: first what only a runtime can refuse, knowing the
// host's and plugins' servers (a name one of them holds, the host's tool prefix, a server that is
// not in that file); then the text edit (config-edit/); then the file applied, and what came of it.
// The entries an edit writes (add, import, a replaced entry) are approved as they are applied:
// the front end that made the edit showed what they run (README, "Trust").
import { type McpServerStatus, serverPrefix } from '@epoch-agent/plugin-mcp';
import {
  type AddServerInput,
  type AddServerResult,
  addServer,
  type ChoiceEdit,
  type ChoiceEditResult,
  type EntryForEditing,
  McpConfigWriteError,
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

/** What the edits know of the runtime they are made in; each runs in the runtime's queue. */
export interface UserFile {
  /** The user's mcp.json (absolute). */
  readonly path: string;
  readonly write: McpConfigWriteOptions;
  /** hostCapabilities.namespace: no user server may take its tool prefix. */
  readonly namespace: string | undefined;
  /** The host's and plugins' servers as the runtime holds them now. */
  fixed(): readonly ConfiguredServer[];
  /** The server of that name, of any source; RuntimeError `unknown_server` when none has it. */
  named(name: string): ConfiguredServer;
  /**
   * Reads the file again and applies it, the servers `approved` names (just written by this
   * edit) approved in their form as read, before anything starts.
   */
  apply(approved?: readonly string[]): Promise<McpConfigApplied>;
  /** The server's status now; undefined when this runtime does not start it. */
  status(name: string): McpServerStatus | undefined;
}

export async function addUserServer(
  file: UserFile,
  server: AddServerInput,
): Promise<RuntimeServerAdded> {
  refuseTakenName(file, server.name);
  const written = await addServer(file.path, server, file.write);
  const applied = await file.apply([server.name]);
  return { ...written, applied, status: file.status(server.name) };
}

export async function importUserServers(
  file: UserFile,
  found: readonly FoundServer[],
  options: Omit<ImportOptions, 'taken' | 'lockWaitMs'>,
): Promise<RuntimeServersImported> {
  const taken = file.fixed().map(({ config }) => config.name);
  const result = await importServers(file.path, found, {
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
  refuseOthers(file, name, 'edited');
  return readServerEntry(file.path, name);
}

export async function replaceUserServerEntry(
  file: UserFile,
  name: string,
  edited: string,
): Promise<RuntimeServerEntryReplaced> {
  refuseOthers(file, name, 'edited');
  const written = await replaceServerEntry(file.path, name, edited, file.write);
  // An entry that came back as it was approves nothing new.
  const applied = await file.apply(written.changed ? [name] : []);
  return { ...written, applied, status: file.status(name) };
}

export async function removeUserServer(
  file: UserFile,
  name: string,
): Promise<RuntimeServerRemoved> {
  refuseOthers(file, name, 'removed');
  const written = await removeServer(file.path, name, file.write);
  return { ...written, applied: await file.apply() };
}

/** A user server's choice in its own entry; a plugin's or the host's under `overrides`. */
export async function setChoice(
  file: UserFile,
  name: string,
  edit: ChoiceEdit,
): Promise<RuntimeChoiceSet> {
  const kind = file.named(name).origin.source === 'user' ? 'user' : 'override';
  const written = await setServerChoice(file.path, { kind, name }, edit, file.write);
  const applied = await file.apply();
  return { ...written, applied, status: file.status(name) };
}

/** Refuses a new server's name that a host's or plugin's server holds, or the host's prefix would. */
function refuseTakenName(file: UserFile, name: string): void {
  const { path, namespace } = file;
  // The same name but for case counts as taken: two near-identical tool prefixes for the model.
  const folded = name.toLowerCase();
  const holder = file.fixed().find(({ config }) => config.name.toLowerCase() === folded);
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

/** Refuses a host's or plugin's server: only the user's file is edited. */
function refuseOthers(file: UserFile, name: string, edit: 'removed' | 'edited'): void {
  const holder = file.fixed().find(({ config }) => config.name === name);
  if (holder === undefined) return;
  const instead =
    holder.origin.source === 'plugin'
      ? `Uninstall or change that plugin to ${edit === 'removed' ? 'remove' : 'change'} it.`
      : 'The application that embeds epoch decides its servers.';
  throw new RuntimeError(
    'not_user_server',
    `MCP server "${name}" cannot be ${edit} here: it comes from ${describeOrigin(holder)}, not from your ${file.path}, which is the only file epoch edits. ${instead}`,
    { server: name, source: holder.origin.source },
  );
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
