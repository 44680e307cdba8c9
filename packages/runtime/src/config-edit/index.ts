// mcp-config-write: adds a server to the user's mcp.json (or removes one) as a TEXT EDIT. It is how
// the connectors page's "add server" (POST /api/mcp) writes the file.
//
// The criteria: not one byte of the user's comments, key order, indentation or aliases
// (`connect_timeout` / `type`) changes.
// - The file is the user's. They write comments in it, order servers their way, indent their way,
//   and use aliases (`type` for `transport`, `connectTimeout` for `connect_timeout`). Read -> modify
//   -> write-whole would parse all of that away and print the file back in our format. So the new
//   entry is one piece of text inserted into the original: every byte outside it stays as it was.
//   The entry follows the file's own indentation (tabs or spaces, the width it uses) and line
//   endings (LF or CRLF); a file written on one line gets it on that line. One cost of a single
//   inserted piece: a comment at the end of the last entry's line, when no comma follows that
//   entry, ends up after the new entry (the comma has to go right after the old one).
// - The page asks for three things only: transport, command or URL, env (`epoch mcp add` also takes
//   headers; `epoch mcp add-json` a whole entry). Everything else (timeout, connect_timeout, cwd,
//   …) is written by hand, so the result names the file written and the fields left to write there
//   (derived from the plugin's MCP_CONFIG_FIELDS, not a list kept here).
// - The name is held to [A-Za-z0-9_-] (stricter than a hand-written file): it goes verbatim into
//   tool names `mcp__<server>__<tool>` that providers reject otherwise. A name already in the file
//   is refused: the page adds, it does not overwrite what the user wrote.
// - A file that does not parse is never written: after a syntax error nothing in the text can be
//   trusted to mean what it seems to. The caller gets the loader's diagnostic.
// - The result must load: the edited text goes through the plugin's parseMcpConfig first, and the
//   new server must come out of it with no diagnostic at all, or nothing is written.
// - The write is atomic (infra writeFileAtomic: a reader sees the old file or the new one) and keeps
//   the file's mode; a new file is 0600 in a 0700 directory (it can hold tokens). Writers take
//   `<file>.lock` (infra's withFileLock), so two processes adding at once both end up in the file.
// - addServers (`epoch mcp import`) adds several servers in one write under the lock, each placed as
//   addServer places it, one after the other, so all of them are one inserted piece; a server
//   addServer would refuse is refused alone and the others go in.
// - removeServer is the same kind of edit. It undoes addServer exactly (add then remove gives back
//   the original bytes); a hand-written entry takes the comment block directly above it along (no blank
//   line between), and every other comment stays — see config-edit/remove-item.ts. One exception: when addServer had to create `servers` (or the whole
//   file), removing that last server leaves `"servers": {}` — an empty `servers` and a missing one
//   are the same text once a server is in it, and the empty one is the form to keep.
// - replaceServerEntry is the editor's write: the bytes of one entry's object are replaced by the
//   edited text, and no others (the entry's key, the comments around it, the other entries keep
//   every byte); readServerEntry gives that text out with each secret as a placeholder, which the
//   write puts back. Checked as addServer checks a new entry — see config-edit/plan-replace.ts.
// - setServerChoice turns a server, or some of its tools, on or off: the field or list element that
//   says so changes and nothing else, and turning a thing off then on again gives back the original
//   bytes — see config-edit/plan-choice.ts. A plugin's or the host's server is not in the file; its
//   choice goes under `overrides`, which is created when needed (the file too) and goes once empty.
//
// Errors are thrown, as McpConfigWriteError with a `code` (and the loader's `diagnostics` for
// `syntax_error`, positions in the file, and `invalid_server`, positions in the text that would
// have been written); nothing is written when one is thrown. A throw rather than a result union:
// every refusal ends the request the same way, and the caller branches on `code` alone.
import { resolve } from 'node:path';
import {
  isInfraError,
  MAX_CONFIG_BYTES,
  readRegularFile,
  withFileLock,
  writeFileAtomic,
} from '@epoch-agent/infra';
import { type McpConfigLoad, type McpServerConfig, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { entryOverLimit } from './entry-limits.js';
import { placeholderPath } from './entry-secrets.js';
import {
  isMcpConfigWriteError,
  McpConfigWriteError,
  type McpConfigWriteErrorCode,
} from './errors.js';
import type { Insertion } from './insert-member.js';
import {
  type AddServerInput,
  entryOf,
  fieldsToSetByHand,
  renderServer,
  SERVER_NAME_PATTERN,
} from './new-server.js';
import { membersOf, parseConfigText, planAdd } from './plan-add.js';
import {
  type ChoiceChange,
  type ChoiceEdit,
  type ChoiceTarget,
  planChoice,
} from './plan-choice.js';
import { planRemove } from './plan-remove.js';
import { type EntryForEditing, entryForEditing, planReplace } from './plan-replace.js';
import { applyDeletions } from './remove-item.js';

export { type EntryJson, parseEntryJson } from './entry-json.js';
export { ENTRY_LIMITS, sizeText } from './entry-limits.js';
export {
  isMcpConfigWriteError,
  McpConfigWriteError,
  type McpConfigWriteErrorCode,
  type McpConfigWriteErrorData,
} from './errors.js';
export { type AddServerInput, SERVER_NAME_PATTERN } from './new-server.js';
export type { ChoiceChange, ChoiceEdit, ChoiceTarget } from './plan-choice.js';
export type { EntryForEditing } from './plan-replace.js';

export interface McpConfigWriteOptions {
  /** How long to wait for another writer's `<file>.lock`. Default 15 s. */
  readonly lockWaitMs?: number;
}

export interface AddServerResult {
  /** The absolute path written. */
  readonly file: string;
  /** The file did not exist and was created. */
  readonly created: boolean;
  /**
   * What was inserted and where (a UTF-16 offset into the new text): the new text is the old one
   * with `text` put in at `offset`, and nothing else changed.
   */
  readonly inserted: { readonly offset: number; readonly text: string };
  /** The fields of this server the page cannot set, in the field table's order: add them by hand. */
  readonly setByHand: readonly string[];
}

export interface ReplaceServerEntryResult {
  /** The absolute path of the file. */
  readonly file: string;
  /** Whether the file was written; false when the entry came back as it was. */
  readonly changed: boolean;
}

export interface RemoveServerResult {
  /** The absolute path written. */
  readonly file: string;
}

export interface ChoiceEditResult {
  /** The absolute path of the file. */
  readonly file: string;
  /** The 1-based line of the first change; of the first choice already so when nothing changed. */
  readonly line: number;
  /** What was changed, or found already so, in the order done. */
  readonly changes: readonly ChoiceChange[];
  /** Whether the file was written; false when every choice was already so. */
  readonly changed: boolean;
}

// A writer holds the lock for milliseconds; ten seconds means it is stopped, not slow.
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

/** Inserts `server` as the last entry of `servers` in the mcp.json at `file`. */
export async function addServer(
  file: string,
  server: AddServerInput,
  options: McpConfigWriteOptions = {},
): Promise<AddServerResult> {
  const path = resolve(file);
  // In a file of its own first, so a bad name or a server that cannot load is refused before any
  // file or directory is made.
  addServerToText('', path, server);
  return locked(path, options, async () => {
    const before = await readConfig(path);
    const { text, inserted, config } = addServerToText(before.text, path, server);
    await writeFileAtomic(path, text, { mode: 0o600 });
    return {
      file: path,
      created: !before.exists,
      inserted,
      setByHand: fieldsToSetByHand(config.transport, entryOf(server)),
    };
  });
}

export interface AddServersOptions extends McpConfigWriteOptions {
  /** false: nothing is written (no lock, no directory either), the result says what would be. */
  readonly write?: boolean;
}

export interface AddServersResult {
  /** The absolute path written (or that would be). */
  readonly file: string;
  /** The file did not exist (and was created, when written). */
  readonly created: boolean;
  /** Whether the file was written: something was added, and `write` was not false. */
  readonly written: boolean;
  /** All the new entries as ONE inserted piece; undefined when none was added. */
  readonly inserted: Insertion | undefined;
  /** The servers in the new text, in the order given. */
  readonly added: readonly string[];
  /** The servers refused one by one (an invalid name, an entry that would not load, …). */
  readonly refused: readonly McpConfigWriteError[];
}

// A refusal of one server leaves the others to add; any other refusal is the whole file's.
const ONE_SERVER: ReadonlySet<McpConfigWriteErrorCode> = new Set([
  'invalid_name',
  'duplicate_server',
  'invalid_server',
  'too_large',
  'secret_placeholder',
]);

/**
 * Adds several servers to the mcp.json at `file` in one write under its lock: `choose` is given
 * the names already in the file and says which servers to add (so a caller decides clashes on
 * what the file holds when it is written). Each goes in as addServer would put it, one after the
 * other, so together they are one inserted piece, and removeServer of each (last first) gives
 * back the original bytes. A server addServer would refuse is refused alone.
 */
export async function addServers(
  file: string,
  choose: (names: readonly string[]) => readonly AddServerInput[],
  options: AddServersOptions = {},
): Promise<AddServersResult> {
  const path = resolve(file);
  const edit = async (): Promise<AddServersResult> => {
    const before = await readConfig(path);
    const parsed = parseConfigText(stripBom(before.text), path);
    if (!parsed.ok) throw parsed.error;
    const { servers } = parsed.value;
    const names =
      servers === undefined ? [] : membersOf(servers).map((m) => String(m.children?.[0]?.value));
    let text = before.text;
    const added: string[] = [];
    const refused: McpConfigWriteError[] = [];
    for (const server of choose(names)) {
      try {
        text = addServerToText(text, path, server).text;
        added.push(server.name);
      } catch (error) {
        if (!isMcpConfigWriteError(error) || !ONE_SERVER.has(error.code)) throw error;
        refused.push(error);
      }
    }
    const write = options.write !== false && added.length > 0;
    if (write) await writeFileAtomic(path, text, { mode: 0o600 });
    const inserted = added.length === 0 ? undefined : onePiece(before.text, text);
    return { file: path, created: !before.exists, written: write, inserted, added, refused };
  };
  return options.write === false ? edit() : locked(path, options, edit);
}

/** Where `after` is `before` with one piece inserted: that piece. */
function onePiece(before: string, after: string): Insertion {
  let offset = 0;
  while (offset < before.length && before[offset] === after[offset]) offset++;
  return { offset, text: after.slice(offset, offset + after.length - before.length) };
}

/**
 * The entry of server `name` in the mcp.json at `file` as a front end may show it: its own text,
 * secrets as placeholders (see config-edit/plan-replace.ts).
 */
export async function readServerEntry(file: string, name: string): Promise<EntryForEditing> {
  const path = resolve(file);
  const { text, exists } = await readConfig(path);
  if (!exists) {
    throw new McpConfigWriteError(
      'unknown_server',
      `there is no server "${name}" in ${path} (the file does not exist).`,
      { file: path, server: name },
    );
  }
  const plan = entryForEditing(stripBom(text), path, name);
  if (!plan.ok) throw plan.error;
  return plan.value;
}

/**
 * Replaces the entry of server `name` with `edited` (its text as readServerEntry gave it, edited):
 * the bytes of that entry's object change and no others. Checked as addServer checks a new entry:
 * within ENTRY_LIMITS, and the server loads from the new text with no diagnostic of its own.
 */
export async function replaceServerEntry(
  file: string,
  name: string,
  edited: string,
  options: McpConfigWriteOptions = {},
): Promise<ReplaceServerEntryResult> {
  const path = resolve(file);
  return locked(path, options, async () => {
    const before = await existingConfig(path, name, 'changed');
    const after = replaceServerEntryInText(before, path, name, edited);
    const changed = after !== before;
    if (changed) await writeFileAtomic(path, after);
    return { file: path, changed };
  });
}

/** replaceServerEntry on the text of the file: the new text. Throws as it does. */
export function replaceServerEntryInText(
  text: string,
  file: string,
  name: string,
  edited: string,
): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const plan = planReplace(text.slice(bom.length), file, name, edited);
  if (!plan.ok) throw plan.error;
  const { text: body, entry } = plan.value;
  checkSize({ name, entry }, file, 'changed');
  const after = bom + body;
  loaded(after, file, name, 'changed');
  return after;
}

