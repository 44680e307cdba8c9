// One server's entry given as JSON text, as a person pastes or edits it: `epoch mcp add-json`'s
// <json>, the connectors page's "paste JSON" and its entry editor all read it here, so the three
// take the same text and refuse it with the same words. Pure: text in, the entry (and where it is
// in the text) or what is wrong out.
//
// Taken: the entry itself (`{"command": "npx", …}`), or one server wrapped the ways configs are
// shared: `{"<name>": {…}}`, `{"mcpServers": {"<name>": {…}}}` (Claude Desktop, Cursor) or
// `{"servers": {"<name>": {…}}}` (this file, VS Code). Comments and trailing commas are allowed, as
// in mcp.json. An object of one key is a wrapper only when that key is no field of an entry, so
// `{"env": {…}}` stays an entry (which the loader then says is missing its command).
import { describeSyntaxError, MCP_CONFIG_FIELDS } from '@epoch-agent/plugin-mcp/config';
import {
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { membersOf } from './plan-add.js';

export type EntryJson =
  | {
      readonly ok: true;
      /** The name a wrapper gave; undefined for a bare entry. */
      readonly name: string | undefined;
      readonly entry: { readonly [field: string]: unknown };
      /**
       * The entry's object in the text (UTF-16 offsets), wrapper excluded; undefined when the text
       * nests too deep to walk as a tree (entryOverLimit then says where).
       */
      readonly node: Node | undefined;
    }
  /** For the person who gave the text: never repeats it (it can hold a token). */
  | { readonly ok: false; readonly problem: string };

const FIELD_KEYS: ReadonlySet<string> = new Set(
  MCP_CONFIG_FIELDS.flatMap(({ name, camelCase }) => [name, camelCase]),
);
const SERVER_MAPS = new Set(['mcpServers', 'servers']);
// jsonc-parser's tree recurses; JSON.parse takes text this deep, and no entry is near it.
const TREE_DEPTH = 256;

const EXAMPLE = '{"command": "npx", "args": ["-y", "some-server"]}';

export function parseEntryJson(text: string): EntryJson {
  if (depthOf(text) > TREE_DEPTH) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return {
        ok: false,
        problem: `the JSON does not parse: write it in double quotes, like ${EXAMPLE}.`,
      };
    }
    if (!isObject(value)) return notAnObject();
    const found = unwrap(value, (v) =>
      Object.entries(v).map(([key, child]) => [key, isObject(child) ? child : undefined]),
    );
    if ('problem' in found) return { ok: false, problem: found.problem };
    return { ok: true, name: found.name, entry: found.value, node: undefined };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  const [first] = errors;
  if (first !== undefined || root === undefined)
    return { ok: false, problem: notParsed(text, first) };
  if (root.type !== 'object') return notAnObject();
  const found = unwrap(root, (node) =>
    membersOf(node).map((member) => {
      const value = member.children?.[1];
      return [String(member.children?.[0]?.value), value?.type === 'object' ? value : undefined];
    }),
  );
  if ('problem' in found) return { ok: false, problem: found.problem };
  const entry = getNodeValue(found.value) as Record<string, unknown>;
  return { ok: true, name: found.name, entry, node: found.value };
}

/**
 * Where and what the first syntax error is, in the loader's words, and what to do: text after the
 * entry (a second entry pasted, the rest of a file) is said as that, not as a quoting mistake.
 */
function notParsed(text: string, error: ParseError | undefined): string {
  if (error === undefined) return `the JSON is empty: write the entry, like ${EXAMPLE}.`;
  const at = lineColumn(text, error.offset);
  if (printParseErrorCode(error.error) === 'EndOfFileExpected') {
    return `the JSON does not parse at ${at}: there is text after the entry's closing "}". Give one entry only, like ${EXAMPLE}, with nothing after it (to add another server, add it on its own).`;
  }
  return `the JSON does not parse at ${at}: ${describeSyntaxError(error)}. Write it like ${EXAMPLE}.`;
}

/** The entry inside `root` and the name a wrapper gave it; `members` lists an object's objects. */
function unwrap<T>(
  root: T,
  members: (object: T) => [string, T | undefined][],
): { name: string | undefined; value: T } | { problem: string } {
  const one = (object: T) => {
    const all = members(object);
    const [only] = all;
    if (all.length !== 1 || only === undefined || FIELD_KEYS.has(only[0])) return undefined;
    return only[1] === undefined ? undefined : { key: only[0], value: only[1] };
  };
  const outer = one(root);
  if (outer === undefined) return { name: undefined, value: root };
  if (!SERVER_MAPS.has(outer.key)) return { name: outer.key, value: outer.value };
  const servers = members(outer.value).length;
  const inner = one(outer.value);
  if (servers !== 1 || inner === undefined) {
    return { problem: `"${outer.key}" holds ${servers} servers; give one server at a time.` };
  }
  return { name: inner.key, value: inner.value };
}

function notAnObject(): EntryJson {
  return { ok: false, problem: `the JSON must be one object of fields, like ${EXAMPLE}.` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The deepest nesting of objects and arrays in `text`, strings and comments skipped (no recursion). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const ch = text[at];
    if (ch === '"') {
      for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === '\\') at++;
    } else if (ch === '/' && text[at + 1] === '/') {
      while (at < text.length && text[at] !== '\n') at++;
    } else if (ch === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2);
      at = end === -1 ? text.length : end + 1;
    } else if (ch === '{' || ch === '[') {
      deepest = Math.max(deepest, ++depth);
    } else if (ch === '}' || ch === ']') {
      depth--;
    }
  }
  return deepest;
}

/** `line 3, column 7` of a UTF-16 offset, as an editor counts them. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
