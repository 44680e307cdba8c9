// `epoch mcp status`: connects to every server, the way the agent does, and shows how each one is
// doing and the tools the model gets from it, under the names the ToolRegistry gave them; then
// closes them all. It answers "does my MCP setup work?", where `epoch mcp list` answers "did epoch
// read my file the way I meant it?".
import { terminalJson } from '@epoch-agent/infra';
import type { McpServerStatus, Runtime } from '@epoch-agent/runtime';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { hasErrors, renderDiagnostics } from '../render/diagnostics.js';
import { shownLine } from '../render/server-text.js';
import { renderTable } from '../render/table.js';
import { cut, firstLine } from '../render/tools.js';
import { withRuntime } from '../session.js';
import { statusDetail } from './server-status.js';
import { toolsOf } from './tools-of.js';

// Tool lines are cut to the terminal's width; off a terminal (a pipe, a log) to this one.
const DEFAULT_WIDTH = 100;
// Narrower than this, a cut description says nothing; let the terminal wrap instead.
const MIN_WIDTH = 60;

/** `epoch mcp status`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  // No schema cache: a cached server would be reported `connecting` instead of being tried.
  return withRuntime(io, invocation, { schemaCache: null }, async (runtime) => {
    const statuses = runtime.mcp.statuses();
    const diagnostics = runtime.diagnostics();
    if (invocation.json) {
      const servers = statuses.map((status) => ({
        ...status,
        tools: toolsOf(runtime, status.name).map(({ name }) => name),
      }));
      io.out(`${terminalJson({ file: runtime.configFile, servers, diagnostics }, 2)}\n`);
    } else if (statuses.length === 0) {
      io.out(`No MCP servers in ${runtime.configFile} or in installed plugins.\n`);
      io.out(renderDiagnostics(diagnostics));
    } else {
      const width = Math.max(MIN_WIDTH, io.columns ?? DEFAULT_WIDTH);
      io.out(renderStatuses(runtime, statuses));
      for (const { name } of statuses) io.out(renderToolNames(runtime, name, width));
      io.out(renderDiagnostics(diagnostics));
      io.out(`\n${summary(statuses)}\n`);
    }
    const allConnected = statuses.every(({ state }) => state === 'connected');
    return allConnected && !hasErrors(diagnostics) ? EXIT.ok : EXIT.failed;
  });
}

/** One row per server, the reason for a failure indented right under its row. */
function renderStatuses(runtime: Runtime, statuses: readonly McpServerStatus[]): string {
  const rows = statuses.map((status) => [
    status.name,
    status.source,
    status.transport,
    status.state,
    String(toolsOf(runtime, status.name).length),
  ]);
  const [header = '', ...lines] = renderTable(
    ['NAME', 'SOURCE', 'TRANSPORT', 'STATE', 'TOOLS'],
    rows,
  )
    .trimEnd()
    .split('\n');
  const out = [header];
  statuses.forEach((status, i) => {
    out.push(lines[i] ?? '', ...statusDetail(status));
  });
  return `${out.join('\n')}\n`;
}

function renderToolNames(runtime: Runtime, server: string, width: number): string {
  const tools = toolsOf(runtime, server);
  if (tools.length === 0) return '';
  const nameWidth = Math.max(...tools.map(({ name }) => name.length));
  const lines = tools.map(({ name, tool }) => {
    const head = `  ${name.padEnd(nameWidth)}  `;
    const about = shownLine(firstLine(tool.description) || (tool.title ?? ''));
    return `${head}${cut(about, width - head.length)}`.trimEnd();
  });
  return `\nTools of ${server} (${tools.length}):\n${lines.join('\n')}\n`;
}

function summary(statuses: readonly McpServerStatus[]): string {
  const down = statuses.filter(({ state }) => state !== 'connected');
  if (down.length === 0) return `All ${statuses.length} MCP server(s) connected.`;
  const names = down.map(({ name, state }) => `${name} (${state})`).join(', ');
  return `${statuses.length - down.length} of ${statuses.length} MCP server(s) connected; not connected: ${names}.`;
}
