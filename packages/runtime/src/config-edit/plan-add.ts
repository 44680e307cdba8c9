// Where a new server goes in the text of mcp.json, and which files are refused. Pure: text in, one
// insertion (or the reason there is none) out.
//
// The server goes last in the `servers` object the loader reads (the last `servers` key, as
// JSON.parse would take it, or `mcpServers` in a file that writes that alias). A file without `servers` gets one as the last top-level member; a file
// that is empty or only comments gets the whole object appended.
import { parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { type Node, type ParseError, parseTree } from 'jsonc-parser';
import { McpConfigWriteError } from './errors.js';
import {
  type Insertion,
  indentUnit,
  insertMember,
  type RenderMember,
  type TextStyle,
} from './insert-member.js';
import { detectEol } from './jsonc-text.js';

export type Plan<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: McpConfigWriteError };

export interface ParsedConfig {
  readonly root: Node | undefined;
  /** The value of the last `servers` key (or `mcpServers`, its alias); undefined when there is none. */
  readonly servers: Node | undefined;
}

/** Parses `text` as the loader does; a syntax error or a wrong shape is the refusal. */
export function parseConfigText(text: string, file: string): Plan<ParsedConfig> {
  // Before parseTree, which recurses: the loader's scanner finds nesting too deep for it.
  const tooDeep = parseMcpConfig(text, file).diagnostics.filter((d) => d.code === 'too_deep');
  if (tooDeep.length > 0) {
    return refuse('syntax_error', `${file} was not changed. Fix the file first.`, {
      file,
      diagnostics: tooDeep,
    });
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length > 0) {
    // The loader words the diagnostic (file, field path, line:column), so a person sees the same
    // message here as at startup.
    const diagnostics = parseMcpConfig(text, file).diagnostics;
    const where = diagnostics[0];
    const at = where === undefined ? '' : ` at line ${where.line}, column ${where.column}`;
    return refuse(
      'syntax_error',
      `${file} has a JSON syntax error${at}, so it was not changed. Fix the file first.`,
      { file, diagnostics },
    );
  }
  if (root === undefined) return { ok: true, value: { root, servers: undefined } };
  if (root.type !== 'object') {
    return refuse(
      'invalid_shape',
      `${file} must hold an object like { "servers": { … } }, so it was not changed. Fix the file first.`,
      { file },
    );
  }
  const written = propertyValue(root, 'servers');
  const alias = propertyValue(root, 'mcpServers');
  if (written !== undefined && alias !== undefined) {
    return refuse(
      'invalid_shape',
      `${file} has both "servers" and "mcpServers" (Claude Desktop's name for "servers"), so it was not changed: move the entries of "mcpServers" into "servers", remove "mcpServers", and try again.`,
      { file },
    );
  }
  const key = written === undefined && alias !== undefined ? 'mcpServers' : 'servers';
  const servers = serversOf(root);
  if (servers !== undefined && servers.type !== 'object') {
    return refuse(
      'invalid_shape',
      `"${key}" in ${file} must be an object keyed by server name, so the file was not changed. Fix the file first.`,
      { file },
    );
  }
  return { ok: true, value: { root, servers } };
}

/** The insertion that adds the entry `render` draws as server `name`. */
export function planAdd(
  text: string,
  file: string,
  name: string,
  render: RenderMember,
): Plan<Insertion> {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok) return parsed;
  const taken = duplicateOf(namesIn(parsed.value.servers), name, file);
  if (taken !== undefined) return { ok: false, error: taken };
  return { ok: true, value: insertServer(text, parsed.value, render) };
}

/** What `render` draws, put last in the file's `servers` (which is made when there is none). */
export function insertServer(text: string, parsed: ParsedConfig, render: RenderMember): Insertion {
  const { root, servers } = parsed;
  if (root === undefined || servers === undefined) {
    return insertTopLevel(text, root, wrapIn('servers', render));
  }
  return insertInto(text, root, servers, render);
}

/**
 * The member `render` draws, added last to the top-level object of the file; a file that is empty
 * or only comments gets the whole object appended, laid out with two spaces.
 */
export function insertTopLevel(
  text: string,
  root: Node | undefined,
  render: RenderMember,
): Insertion {
  if (root !== undefined) return insertInto(text, root, root, render);
  const eol = detectEol(text);
  const unit = '  ';
  const member = render({ inline: false, indent: unit, eol, unit });
  const separator = text === '' || /[\r\n]$/.test(text) ? '' : eol;
  return { offset: text.length, text: `${separator}{${eol}${unit}${member}${eol}}${eol}` };
}

/** insertMember into `container` (an object or array of the file `root`), in the file's style. */
export function insertInto(
  text: string,
  root: Node,
  container: Node,
  render: RenderMember,
): Insertion {
  const style: TextStyle = { eol: detectEol(text), unit: indentUnit(text, root, container) };
  return insertMember(text, container, render, style);
}

/** The member `"<key>": { <what render draws> }`, as a new object would hold it. */
export function wrapIn(key: string, render: RenderMember): RenderMember {
  const name = JSON.stringify(key);
  return (layout) => {
    if (layout.inline) return `${name}: {${render(layout)}}`;
    const { eol, indent, unit } = layout;
    const entry = render({ ...layout, indent: indent + unit });
    return `${name}: {${eol}${indent}${unit}${entry}${eol}${indent}}`;
  };
}

/** The names `servers` holds, under their lower case: what a new name may not be. */
export function namesIn(servers: Node | undefined): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const member of servers === undefined ? [] : membersOf(servers)) {
    takeName(names, String(member.children?.[0]?.value));
  }
  return names;
}

/** Adds `name` to a map namesIn made. */
export function takeName(names: Map<string, string[]>, name: string): void {
  const key = name.toLowerCase();
  const held = names.get(key);
  if (held === undefined) names.set(key, [name]);
  else held.push(name);
}

/** Why server `name` may not be added beside `names` (namesIn's map), or undefined. */
export function duplicateOf(
  names: ReadonlyMap<string, readonly string[]>,
  name: string,
  file: string,
): McpConfigWriteError | undefined {
  const held = names.get(name.toLowerCase());
  if (held === undefined) return undefined;
  if (held.includes(name)) {
    return new McpConfigWriteError(
      'duplicate_server',
      `server "${name}" is already in ${file}; choose another name, or edit that entry by hand.`,
      { file, server: name },
    );
  }
  // Two names that differ only in case would give the model two near-identical tool prefixes.
  return new McpConfigWriteError(
    'duplicate_server',
    `server "${name}" was not added: ${file} already has server "${held[0]}", whose name differs only in case, and the model would see two near-identical tool prefixes; choose another name.`,
    { file, server: name },
  );
}

/** The property nodes of an object, in file order. */
export function membersOf(object: Node): Node[] {
  return (object.children ?? []).filter((child) => child.children?.[0] !== undefined);
}

/**
 * The servers of the file's top-level object `root`: its `servers`, or `mcpServers` (Claude
 * Desktop's name), which the loader reads as `servers`. An edit goes where the loader reads.
 */
export function serversOf(root: Node): Node | undefined {
  return propertyValue(root, 'servers') ?? propertyValue(root, 'mcpServers');
}

/** The value of the last member called `key` (the one JSON.parse and the loader keep). */
export function propertyValue(object: Node, key: string): Node | undefined {
  return membersOf(object).findLast((member) => member.children?.[0]?.value === key)?.children?.[1];
}

export function refuse<T>(...args: ConstructorParameters<typeof McpConfigWriteError>): Plan<T> {
  return { ok: false, error: new McpConfigWriteError(...args) };
}
