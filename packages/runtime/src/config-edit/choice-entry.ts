// The entry a choice edits — `servers.<name>` for a server of the user's, `overrides.<name>` for
// one of a plugin or of the host — and the text edits made on it: set a field's value, add a field
// or a list element, take one out. Pure: text in, text out.
//
// An override's entry, and `overrides` itself, exist only while they say something: the first field
// added creates them and the last one taken out takes them along. Both steps are one insertion and
// its exact undo (remove-item.ts), so a file that had no `overrides` gets its bytes back. One that
// holds a comment stays, empty: the comment is the user's, and an empty override says nothing.
import { formatPath } from '@epoch-agent/infra';
import { type Node, parseTree } from 'jsonc-parser';
import type { Insertion, RenderMember } from './insert-member.js';
import { commentWithin } from './jsonc-text.js';
import { renderServer } from './new-server.js';
import {
  insertInto,
  insertTopLevel,
  membersOf,
  type Plan,
  parseConfigText,
  propertyValue,
  refuse,
  serversOf,
  wrapIn,
} from './plan-add.js';
import { applyDeletions, type Reinsert, removeItem } from './remove-item.js';

export type ChoiceTarget =
  /** `servers.<name>`: a server of the user's own. */
  | { readonly kind: 'user'; readonly name: string }
  /** `overrides.<name>`: a plugin's (`<plugin>__<server>`) or the host's server, by its full name. */
  | { readonly kind: 'override'; readonly name: string };

export interface Entry {
  /** The file's text (without a BOM) and its name for messages. */
  readonly text: string;
  readonly file: string;
  readonly target: ChoiceTarget;
  readonly root: Node | undefined;
  /** `servers` or `overrides`, when the file has it. */
  readonly container: Node | undefined;
  /** The target's member of the container (the last of that name, as the loader reads it). */
  readonly member: Node | undefined;
  /** The member's value; undefined for an override not written yet. */
  readonly object: Node | undefined;
}

/** What an edit made of the text, and the 1-based line of what it changed. */
export interface Edited {
  readonly text: string;
  readonly line: number;
  /** What else the edit had to create, or take out, along with the field. */
  readonly along?: { readonly what: 'entry' | 'overrides'; readonly created: boolean };
}

const CONTAINER = { user: 'servers', override: 'overrides' } as const;

/** The target's entry in `text`; a user's server that is not there is `unknown_server`. */
export function locateEntry(text: string, file: string, target: ChoiceTarget): Plan<Entry> {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok) return parsed;
  const { root } = parsed.value;
  const container =
    target.kind === 'user'
      ? parsed.value.servers
      : root === undefined
        ? undefined
        : propertyValue(root, 'overrides');
  if (container !== undefined && container.type !== 'object') {
    return refuse(
      'invalid_shape',
      `${file}:${lineOf(text, container.offset)}: "overrides" must be an object keyed by server name, so the file was not changed. Fix the file first.`,
      { file, server: target.name },
    );
  }
  const members = container === undefined ? [] : membersOf(container);
  const member = members.findLast((m) => m.children?.[0]?.value === target.name);
  if (member === undefined && target.kind === 'user') {
    const names = members.map((m) => String(m.children?.[0]?.value));
    const listed = names.length === 0 ? 'it has no servers' : `its servers: ${names.join(', ')}`;
    return refuse(
      'unknown_server',
      `there is no server "${target.name}" in ${file} (${listed}), so nothing was changed. A plugin's or the host's server is turned on and off under "overrides".`,
      { file, server: target.name },
    );
  }
  const object = member?.children?.[1];
  if (object !== undefined && object.type !== 'object') {
    return refuse(
      'invalid_value',
      `${file}:${lineOf(text, object.offset)}: ${describe(target)} must be an object, so it was not changed. Fix it by hand.`,
      { file, server: target.name, field: formatPath(entryPath(target)) },
    );
  }
  return { ok: true, value: { text, file, target, root, container, member, object } };
}

/** `server "github"` or `the override of "acme__search"`, as a message names the entry. */
export function describe(target: ChoiceTarget): string {
  return target.kind === 'user' ? `server "${target.name}"` : `the override of "${target.name}"`;
}

export function entryPath(target: ChoiceTarget): string[] {
  return [CONTAINER[target.kind], target.name];
}

/** The entry's fields in file order; none for an override not written yet. */
export function fieldsOf(entry: Entry): Node[] {
  return entry.object === undefined ? [] : membersOf(entry.object);
}

/** The entry's last field called `key` (the one the loader reads). */
export function fieldOf(entry: Entry, key: string): Node | undefined {
  return fieldsOf(entry).findLast((field) => field.children?.[0]?.value === key);
}

export function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split(/\r\n|\r|\n/).length;
}

