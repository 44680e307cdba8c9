// `epoch mcp list`: the servers epoch would start — the user's file and installed plugins — as it
// read them, with every problem it found. It never connects; it answers "did epoch read my file
// the way I meant it?".
import { terminalJson } from '@epoch-agent/infra';
import { type ConfiguredServer, readMcpServers } from '@epoch-agent/runtime/config';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { hasErrors, renderDiagnostics } from '../render/diagnostics.js';
import { renderTable } from '../render/table.js';
import { printableConfig, target } from '../render/target.js';

/** `epoch mcp list`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  const read = await readMcpServers({ configFile: invocation.configFile });
  const diagnostics = [...read.diagnostics.plugin, ...read.diagnostics.user];
  if (invocation.json) {
    const servers = read.servers.map(shown);
    io.out(`${terminalJson({ file: read.configFile, servers, diagnostics }, 2)}\n`);
  } else {
    io.out(renderServers(read.configFile, read.servers));
    io.out(renderDiagnostics(diagnostics));
  }
  return hasErrors(diagnostics) ? EXIT.failed : EXIT.ok;
}

function renderServers(file: string, servers: readonly ConfiguredServer[]): string {
  if (servers.length === 0) return `No MCP servers in ${file} or in installed plugins.\n`;
  const rows = servers.map(({ config, origin }) => [
    config.name,
    origin.source,
    config.transport,
    target(config),
  ]);
  return `MCP servers (your file: ${file}):\n\n${renderTable(['NAME', 'SOURCE', 'TRANSPORT', 'TARGET'], rows)}`;
}

/** A server as JSON: its config with every secret redacted, and where it comes from. */
function shown({ config, origin }: ConfiguredServer): unknown {
  return { ...printableConfig(config), target: target(config), origin };
}
