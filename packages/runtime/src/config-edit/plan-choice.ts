// What turning a server, or some of its tools, on or off does to the text of mcp.json. Pure: text
// in; the new text, or the refusal, and what changed at which line, out. Only the field or list
// element that says the choice changes; every other byte (comments, key order, aliases, camelCase,
// CRLF, a BOM, trailing commas) stays.
//
// The rules are chosen so that turning something off and then on again gives back the original:
// - Server off: `"enabled"` becomes false, else `"disabled"` (Claude Desktop's and Cline's way of
//   saying it) becomes true, else `"enabled": false` is added. On: `"enabled": false` is taken out
//   (absent means on, and is what there was before), `"disabled": true` becomes false (the alias
//   stays). One loss: a hand-written `"enabled": true` turned off and on again is taken out.
// - Tool off: its name is appended to exclude_tools (created in the entry's spelling when absent).
//   A tool already off — named there, matched by a pattern there, or left out of include_tools —
//   is left as it is, so turning it on again has nothing to take out that the user wrote.
// - Tool on: its name is taken out of exclude_tools (the list too when nothing else is in it), or
//   appended to include_tools when that list leaves it out. One off by a `*` pattern is refused:
//   which of the tools it matches the user wants back is theirs to say, by editing the pattern.
// - A field of the wrong type where the edit reads or writes is refused with file:line: the text
//   is the user's, and a guess at what `"enabled": "no"` means would be ours.
import { formatPath } from '@epoch-agent/infra';
import { matchesToolPattern } from '@epoch-agent/plugin-mcp/config';
import type { Node } from 'jsonc-parser';
import { SERVER_NAME_PATTERN } from '../servers/server-names.js';
import {
  addElement,
  addField,
  type ChoiceTarget,
  describe,
  type Edited,
  type Entry,
  entryPath,
  fieldOf,
  fieldsOf,
  lineOf,
  locateEntry,
  removeElement,
  removeField,
  setValue,
} from './choice-entry.js';
import { type Plan, refuse } from './plan-add.js';

export type { ChoiceTarget } from './choice-entry.js';

export type ChoiceEdit =
  /** The whole server on or off. */
  | { readonly kind: 'server'; readonly enabled: boolean }
  /** These tools of the server (as the server names them) on or off. */
  | { readonly kind: 'tools'; readonly tools: readonly string[]; readonly enabled: boolean };

export interface ChoiceChange {
  /** The 1-based line of the file it is about (for a removal, where the removed text was). */
  readonly line: number;
  /** `set "enabled": false`, `added "x" to "exclude_tools"`, or that a choice was already so. */
  readonly text: string;
  /** False for a choice that was already so, and left as it was. */
  readonly changed: boolean;
}

export interface ChoicePlan {
  readonly text: string;
  readonly changed: boolean;
  /** One per change made, or per choice that was already so, in the order made. */
  readonly changes: readonly ChoiceChange[];
}

type Step =
  | { readonly kind: 'done'; readonly change: ChoiceChange }
  | { readonly kind: 'edit'; readonly edited: Edited; readonly text: string };

interface List {
  readonly key: string;
  readonly field: Node;
  readonly elements: readonly { readonly node: Node; readonly value: string }[];
}

export function planChoice(
  text: string,
  file: string,
  target: ChoiceTarget,
  edit: ChoiceEdit,
): Plan<ChoicePlan> {
  const invalid = invalidName(file, target, edit);
  if (invalid !== undefined) return invalid;
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let body = text.slice(bom.length);
  const goals: ((entry: Entry) => Plan<Step>)[] =
    edit.kind === 'server'
      ? [(entry) => serverStep(entry, edit.enabled)]
      : edit.tools.map((tool) => (entry) => toolStep(entry, tool, edit.enabled));
  const changes: ChoiceChange[] = [];
  for (const goal of goals) {
    // A goal can take more than one edit: a name given twice in exclude_tools goes twice.
    for (let edits = 0; ; edits++) {
      const entry = locateEntry(body, file, target);
      if (!entry.ok) return entry;
      const step = goal(entry.value);
      if (!step.ok) return step;
      if (step.value.kind === 'done') {
        if (edits === 0) changes.push(step.value.change);
        break;
      }
      const { edited } = step.value;
      body = edited.text;
      const text = step.value.text + alongText(edited, target);
      changes.push({ line: edited.line, text, changed: true });
    }
  }
  const after = bom + body;
  return { ok: true, value: { text: after, changed: after !== text, changes } };
}