/** `field`'s value replaced by `json`. */
export function setValue(entry: Entry, field: Node, json: string): Edited {
  const { text } = entry;
  const value = field.children?.[1] as Node;
  const after = text.slice(0, value.offset) + json + text.slice(value.offset + value.length);
  return { text: after, line: lineOf(text, field.offset) };
}

/** `"<key>": <value>` added as the entry's last field, creating the entry and `overrides` if needed. */
export function addField(entry: Entry, key: string, value: unknown): Edited {
  const { text, root, container, object, target } = entry;
  const field = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  const [insertion, along] =
    object !== undefined && root !== undefined
      ? [insertInto(text, root, object, () => field), undefined]
      : newEntry(text, root, container, renderServer(target.name, { [key]: value }));
  const after = splice(text, insertion);
  const added = membersOf(valueAt(parse(after), entryPath(target)) as Node).findLast(
    (f) => f.children?.[0]?.value === key,
  );
  const line = lineOf(after, added?.offset ?? insertion.offset);
  return {
    text: after,
    line,
    ...(along === undefined ? {} : { along: { what: along, created: true } }),
  };
}

function newEntry(
  text: string,
  root: Node | undefined,
  overrides: Node | undefined,
  render: RenderMember,
): [Insertion, 'entry' | 'overrides'] {
  if (root !== undefined && overrides !== undefined) {
    return [insertInto(text, root, overrides, render), 'entry'];
  }
  return [insertTopLevel(text, root, wrapIn('overrides', render)), 'overrides'];
}

/** `element` (JSON-encoded) added as the last element of the list `field` holds. */
export function addElement(entry: Entry, field: Node, element: string): Edited {
  const { text, root } = entry;
  const list = field.children?.[1] as Node;
  const after = splice(
    text,
    insertInto(text, root as Node, list, () => JSON.stringify(element)),
  );
  const key = String(field.children?.[0]?.value);
  const added = valueAt(parse(after), [...entryPath(entry.target), key])?.children?.at(-1);
  return { text: after, line: lineOf(after, added?.offset ?? list.offset) };
}

/** `field` taken out of the entry; an override left empty goes, and `overrides` left empty too. */
export function removeField(entry: Entry, field: Node): Edited {
  const { text, root, container, member, object, target } = entry;
  const line = lineOf(text, field.offset);
  if (target.kind === 'override' && fieldsOf(entry).length === 1 && !holdsComment(text, object)) {
    const overrides = membersOf(container as Node);
    if (overrides.length > 1 || holdsComment(text, container)) {
      const after = remove(text, overrides, member as Node, ['overrides']);
      return { text: after, line, along: { what: 'entry', created: false } };
    }
    const top = membersOf(root as Node);
    const at = top.find((m) => m.children?.[1] === container) as Node;
    return { text: remove(text, top, at, []), line, along: { what: 'overrides', created: false } };
  }
  return { text: remove(text, fieldsOf(entry), field, entryPath(target)), line };
}

function holdsComment(text: string, node: Node | undefined): boolean {
  return node !== undefined && commentWithin(text, node.offset, node.offset + node.length);
}

/** `element` taken out of the list `field` holds; the field itself when it was the only one. */
export function removeElement(entry: Entry, field: Node, element: Node): Edited {
  const elements = field.children?.[1]?.children ?? [];
  if (elements.length === 1) return removeField(entry, field);
  const key = String(field.children?.[0]?.value);
  const path = [...entryPath(entry.target), key];
  return {
    text: remove(entry.text, elements, element, path),
    line: lineOf(entry.text, element.offset),
  };
}

/** `item` (one of `items`) taken out of the object or array at `path` (the top level for []). */
function remove(text: string, items: readonly Node[], item: Node, path: string[]): string {
  const previous = items[items.indexOf(item) - 1];
  return applyDeletions(
    text,
    removeItem(text, item, { previous, reinsert: reinsertAt(path), withComment: false }),
  );
}

// The insertion that may have written an item of the object or array at `path`: the same call the
// edit makes, on the text the item would have been inserted into.
function reinsertAt(path: readonly string[]): Reinsert {
  return (original, item) => {
    const root = parse(original);
    if (path.length === 0)
      return splice(
        original,
        insertTopLevel(original, root, () => item),
      );
    const container = root === undefined ? undefined : valueAt(root, path);
    if (container === undefined || root === undefined) return undefined;
    if (container.type !== 'object' && container.type !== 'array') return undefined;
    return splice(
      original,
      insertInto(original, root, container, () => item),
    );
  };
}

function valueAt(root: Node | undefined, path: readonly string[]): Node | undefined {
  let node = root;
  for (const [depth, key] of path.entries()) {
    if (node?.type !== 'object') return undefined;
    node = depth === 0 && key === 'servers' ? serversOf(node) : propertyValue(node, key);
  }
  return node;
}

function parse(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
}

function splice(text: string, insertion: Insertion): string {
  return text.slice(0, insertion.offset) + insertion.text + text.slice(insertion.offset);
}
