// `epoch mcp get <name>`: one server as it takes effect — every field of its transport, written,
// defaulted or inferred, and the file and line each written one comes from. Secrets redacted.
import { terminalJson } from '@epoch-agent/infra';
import type { McpProtocol } from '@epoch-agent/runtime';
import {
  lastProtocol,
  readMcpServers,
  type ServerField,
  type ServerFieldSource,
  type ServerFieldVariable,
  serverFields,
} from '@epoch-agent/runtime/config';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { renderTable } from '../render/table.js';
import { findServer } from './server-lookup.js';

/** `epoch mcp get`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  const read = await readMcpServers({ configFile: invocation.configFile });
  const server = findServer(
    read.servers,
    [...read.diagnostics.plugin, ...read.diagnostics.user],
    name,
    read.configFile,
  );
  const { at, fields } = serverFields(server, read.configFile);
  const { source } = server.origin;
  const protocol = await lastProtocol(server.config);
  if (invocation.json) {
    const json = { name, source, transport: server.config.transport, at, fields, protocol };
    io.out(`${terminalJson(json, 2)}\n`);
    return EXIT.ok;
  }
  const where = at === undefined ? 'given in code' : `${at.file}:${at.line}:${at.column}`;
  io.out(`${name} (${source} server, ${server.config.transport}) — ${where}\n\n`);
  io.out(renderTable(['FIELD', 'FROM', 'VALUE'], fields.map(row)));
  const variables = fields.flatMap((field) => field.variables ?? []);
  if (variables.length > 0) io.out(`\n${variablesText(variables)}`);
  io.out(`\n${protocolLine(protocol)}\n`);
  return EXIT.ok;
}

// Whether each is set, never its value: the value is the secret the variable keeps out of the file.
function variablesText(variables: readonly ServerFieldVariable[]): string {
  const lines = variables.map(({ name, in: field, set, default: fallback }) => {
    const state = set ? 'set' : fallback === undefined ? 'not set' : 'not set, so';
    const value =
      !set && fallback !== undefined ? ` ${JSON.stringify(fallback)} (its default)` : '';
    return `  \${${name}} in ${field}: ${state}${value}`;
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

function row({ field, value, from }: ServerField): string[] {
  return [field, shownSource(field, from), shownValue(value)];
}

function shownValue(value: unknown): string {
  if (value === undefined) return '-';
  // Every number of the table is seconds, and 0 turns what it times off.
  if (typeof value === 'number') return value === 0 ? '0 (off)' : `${value} s`;
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

function shownSource(field: string, from: ServerFieldSource): string {
  switch (from.kind) {
    case 'file':
      return `line ${from.line}${from.key === field ? '' : ` (as "${from.key}")`}`;
    case 'override':
      return `${from.file}:${from.line} (your "overrides"${from.key === field ? '' : `, as "${from.key}"`}${field === 'exclude_tools' ? ", added to the entry's" : ''})`;
    case 'default':
      return 'default';
    case 'inferred':
      return 'inferred (no "transport": a url means sse, none means stdio)';
    case 'host':
      return 'host code';
  }
}