function invalidName(
  file: string,
  target: ChoiceTarget,
  edit: ChoiceEdit,
): Plan<never> | undefined {
  // An override may create its entry, so its name is held to what a server name can be.
  if (target.kind === 'override' && !SERVER_NAME_PATTERN.test(target.name)) {
    return refuse(
      'invalid_name',
      `${JSON.stringify(target.name)} is not the name of a plugin's or the host's server (those use only letters, digits, "_" and "-", like myplugin__fs), so ${file} was not changed.`,
      { file, server: target.name },
    );
  }
  const starred = edit.kind === 'tools' ? edit.tools.find((tool) => tool.includes('*')) : undefined;
  if (starred === undefined) return undefined;
  return refuse(
    'invalid_name',
    `tool name ${JSON.stringify(starred)} holds "*", which the tool lists read as a pattern, so ${file} was not changed. Edit the lists by hand to use a pattern.`,
    { file, server: target.name },
  );
}

function serverStep(entry: Entry, enabled: boolean): Plan<Step> {
  const on = booleanField(entry, 'enabled');
  if (!on.ok) return on;
  const off = booleanField(entry, 'disabled');
  if (!off.ok) return off;
  if (on.value !== undefined && off.value !== undefined) {
    return bothSpellings(entry, on.value.field, off.value.field);
  }
  const who = describe(entry.target);
  const flag = on.value ?? off.value;
  if (flag === undefined) {
    if (!enabled) return edit(addField(entry, 'enabled', false), 'added "enabled": false');
    return done(entryLine(entry), `${who} is already on`);
  }
  const key = on.value === undefined ? 'disabled' : 'enabled';
  const line = lineOf(entry.text, flag.field.offset);
  if ((key === 'enabled') === (flag.value === enabled)) {
    return done(line, `${who} is already ${enabled ? 'on' : 'off'} ("${key}": ${flag.value})`);
  }
  if (key === 'enabled' && enabled) {
    return edit(removeField(entry, flag.field), 'removed "enabled": false');
  }
  return edit(setValue(entry, flag.field, String(!flag.value)), `set "${key}": ${!flag.value}`);
}

function toolStep(entry: Entry, tool: string, enabled: boolean): Plan<Step> {
  const exclude = listField(entry, 'exclude_tools', 'excludeTools');
  if (!exclude.ok) return exclude;
  const include = listField(entry, 'include_tools', 'includeTools');
  if (!include.ok) return include;
  const ex = exclude.value;
  const inc = include.value;
  const name = JSON.stringify(tool);
  const literal = ex?.elements.findLast((element) => element.value === tool);
  const pattern = ex?.elements.find((e) => e.value !== tool && matchesToolPattern(e.value, tool));
  const included = inc === undefined || inc.elements.some((e) => matchesToolPattern(e.value, tool));
  const at = (node: Node) => lineOf(entry.text, node.offset);
  if (!enabled) {
    if (ex !== undefined && literal !== undefined) {
      return done(at(literal.node), `${name} is already off ("${ex.key}" names it)`);
    }
    if (ex !== undefined && pattern !== undefined) {
      const why = `pattern ${JSON.stringify(pattern.value)} of "${ex.key}"`;
      return done(at(pattern.node), `${name} is already off (${why})`);
    }
    if (inc !== undefined && !included) {
      return done(at(inc.field), `${name} is already off ("${inc.key}" leaves it out)`);
    }
    if (ex !== undefined)
      return edit(addElement(entry, ex.field, tool), `added ${name} to "${ex.key}"`);
    const key = writesCamelCase(entry) ? 'excludeTools' : 'exclude_tools';
    return edit(addField(entry, key, [tool]), `added "${key}": [${name}]`);
  }
  if (ex !== undefined && pattern !== undefined) {
    const index = ex.elements.indexOf(pattern);
    return refuse(
      'excluded_by_pattern',
      `${entry.file}:${at(pattern.node)}: ${name} is turned off by the pattern ${JSON.stringify(pattern.value)} in "${ex.key}" of ${describe(entry.target)}, so it cannot be turned on by its name. Edit that pattern so it no longer matches ${name} (or take it out), then try again.`,
      {
        file: entry.file,
        server: entry.target.name,
        field: formatPath([...entryPath(entry.target), ex.key, index]),
      },
    );
  }
  if (ex !== undefined && literal !== undefined) {
    const text =
      ex.elements.length === 1
        ? `removed "${ex.key}": [${name}]`
        : `removed ${name} from "${ex.key}"`;
    return edit(removeElement(entry, ex.field, literal.node), text);
  }
  if (inc !== undefined && !included) {
    return edit(addElement(entry, inc.field, tool), `added ${name} to "${inc.key}"`);
  }
  return done(entryLine(entry), `${name} is already on`);
}

