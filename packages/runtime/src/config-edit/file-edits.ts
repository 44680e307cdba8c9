// Each edit as a write of the user's mcp.json: the file read under its lock, edited as text,
// written atomically with its mode kept, and what was done said back.
import { resolve } from 'node:path';
import { writeFileAtomic } from '@epoch-agent/infra';
import { addServersToText } from './add-many.js';
import {
  existingConfig,
  locked,
  type McpConfigWriteOptions,
  readConfig,
  stripBom,
} from './config-file.js';
import { McpConfigWriteError } from './errors.js';
import type { Insertion } from './insert-member.js';
import { type AddServerInput, entryOf, fieldsToSetByHand } from './new-server.js';
import { membersOf, parseConfigText } from './plan-add.js';
import {
  type ChoiceChange,
  type ChoiceEdit,
  type ChoiceTarget,
  planChoice,
} from './plan-choice.js';
import { type EntryForEditing, entryForEditing } from './plan-replace.js';
import { addServerToText, removeServerFromText, replaceServerEntryInText } from './text-edits.js';

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
    const { text, inserted, added, refused } = addServersToText(before.text, path, choose(names));
    const write = options.write !== false && added.length > 0;
    if (write) await writeFileAtomic(path, text, { mode: 0o600 });
    return { file: path, created: !before.exists, written: write, inserted, added, refused };
  };
  return options.write === false ? edit() : locked(path, options, edit);
}

/**
 * The entry of server `name` in the mcp.json at `file` as a front end may show it: its own text,
 * secrets as placeholders (see plan-replace.ts).
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

export interface ReplaceServerEntryOptions extends McpConfigWriteOptions {
  /**
   * The entry's `version` that readServerEntry gave with the text that was edited: the write is
   * refused (`changed_since`) when the entry in the file is not that text any more.
   */
  readonly basedOn?: string | undefined;
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
  options: ReplaceServerEntryOptions = {},
): Promise<ReplaceServerEntryResult> {
  const path = resolve(file);
  return locked(path, options, async () => {
    const before = await existingConfig(path, name, 'changed');
    const after = replaceServerEntryInText(before, path, name, edited, options);
    const changed = after !== before;
    if (changed) await writeFileAtomic(path, after);
    return { file: path, changed };
  });
}

export interface RemoveServerOptions extends McpConfigWriteOptions {
  /**
   * The entry's `version` that readServerEntry gave when a front end showed it: the remove is
   * refused (`changed_since`) when the entry in the file is not that text any more. Without it the
   * entry goes as it is now (a person at a terminal naming the server).
   */
  readonly basedOn?: string | undefined;
}

/** Takes the server `name` out of the mcp.json at `file` (every entry of that name). */
export async function removeServer(
  file: string,
  name: string,
  options: RemoveServerOptions = {},
): Promise<RemoveServerResult> {
  const path = resolve(file);
  return locked(path, options, async () => {
    const before = await existingConfig(path, name, 'removed');
    await writeFileAtomic(path, removeServerFromText(before, path, name, options));
    return { file: path };
  });
}

export interface ChoiceWriteOptions extends McpConfigWriteOptions {
  /**
   * Whether a front end showed what the edit turns as on when it was asked (a switch flipped from
   * what it showed). When a user server's entry already has what is asked and not what was shown,
   * it changed since (by hand, or from another page): refused (`changed_since`) rather than
   * answered "already so", so the person sees the file as it is before choosing again.
   */
  readonly shown?: boolean | undefined;
}

/** Turns server `target`, or some of its tools, on or off in the mcp.json at `file`. */
export async function setServerChoice(
  file: string,
  target: ChoiceTarget,
  edit: ChoiceEdit,
  options: ChoiceWriteOptions = {},
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
    // Already as asked: the same plan from what was shown tells whether the file moved on. Only
    // for a user's own server, whose on and off the file alone decides: a plugin's or the host's
    // may be off by its own config, which no edit of `overrides` shows.
    if (
      !changed &&
      target.kind === 'user' &&
      options.shown !== undefined &&
      options.shown !== edit.enabled
    ) {
      const fromShown = planChoice(before.text, path, target, { ...edit, enabled: options.shown });
      if (fromShown.ok && fromShown.value.changed) throw changedSince(path, target.name);
    }
    // Mode as addServer: a file this creates holds no secret yet, but later adds may put one in.
    if (changed) await writeFileAtomic(path, text, { mode: 0o600 });
    const first = changes.find((change) => change.changed) ?? changes[0];
    return { file: path, line: first?.line ?? 1, changes, changed };
  });
}

function changedSince(file: string, name: string): McpConfigWriteError {
  return new McpConfigWriteError(
    'changed_since',
    `server "${name}" was not changed: its choice in ${file} (made by hand, or on another page) changed since the page showed it — reload to see it as it is now, then choose again.`,
    { file, server: name },
  );
}
