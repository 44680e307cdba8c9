// `epoch mcp status`: connects to every server an mcp.json defines, the way the agent would, and
// shows how each one is doing and which tools the model would get from it; then disconnects. It
// answers "does my MCP setup actually work?" — where `epoch mcp list` only answers "did epoch
// read my file the way I meant it?".
import {
  loadMcpConfig,
  type McpEpochTool,
  McpRegistry,
  type McpServerStatus,
} from '@epoch-agent/plugin-mcp';
import { renderDiagnostics } from './diagnostics.js';
import type { CliIo, ExitCode } from './io.js';
import { renderTable } from './table.js';

export interface McpStatusOptions {
  readonly file: string;
  readonly json: boolean;
}

// Tool lines are cut to the terminal's width; off a terminal (a pipe, a log) to this one.
const DEFAULT_WIDTH = 100;
// Narrower than this, a cut description says nothing; let the terminal wrap instead.
const MIN_WIDTH = 60;

export async function mcpStatus(options: McpStatusOptions, io: CliIo): Promise<ExitCode> {
  const { servers, diagnostics } = await loadMcpConfig(options.file);
  const hasErrors = diagnostics.some((d) => d.severity === 'error');
  if (!options.json && servers.length > 0) {
    io.out(`Connecting to the ${servers.length} MCP server(s) in ${options.file} ...\n\n`);
  }
  // No schema cache: a cached server would be reported `connecting` instead of being tried.
  const registry = new McpRegistry({ schemaCache: null });
  let statuses: McpServerStatus[];
  let tools: McpEpochTool[];
  try {
    statuses = await registry.connectAll(servers, 'user');
    tools = registry.tools();
  } finally {
    await registry.disconnectAll();
  }
  const toolsOf = (server: string) => tools.filter((tool) => tool.server === server);
  if (options.json) {
    const shown = statuses.map((status) => ({
      ...status,
      tools: toolsOf(status.name).map((tool) => tool.name),
    }));
    io.out(`${JSON.stringify({ file: options.file, servers: shown, diagnostics }, null, 2)}\n`);
  } else if (statuses.length === 0) {
    io.out(`No MCP servers in ${options.file}.\n`);
    io.out(renderDiagnostics(diagnostics));
  } else {
    const width = Math.max(MIN_WIDTH, io.columns ?? DEFAULT_WIDTH);
    io.out(renderStatuses(statuses, toolsOf));
    for (const status of statuses) {
      const own = toolsOf(status.name);
      if (own.length > 0) io.out(renderTools(status.name, own, width));
    }
    io.out(renderDiagnostics(diagnostics));
    io.out(`\n${summary(statuses)}\n`);
  }
  const allConnected = statuses.every((status) => status.state === 'connected');
  return allConnected && !hasErrors ? 0 : 1;
}

/**
 * One row per server; a failed one is followed by its error and its stderr tail, indented, so the
 * reason sits right under the server it belongs to. TOOLS counts the tools the model gets,
 * list_resources / read_resource included, so it matches the lists below.
 */
function renderStatuses(
  statuses: readonly McpServerStatus[],
  toolsOf: (server: string) => readonly McpEpochTool[],
): string {
  const rows = statuses.map((status) => [
    status.name,
    status.transport,
    status.state,
    String(toolsOf(status.name).length),
  ]);
  const [header = '', ...lines] = renderTable(['NAME', 'TRANSPORT', 'STATE', 'TOOLS'], rows)
    .trimEnd()
    .split('\n');
  const out = [header];
  statuses.forEach((status, i) => {
    out.push(lines[i] ?? '');
    if (status.state !== 'failed') return;
    out.push(`  ${status.error.message}`);
    const stderr = status.stderrTail.trimEnd();
    if (stderr !== '') {
      out.push('  stderr (last lines):', ...stderr.split('\n').map((line) => `    ${line}`));
    }
  });
  return `${out.join('\n')}\n`;
}

function renderTools(server: string, tools: readonly McpEpochTool[], width: number): string {
  const nameWidth = Math.max(...tools.map((tool) => tool.name.length));
  const lines = tools.map((tool) => {
    const name = `  ${tool.name.padEnd(nameWidth)}  `;
    return `${name}${cut(about(tool), width - name.length)}`.trimEnd();
  });
  return `\nTools of ${server} (${tools.length}):\n${lines.join('\n')}\n`;
}

/** What a tool does, in one line: the first line of its description, else its title. */
function about(tool: McpEpochTool): string {
  const firstLine = tool.description.trim().split('\n')[0]?.trim() ?? '';
  return firstLine === '' ? (tool.title ?? '') : firstLine;
}

/** `text` in at most `room` characters, ending in an ellipsis when something was cut. */
function cut(text: string, room: number): string {
  const chars = [...text];
  if (chars.length <= room) return text;
  return room <= 1 ? '' : `${chars.slice(0, room - 1).join('')}…`;
}

function summary(statuses: readonly McpServerStatus[]): string {
  const failed = statuses.filter((status) => status.state !== 'connected');
  if (failed.length === 0) return `All ${statuses.length} MCP server(s) connected.`;
  const names = failed.map((status) => `${status.name} (${status.state})`).join(', ');
  return `${statuses.length - failed.length} of ${statuses.length} MCP server(s) connected; not connected: ${names}.`;
}