function booleanField(
  entry: Entry,
  key: string,
): Plan<{ readonly field: Node; readonly value: boolean } | undefined> {
  const field = fieldOf(entry, key);
  const value = field?.children?.[1];
  if (field === undefined || value === undefined) return { ok: true, value: undefined };
  if (value.type === 'boolean') return { ok: true, value: { field, value: value.value === true } };
  return wrongType(entry, value, [key], `"${key}" must be true or false`);
}

/** The list under either spelling; both at once is refused, as is anything but strings. */
function listField(entry: Entry, snake: string, camel: string): Plan<List | undefined> {
  const a = fieldOf(entry, snake);
  const b = fieldOf(entry, camel);
  if (a !== undefined && b !== undefined) return bothSpellings(entry, a, b);
  const field = a ?? b;
  const value = field?.children?.[1];
  if (field === undefined || value === undefined) return { ok: true, value: undefined };
  const key = field === a ? snake : camel;
  if (value.type !== 'array') {
    return wrongType(entry, value, [key], `"${key}" must be a list of tool names`);
  }
  const elements: { node: Node; value: string }[] = [];
  for (const [index, node] of (value.children ?? []).entries()) {
    if (node.type !== 'string') {
      return wrongType(entry, node, [key, index], `"${key}" must hold only tool names (strings)`);
    }
    elements.push({ node, value: String(node.value) });
  }
  return { ok: true, value: { key, field, elements } };
}

function wrongType(
  entry: Entry,
  node: Node,
  path: readonly (string | number)[],
  rule: string,
): Plan<never> {
  return refuse(
    'invalid_value',
    `${entry.file}:${lineOf(entry.text, node.offset)}: ${rule} in ${describe(entry.target)}, so nothing was changed. Fix it by hand, then try again.`,
    {
      file: entry.file,
      server: entry.target.name,
      field: formatPath([...entryPath(entry.target), ...path]),
    },
  );
}

function bothSpellings(entry: Entry, a: Node, b: Node): Plan<never> {
  const [first, second] = [a, b].sort((x, y) => x.offset - y.offset) as [Node, Node];
  const key = (field: Node) => JSON.stringify(field.children?.[0]?.value);
  const line = (field: Node) => lineOf(entry.text, field.offset);
  return refuse(
    'invalid_value',
    `${entry.file}:${line(second)}: ${describe(entry.target)} has both ${key(first)} (line ${line(first)}) and ${key(second)}, which say the same thing, so nothing was changed. Keep one, then try again.`,
    {
      file: entry.file,
      server: entry.target.name,
      field: formatPath([...entryPath(entry.target), String(second.children?.[0]?.value)]),
    },
  );
}

/** An entry written in camelCase: a key of two words in camelCase, and none in snake_case. */
function writesCamelCase(entry: Entry): boolean {
  const keys = fieldsOf(entry).map((field) => String(field.children?.[0]?.value));
  return (
    keys.some((key) => /^[a-z][a-z0-9]*[A-Z]/.test(key)) &&
    !keys.some((key) => /[A-Za-z0-9]_[A-Za-z0-9]/.test(key))
  );
}

function entryLine(entry: Entry): number {
  return entry.member === undefined ? 1 : lineOf(entry.text, entry.member.offset);
}

function done(line: number, text: string): Plan<Step> {
  return { ok: true, value: { kind: 'done', change: { line, text, changed: false } } };
}

function edit(edited: Edited, text: string): Plan<Step> {
  return { ok: true, value: { kind: 'edit', edited, text } };
}

function alongText({ along }: Edited, target: ChoiceTarget): string {
  if (along === undefined) return '';
  const what = along.what === 'entry' ? describe(target) : '"overrides"';
  return along.created
    ? `, in a new ${along.what === 'entry' ? 'override' : '"overrides"'}`
    : `, and with it ${what} (nothing else was in it)`;
}