/** The text of the mcp.json at `path`, which must exist to hold server `name`. */
async function existingConfig(
  path: string,
  name: string,
  nothingWas: 'changed' | 'removed',
): Promise<string> {
  const config = await readConfig(path);
  if (!config.exists) {
    throw new McpConfigWriteError(
      'unknown_server',
      `there is no server "${name}" in ${path} (the file does not exist), so nothing was ${nothingWas}.`,
      { file: path, server: name },
    );
  }
  return config.text;
}

/** Takes the server `name` out of the mcp.json at `file` (every entry of that name). */
export async function removeServer(
  file: string,
  name: string,
  options: McpConfigWriteOptions = {},
): Promise<RemoveServerResult> {
  const path = resolve(file);
  return locked(path, options, async () => {
    const before = await existingConfig(path, name, 'removed');
    await writeFileAtomic(path, removeServerFromText(before, path, name));
    return { file: path };
  });
}

/** Turns server `target`, or some of its tools, on or off in the mcp.json at `file`. */
export async function setServerChoice(
  file: string,
  target: ChoiceTarget,
  edit: ChoiceEdit,
  options: McpConfigWriteOptions = {},
): Promise<ChoiceEditResult> {
  const path = resolve(file);
  return locked(path, options, async () => {
    const before = await readConfig(path);
    if (!before.exists && target.kind === 'user') {
      throw new McpConfigWriteError(
        'unknown_server',
        `there is no server "${target.name}" in ${path} (the file does not exist), so nothing was changed.`,
        { file: path, server: target.name },
      );
    }
    const plan = planChoice(before.text, path, target, edit);
    if (!plan.ok) throw plan.error;
    const { text, changes, changed } = plan.value;
    // Mode as addServer: a file this creates holds no secret yet, but later adds may put one in.
    if (changed) await writeFileAtomic(path, text, { mode: 0o600 });
    const first = changes.find((change) => change.changed) ?? changes[0];
    return { file: path, line: first?.line ?? 1, changes, changed };
  });
}

