// `epoch mcp get <name>`: one server as it takes effect — every field of its transport, written,
// defaulted or inferred, and the file and line each written one comes from. Secrets redacted.
import { groupedNumber, terminalJson } from '@epoch-agent/infra';
import type { McpProtocol } from '@epoch-agent/runtime';
import {
  diagnosticServer,
  lastProtocol,
  readMcpServers,
  type ServerField,
  type ServerFieldSource,
  type ServerFieldVariable,
  serverFields,
} from '@epoch-agent/runtime/config';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { lineRoom, wrapCells } from '../render/cells.js';
import { shownConfig, textOut } from '../render/config-text.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { columnWidths, tableLine } from '../render/table.js';
import { findServer } from './server-lookup.js';

/** `epoch mcp get`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  const read = await readMcpServers({ configFile: invocation.configFile, signal: io.signal });
  const { plugin, user, project } = read.diagnostics;
  const found = [...plugin, ...user, ...project];
  const server = findServer(read.servers, found, name, read.configFile);
  const { at, fields } = serverFields(server, read.configFile);
  const { source } = server.origin;
  const protocol = await lastProtocol(server.config);
  const diagnostics = found.filter(
    (d) => diagnosticServer(read.servers, d, read.configFile) === name,
  );
  if (invocation.json) {
    const json = { name, source, transport: server.config.transport, at, fields, protocol };
    io.out(`${terminalJson({ ...json, diagnostics }, 2)}\n`);
    return EXIT.ok;
  }
  // Every line is the file's text as much as epoch's: all of it goes out escaped.
  const out = textOut(io);
  const where = at === undefined ? 'given in code' : `${at.file}:${at.line}:${at.column}`;
  out(`${name} (${source} server, ${server.config.transport}) — ${where}\n\n`);
  out(renderFields(fields, lineRoom(io.columns)));
  const variables = fields.flatMap((field) => field.variables ?? []);
  if (variables.length > 0) out(`\n${variablesText(variables)}`);
  out(`\n${protocolLine(protocol)}\n`);
  out(renderDiagnostics(diagnostics, lineRoom(io.columns)));
  return EXIT.ok;
}

/**
 * FIELD, FROM, VALUE: what a FROM needs more words for (an inferred transport, a value from the
 * user's overrides) is a numbered note under the table, so the column stays narrow; on a terminal
 * a long value (args, env) wraps within the VALUE column instead of past the edge.
 */
function renderFields(fields: readonly ServerField[], room: number): string {
  const notes: string[] = [];
  const rows = fields.map(({ field, value, from }) => {
    const { text, note } = shownSource(field, from);
    if (note === undefined) return [field, text, shownValue(field, value)];
    if (!notes.includes(note)) notes.push(note);
    return [field, `${text} [${notes.indexOf(note) + 1}]`, shownValue(field, value)];
  });
  const header = ['FIELD', 'FROM', 'VALUE'];
  const widths = columnWidths([header, ...rows]);
  const indent = (widths[0] ?? 0) + (widths[1] ?? 0) + 4;
  const lines = [header, ...rows].flatMap(([field = '', from = '', value = '']) => {
    // Escaped before it is wrapped, so the cut counts the cells it is shown in.
    const [first = '', ...more] = wrapCells(shownConfig(value), room - indent);
    return [tableLine([field, from, first], widths), ...more.map((m) => ' '.repeat(indent) + m)];
  });
  const footnotes = notes.map((note, i) => `[${i + 1}] ${note}\n`).join('');
  return `${lines.join('\n')}\n${footnotes === '' ? '' : `\n${footnotes}`}`;
}

/**
 * Whether each is set, never its value: the value is the secret the variable keeps out of the file.
 * A variable used alike in many fields is one line, at its first field with a count of the others.
 */
function variablesText(variables: readonly ServerFieldVariable[]): string {
  const alike = new Map<string, { first: ServerFieldVariable; others: Set<string> }>();
  for (const variable of variables) {
    const key = JSON.stringify([variable.name, variable.set, variable.default ?? null]);
    const seen = alike.get(key);
    if (seen === undefined) alike.set(key, { first: variable, others: new Set() });
    else if (variable.in !== seen.first.in) seen.others.add(variable.in);
  }
  const lines = [...alike.values()].map(({ first, others }) => {
    const { name, in: field, set, default: fallback } = first;
    const state = set ? 'set' : fallback === undefined ? 'not set' : 'not set, so';
    const value =
      !set && fallback !== undefined ? ` ${JSON.stringify(fallback)} (its default)` : '';
    const more = others.size === 0 ? '' : ` and ${groupedNumber(others.size)} more fields`;
    return `  \${${name}} in ${field}${more}: ${state}${value}`;
  });
  return `variables (read from the environment each time the server starts):\n${lines.join('\n')}\n`;
}

// Known only from the last connection with this very config: get never connects.
function protocolLine(protocol: McpProtocol | undefined): string {
  if (protocol === undefined)
    return 'protocol: not known yet (it has not connected with this config)';
  const era = protocol.era === 'modern' ? 'no handshake' : 'initialize handshake';
  return `protocol: MCP ${protocol.version} (${era}), as it last connected`;
}

// The numbers of the table are seconds, but for these.
const TOKENS: ReadonlySet<ServerField['field']> = new Set(['max_output_tokens']);

function shownValue(field: ServerField['field'], value: unknown): string {
  if (value === undefined) return '-';
  if (typeof value === 'number') {
    if (TOKENS.has(field)) return `${value} tokens`;
    // 0 turns what it times off.
    return value === 0 ? '0 (off)' : `${value} s`;
  }
  // An empty list (no args, exclude_tools none) says nothing, as an empty map does.
  if (Array.isArray(value)) return value.map((v) => JSON.stringify(v)).join(' ') || '-';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '-';
    return entries
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  }
  return String(value);
}

function shownSource(
  field: string,
  from: ServerFieldSource,
): { readonly text: string; readonly note?: string } {
  switch (from.kind) {
    case 'file':
      return { text: `line ${from.line}${from.key === field ? '' : ` (as "${from.key}")`}` };
    case 'override': {
      const as = from.key === field ? '' : `, as "${from.key}"`;
      const added = field === 'exclude_tools' ? ", added to the entry's" : '';
      return {
        text: 'overrides',
        note: `your "overrides" at ${from.file}:${from.line}${as}${added}`,
      };
    }
    case 'default':
      return { text: 'default' };
    case 'inferred':
      return { text: 'inferred', note: 'no "transport": a url means sse, none means stdio' };
    case 'host':
      return { text: 'host code' };
  }
}
