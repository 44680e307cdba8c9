// `epoch mcp list`: what the loader understood from an mcp.json, and every problem it found. It
// never connects; it answers "did epoch read my file the way I meant it?".
import { redact, redactArgs, redactUrl } from '@epoch-agent/infra';
import { loadMcpConfig, type McpServerConfig } from '@epoch-agent/plugin-mcp';
import { renderDiagnostics } from './diagnostics.js';
import type { CliIo, ExitCode } from './io.js';
import { renderTable } from './table.js';

export interface McpListOptions {
  readonly file: string;
  readonly json: boolean;
}

export async function mcpList(options: McpListOptions, io: CliIo): Promise<ExitCode> {
  const { servers, diagnostics } = await loadMcpConfig(options.file);
  const hasErrors = diagnostics.some((d) => d.severity === 'error');
  if (options.json) {
    const shown = servers.map((server) => redact({ ...server, ...printable(server) }));
    io.out(`${JSON.stringify({ file: options.file, servers: shown, diagnostics }, null, 2)}\n`);
  } else {
    io.out(renderServers(options.file, servers));
    io.out(renderDiagnostics(diagnostics));
  }
  return hasErrors ? 1 : 0;
}

function renderServers(file: string, servers: readonly McpServerConfig[]): string {
  if (servers.length === 0) return `No MCP servers in ${file}.\n`;
  const rows = servers.map((server) => [server.name, server.transport, target(server)]);
  return `MCP servers in ${file}:\n\n${renderTable(['NAME', 'TRANSPORT', 'TARGET'], rows)}`;
}

/** What the server runs or where it lives; env and header values never shown. */
function target(server: McpServerConfig): string {
  if (server.transport === 'stdio') return [server.command, ...redactArgs(server.args)].join(' ');
  return redactUrl(server.url);
}

/** The fields that hold secrets in free text rather than under a telling key. */
function printable(server: McpServerConfig): { url: string } | { args: string[] } {
  return server.transport === 'stdio'
    ? { args: redactArgs(server.args) }
    : { url: redactUrl(server.url) };
}
