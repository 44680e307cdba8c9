// Several new servers added to the text of mcp.json as ONE inserted piece, the file parsed once and
// the result loaded once (again only when a server is refused by the load): an import of thousands
// of servers costs what one large edit costs, never one parse of the whole file per server.
//
// The piece is what adding the servers one by one gives, byte for byte: after the first, each new
// member goes right after the one before it, at its indentation, behind `, ` (a file on one line)
// or `,` and a line break; a file whose last member has a trailing comma keeps one after the last
// new member. So removeServer of each still gives back the original bytes.
import type { Diagnostic } from '@epoch-agent/infra';
import { type McpServerConfig, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { isMcpConfigWriteError, type McpConfigWriteError } from './errors.js';
import type { Insertion, RenderMember } from './insert-member.js';
import { type AddServerInput, entryOf, renderServer } from './new-server.js';
import { duplicateOf, insertServer, namesIn, parseConfigText, takeName } from './plan-add.js';
import { addServerToText, checkNewServer, notLoaded, refuses, wholeFile } from './text-edits.js';

export interface AddedToText {
  /** The new text; the old one when no server was added. */
  readonly text: string;
  /** All the new entries as one piece; undefined when none was added. */
  readonly inserted: Insertion | undefined;
  /** The servers in the new text, in the order given. */
  readonly added: readonly string[];
  /** The servers refused one by one, in the order given. */
  readonly refused: readonly McpConfigWriteError[];
}

/**
 * addServer of each of `servers` on the text of the file (`file` names it in messages), in one
 * piece. A server addServer would refuse on its own (its name, its size, a copied placeholder, a
 * name the file or an earlier one of `servers` holds, an entry that does not load) is refused
 * alone; any other refusal (the file does not parse, its shape) is thrown as addServer throws it.
 */
export function addServersToText(
  text: string,
  file: string,
  servers: readonly AddServerInput[],
): AddedToText {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const parsed = parseConfigText(body, file);
  if (!parsed.ok) throw parsed.error;
  const names = namesIn(parsed.value.servers);
  // By index in `servers`: one object may be given twice.
  const refused = new Map<number, McpConfigWriteError>();
  const nameOf = (index: number) => (servers[index] as AddServerInput).name;
  let going: number[] = [];
  servers.forEach((server, index) => {
    try {
      checkNewServer(server, file);
      const taken = duplicateOf(names, server.name, file);
      if (taken !== undefined) throw taken;
      going.push(index);
    } catch (error) {
      if (!isMcpConfigWriteError(error) || !ONE_SERVER.has(error.code)) throw error;
      refused.set(index, error);
    }
  });
  const inOrder = () =>
    [...refused.keys()].sort((a, b) => a - b).map((i) => refused.get(i) as McpConfigWriteError);
  // Each round tries the first server of each name (case aside) and leaves out those the load
  // refuses: an entry loads alone or not at all, so the next round of the same names finds none.
  // A later server of a name waits for the earlier one's outcome, as one added after it would.
  for (;;) {
    const firsts = new Map<string, number>();
    for (const index of going) {
      const key = nameOf(index).toLowerCase();
      if (!firsts.has(key)) firsts.set(key, index);
    }
    const trying = [...firsts.values()];
    if (trying.length === 0) return { text, inserted: undefined, added: [], refused: inOrder() };
    const adding = trying.map((index) => servers[index] as AddServerInput);
    const piece = insertServer(body, parsed.value, joined(adding));
    const after = bom + body.slice(0, piece.offset) + piece.text + body.slice(piece.offset);
    const out = loadRefusals(after, file, adding);
    if (out.size === 0) {
      for (const { name } of adding) takeName(names, name);
      const tried = new Set(trying);
      for (const index of going) {
        if (tried.has(index)) continue;
        refused.set(index, duplicateOf(names, nameOf(index), file) as McpConfigWriteError);
      }
      const inserted = { offset: bom.length + piece.offset, text: piece.text };
      const added = adding.map(({ name }) => name);
      return { text: after, inserted, added, refused: inOrder() };
    }
    for (const index of trying) {
      const error = out.get(nameOf(index));
      if (error !== undefined) refused.set(index, error);
    }
    going = going.filter((index) => !refused.has(index));
  }
}

// A refusal of one server leaves the others to add; any other refusal is the whole file's.
const ONE_SERVER: ReadonlySet<McpConfigWriteError['code']> = new Set([
  'invalid_name',
  'duplicate_server',
  'invalid_server',
  'too_large',
  'secret_placeholder',
]);

/** The members of `servers`, drawn as insertMember would put them one after the other. */
function joined(servers: readonly AddServerInput[]): RenderMember {
  const renders = servers.map((server) => renderServer(server.name, entryOf(server)));
  return (layout) =>
    renders
      .map((render) => render(layout))
      .join(layout.inline ? ', ' : `,${layout.eol}${layout.indent}`);
}

/** Each of `going` that does not load from `text` as addServer requires: its refusal, by name. */
function loadRefusals(
  text: string,
  file: string,
  going: readonly AddServerInput[],
): Map<string, McpConfigWriteError> {
  const load = parseMcpConfig(text, file);
  const configs = new Map<string, McpServerConfig>();
  for (const config of load.servers)
    if (!configs.has(config.name)) configs.set(config.name, config);
  const own = new Map<string, Diagnostic[]>();
  const whole: Diagnostic[] = [];
  for (const d of load.diagnostics) {
    if (!refuses(d)) continue;
    if (wholeFile(d)) whole.push(d);
    const name = SERVER_PATH.exec(d.path)?.[1];
    if (name === undefined) continue;
    const list = own.get(name);
    if (list === undefined) own.set(name, [d]);
    else list.push(d);
  }
  if (whole.length > 0) return wholeFileRefusals(file, going, whole);
  const out = new Map<string, McpConfigWriteError>();
  for (const { name } of going) {
    const diagnostics = own.get(name) ?? [];
    if (diagnostics.length === 0 && configs.has(name)) continue;
    out.set(name, notLoaded(name, diagnostics, file, 'added'));
  }
  return out;
}

// A server's own diagnostics: its name is a plain key (checkNewServer), so it ends at `.`, `[` or
// the end of the path.
const SERVER_PATH = /^servers\.([A-Za-z0-9_-]+)(?:$|[.[])/;

/**
 * A diagnostic of the whole text (a syntax error, nesting too deep): the servers that are refused
 * in a file of their own are the cause; when none is, every one is refused with it.
 */
function wholeFileRefusals(
  file: string,
  going: readonly AddServerInput[],
  whole: readonly Diagnostic[],
): Map<string, McpConfigWriteError> {
  const out = new Map<string, McpConfigWriteError>();
  for (const server of going) {
    try {
      addServerToText('', file, server);
    } catch (error) {
      if (!isMcpConfigWriteError(error)) throw error;
      out.set(server.name, error);
    }
  }
  if (out.size > 0) return out;
  for (const { name } of going) out.set(name, notLoaded(name, whole, file, 'added'));
  return out;
}
