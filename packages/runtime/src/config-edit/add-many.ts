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
  const refused = new Map<AddServerInput, McpConfigWriteError>();
  let going: AddServerInput[] = [];
  for (const server of servers) {
    try {
      checkNewServer(server, file);
      const taken = duplicateOf(names, server.name, file);
      if (taken !== undefined) throw taken;
      takeName(names, server.name);
      going.push(server);
    } catch (error) {
      if (!isMcpConfigWriteError(error) || !ONE_SERVER.has(error.code)) throw error;
      refused.set(server, error);
    }
  }
  // Each round leaves out the servers the load refused; an entry loads alone or not at all, so a
  // second round finds none.
  for (;;) {
    if (going.length === 0) {
      return { text, inserted: undefined, added: [], refused: inOrder(servers, refused) };
    }
    const piece = insertServer(body, parsed.value, joined(going));
    const after = bom + body.slice(0, piece.offset) + piece.text + body.slice(piece.offset);
    const out = loadRefusals(after, file, going);
    if (out.size === 0) {
      const inserted = { offset: bom.length + piece.offset, text: piece.text };
      const added = going.map(({ name }) => name);
      return { text: after, inserted, added, refused: inOrder(servers, refused) };
    }
    for (const [server, error] of out) refused.set(server, error);
    going = going.filter((server) => !out.has(server));
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

/** Each of `going` that does not load from `text` as addServer requires, with its refusal. */
function loadRefusals(
  text: string,
  file: string,
  going: readonly AddServerInput[],
): Map<AddServerInput, McpConfigWriteError> {
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
  const out = new Map<AddServerInput, McpConfigWriteError>();
  for (const server of going) {
    const diagnostics = own.get(server.name) ?? [];
    if (diagnostics.length === 0 && configs.has(server.name)) continue;
    out.set(server, notLoaded(server.name, diagnostics, file, 'added'));
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
): Map<AddServerInput, McpConfigWriteError> {
  const out = new Map<AddServerInput, McpConfigWriteError>();
  for (const server of going) {
    try {
      addServerToText('', file, server);
    } catch (error) {
      if (!isMcpConfigWriteError(error)) throw error;
      out.set(server, error);
    }
  }
  if (out.size > 0) return out;
  for (const server of going) {
    out.set(server, notLoaded(server.name, whole, file, 'added'));
  }
  return out;
}

function inOrder(
  servers: readonly AddServerInput[],
  refused: ReadonlyMap<AddServerInput, McpConfigWriteError>,
): McpConfigWriteError[] {
  return servers.flatMap((server) => refused.get(server) ?? []);
}
