// One server's entry in mcp.json, read out for editing and written back as a replacement of that
// entry's object only. Pure: text in, text out.
//
// The entry goes out as its own text from the file — comments, aliases, key order and all — with
// its secrets as placeholders (entry-secrets.ts), its lines less the indentation of the line it
// starts on, and LF line ends (what a textarea gives back). The edited text comes back the other
// way: placeholders resolved against the file as it is then, the indentation and the file's line
// ends put back, and it replaces the bytes of the entry's object `{ … }` and nothing else: the
// key, the comments around the entry, the other entries and the rest of the file keep every byte.
// An entry sent back unchanged gives back the file unchanged.
//
// The name is not edited here: a rename would orphan the server's stored login and its choices in
// other places, so a wrapped entry (`{"other": {…}}`) under another name is refused (`renamed`).
import { getNodeValue, type Node, parseTree } from 'jsonc-parser';
import { parseEntryJson } from './entry-json.js';
import { entryOverLimit } from './entry-limits.js';
import { type EntrySecrets, redactEntry, restoreSecrets } from './entry-secrets.js';
import { entryVersion } from './entry-version.js';
import { lineIndent } from './jsonc-text.js';
import { membersOf, type Plan, parseConfigText, refuse } from './plan-add.js';

export interface EntryForEditing {
  /** The 1-based line of the entry's key. */
  readonly line: number;
  /** The entry's object as written, secrets as placeholders, dedented, LF line ends. */
  readonly text: string;
  /** How many secret values and comments are placeholders in `text`. */
  readonly hidden: number;
  /** `{"<name>": <the entry>}` as plain JSON (no comments), secrets as placeholders: to copy. */
  readonly json: string;
  /**
   * The version of the entry's text in the file (secrets and all, told by nothing of them): a write
   * based on it is refused once the entry is written otherwise (`changed_since`).
   */
  readonly version: string;
}

interface Located {
  readonly member: Node;
  readonly value: Node;
  /** The indentation taken off (and put back on) every line but the first. */
  readonly indent: string;
  readonly crlf: boolean;
  readonly secrets: EntrySecrets;
  readonly redacted: string;
}

/** The entry of server `name` (the last of that name: the one the loader uses). */
function locate(text: string, file: string, name: string): Plan<Located> {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok) return parsed;
  const { servers } = parsed.value;
  const member = (servers === undefined ? [] : membersOf(servers)).findLast(
    (m) => m.children?.[0]?.value === name,
  );
  const value = member?.children?.[1];
  if (member === undefined || value === undefined) {
    return refuse('unknown_server', `there is no server "${name}" in ${file}.`, {
      file,
      server: name,
    });
  }
  if (value.type !== 'object') {
    return refuse(
      'invalid_value',
      `server "${name}" in ${file} is not an object of fields, so it cannot be edited here; fix it by hand.`,
      { file, server: name, field: `servers.${name}` },
    );
  }
  const span = text.slice(value.offset, value.offset + value.length);
  const base = lineIndent(text, value.offset);
  const lines = span.split(/\r?\n/).slice(1);
  // Only when every line has it, so putting it back gives the same bytes.
  const indent = lines.every((l) => l === '' || l.startsWith(base)) ? base : '';
  const { text: redacted, secrets } = redactEntry(text, value);
  return {
    ok: true,
    value: { member, value, indent, crlf: span.includes('\r\n'), secrets, redacted },
  };
}

export function entryForEditing(text: string, file: string, name: string): Plan<EntryForEditing> {
  const found = locate(text, file, name);
  if (!found.ok) return found;
  const { member, value, indent, secrets, redacted } = found.value;
  const shown = redacted
    .split(/\r?\n/)
    .map((line, i) => (i === 0 || line === '' ? line : line.slice(indent.length)))
    .join('\n');
  const entry = objectOf(redacted);
  return {
    ok: true,
    value: {
      line: text.slice(0, member.offset).split('\n').length,
      text: shown,
      hidden: secrets.strings.size + secrets.comments.size,
      json: JSON.stringify({ [name]: entry }, null, 2),
      version: entryVersion(text.slice(value.offset, value.offset + value.length)),
    },
  };
}

/** The file's text with server `name`'s object replaced by `edited` (as entryForEditing gave it). */
export function planReplace(
  text: string,
  file: string,
  name: string,
  edited: string,
  basedOn?: string,
): Plan<{ readonly text: string; readonly entry: { readonly [field: string]: unknown } }> {
  const found = locate(text, file, name);
  if (!found.ok) return found;
  const { value, indent, crlf, secrets } = found.value;
  if (
    basedOn !== undefined &&
    entryVersion(text.slice(value.offset, value.offset + value.length)) !== basedOn
  ) {
    return refuse(
      'changed_since',
      `server "${name}" was not changed: its entry in ${file} (edited by hand, or on another page) changed since you opened it — reload it to see it as it is now, then make your change again.`,
      { file, server: name },
    );
  }
  const given = parseEntryJson(edited);
  if (!given.ok) {
    return refuse('invalid_entry', `server "${name}" was not changed: ${given.problem}`, {
      file,
      server: name,
    });
  }
  if (given.name !== undefined && given.name !== name) {
    return refuse(
      'renamed',
      `server "${name}" was not changed: the entry is named "${given.name}", and a server is not renamed by editing its entry (its login and choices are kept under its name). To rename it, add the entry under the new name, then remove "${name}".`,
      { file, server: name },
    );
  }
  if (given.node === undefined) {
    const over = entryOverLimit(name, given.entry);
    return refuse(
      'too_large',
      `server "${name}" was not changed: ${over?.message ?? 'it nests too deep.'}`,
      {
        file,
        server: name,
        ...(over === undefined ? {} : { field: over.path }),
      },
    );
  }
  const restored = restoreSecrets(edited, given.node, secrets);
  if (!restored.ok) {
    return refuse(
      'secret_placeholder',
      `server "${name}" was not changed: ${restored.path} is "${restored.placeholder}", which stands for no secret of "${name}" in ${file} now. Write the value there, or put back the placeholder the editor showed.`,
      { file, server: name, field: `servers.${name}.${restored.path}` },
    );
  }
  const piece = restored.text
    .split(/\r?\n/)
    .map((line, i) => (i === 0 || line === '' ? line : indent + line))
    .join(crlf ? '\r\n' : '\n');
  const after = text.slice(0, value.offset) + piece + text.slice(value.offset + value.length);
  return { ok: true, value: { text: after, entry: objectOf(restored.text) } };
}

/** The object `text` (one entry's object, which parsed before) holds. */
function objectOf(text: string): { readonly [field: string]: unknown } {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  return tree === undefined ? {} : (getNodeValue(tree) as Record<string, unknown>);
}