/**
 * addServer on the text of the file (`file` names it in messages): the new text, what was
 * inserted where, and the new server as the loader reads it. Throws McpConfigWriteError as
 * addServer does.
 */
export function addServerToText(
  text: string,
  file: string,
  server: AddServerInput,
): { readonly text: string; readonly inserted: Insertion; readonly config: McpServerConfig } {
  checkName(server.name, file);
  checkSize(server, file, 'added');
  checkNoPlaceholder(server, file);
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const plan = planAdd(body, file, server.name, renderServer(server.name, entryOf(server)));
  if (!plan.ok) throw plan.error;
  const { offset, text: piece } = plan.value;
  const after = bom + body.slice(0, offset) + piece + body.slice(offset);
  const config = loaded(after, file, server.name, 'added');
  return { text: after, inserted: { offset: bom.length + offset, text: piece }, config };
}

/** removeServer on the text of the file: the new text. Throws McpConfigWriteError as it does. */
export function removeServerFromText(text: string, file: string, name: string): string {
  let out = text;
  // A name given twice: the loader uses the later entry, so both must go for the server to go.
  for (let removed = 0; ; removed++) {
    const bom = out.startsWith('\uFEFF') ? '\uFEFF' : '';
    const plan = planRemove(out.slice(bom.length), file, name);
    if (!plan.ok) {
      if (removed > 0 && plan.error.code === 'unknown_server') return out;
      throw plan.error;
    }
    out = bom + applyDeletions(out.slice(bom.length), plan.value);
  }
}

function checkName(name: string, file: string): void {
  if (SERVER_NAME_PATTERN.test(name)) return;
  throw new McpConfigWriteError(
    'invalid_name',
    `server name ${JSON.stringify(name)} can only use letters, digits, "_" and "-" (it becomes part of tool names like mcp__<server>__<tool>, which model providers restrict); choose another name.`,
    { file, server: name },
  );
}

// How a refusal says what did not happen to the server.
type Edit = 'added' | 'changed';
const NOT_DONE: Record<Edit, string> = { added: 'was not added to', changed: 'was not changed in' };

function checkSize(server: AddServerInput, file: string, edit: Edit): void {
  const over = entryOverLimit(server.name, entryOf(server));
  if (over === undefined) return;
  // A name over the bound is not repeated: the message would be that long.
  const who = over.path === 'servers' ? 'the server' : `server "${server.name}"`;
  throw new McpConfigWriteError(
    'too_large',
    `${who} ${NOT_DONE[edit]} ${file}: ${over.message} Shorten it, or keep what is that large in a file the server reads.`,
    { file, server: server.name, field: over.path },
  );
}

// A copied entry carries placeholders for its secrets: written as they are, they would be sent to
// the server as if they were its key.
function checkNoPlaceholder(server: AddServerInput, file: string): void {
  const path = placeholderPath(entryOf(server));
  if (path === undefined) return;
  throw new McpConfigWriteError(
    'secret_placeholder',
    `server "${server.name}" was not added to ${file}: ${path} is a placeholder of a copied secret; write the value itself there.`,
    { file, server: server.name, field: `servers.${server.name}.${path}` },
  );
}

/**
 * The server as it loads from `text`, which it must do with no diagnostic of its own, but for a
 * `${VAR}` not set in this process: a variable is for the environment the server will start in
 * (an import writes the ones another client read; `add` of an entry whose secret is not exported
 * yet), and the start that lacks it fails naming it.
 */
function loaded(text: string, file: string, name: string, edit: Edit): McpServerConfig {
  const load: McpConfigLoad = parseMcpConfig(text, file);
  const prefix = `servers.${name}`;
  const diagnostics = load.diagnostics.filter(
    (d) =>
      d.code !== 'unset_variable' &&
      (d.code === 'syntax_error' ||
        d.code === 'too_deep' ||
        d.path === prefix ||
        d.path.startsWith(`${prefix}.`) ||
        d.path.startsWith(`${prefix}[`)),
  );
  const config = load.servers.find((server) => server.name === name);
  if (diagnostics.length === 0 && config !== undefined) return config;
  const why = diagnostics[0]?.message ?? 'it did not load';
  throw new McpConfigWriteError(
    'invalid_server',
    `server "${name}" ${NOT_DONE[edit]} ${file}: ${why}`,
    { file, server: name, diagnostics },
  );
}

function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

async function readConfig(file: string): Promise<{ text: string; exists: boolean }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false };
    throw fileError(error, file);
  }
  const text = bytes.toString('utf8');
  // Decoding replaces invalid bytes; writing that back would change bytes we promise to keep.
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new McpConfigWriteError(
      'invalid_encoding',
      `${file} is not valid UTF-8, so it was not changed; save it as UTF-8 first.`,
      { file },
    );
  }
  return { text, exists: true };
}

/** Runs `edit` holding the file's lock; a lock held too long by another writer is `lock_timeout`. */
async function locked<T>(
  path: string,
  options: McpConfigWriteOptions,
  edit: () => Promise<T>,
): Promise<T> {
  const lock = { waitMs: options.lockWaitMs ?? LOCK_WAIT_MS, staleMs: STALE_LOCK_MS };
  try {
    return await withFileLock(path, lock, edit);
  } catch (error) {
    if (isInfraError(error, 'lock_timeout')) {
      throw new McpConfigWriteError('lock_timeout', `${error.message} Nothing was written.`, {
        file: path,
      });
    }
    throw fileError(error, path);
  }
}

const DENIED: Readonly<Record<string, string>> = {
  EACCES: 'permission denied; check the owner and mode of the file and of its directory',
  EPERM: 'permission denied; check the owner and mode of the file and of its directory',
  EROFS: 'it is on a read-only file system',
};

/** A refusal of the file system as `unusable_file`, naming the path it refused; others unchanged. */
function fileError(error: unknown, file: string): unknown {
  if (
    isInfraError(error, 'not_a_file') ||
    isInfraError(error, 'too_large') ||
    isInfraError(error, 'not_writable')
  ) {
    return new McpConfigWriteError('unusable_file', `${error.message} Nothing was written.`, {
      file,
    });
  }
  const { code, path } = error as NodeJS.ErrnoException;
  const why = code === undefined ? undefined : DENIED[code];
  if (why === undefined) return error;
  // The path refused may be the lock or the temp file beside the file: say which.
  return new McpConfigWriteError(
    'unusable_file',
    `cannot write ${path ?? file}: ${why}. Nothing was written to ${file}.`,
    { file },
  );
}
