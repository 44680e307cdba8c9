// `epoch mcp list`: the servers epoch would start — the user's file, installed plugins and the
// project's `.epoch/mcp.json` — as it read them, with what the files choose about each (disabled,
// which tools) and how many tools that leaves of the list each server gave at its last connection,
// which of them would wait for approval before starting, and every problem it found. It never
// connects; it answers "did epoch read my file the way I meant it?".
import { terminalJson } from '@epoch-agent/infra';
import type { McpApprovalReason, McpServerChoice, McpToolPattern } from '@epoch-agent/runtime';
import {
  type ConfiguredServer,
  lastToolCounts,
  readMcpServers,
  serversNeedingApproval,
  type ToolCounts,
} from '@epoch-agent/runtime/config';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { cutCells } from '../render/cells.js';
import { textOut } from '../render/config-text.js';
import { hasErrors, renderDiagnostics } from '../render/diagnostics.js';
import { noServers } from '../render/no-servers.js';
import { shownLine } from '../render/server-text.js';
import { renderTable } from '../render/table.js';
import { printableConfig, target } from '../render/target.js';
import { toolCount } from '../render/tools.js';

/** `epoch mcp list`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  const read = await readMcpServers({ configFile: invocation.configFile, signal: io.signal });
  const { plugin, user, project } = read.diagnostics;
  const diagnostics = [...plugin, ...user, ...project];
  const { configFile: file, projectFile } = read;
  const held = await serversNeedingApproval(read.servers);
  // Interrupted while it read thousands of entries: nothing more is drawn.
  io.signal.throwIfAborted();
  if (invocation.json) {
    const servers = read.servers.map((server) => shown(server, held.get(server.config.name)));
    io.out(`${terminalJson({ file, projectFile, servers, diagnostics }, 2)}\n`);
  } else {
    // The names, targets and problems are the files' text: all of it goes out escaped.
    const out = textOut(io);
    const files = `your file: ${file}${projectFile === undefined ? '' : `; the project's: ${projectFile}`}`;
    out(
      read.servers.length === 0
        ? await noServers(file)
        : renderServers(files, read.servers, await lastToolCounts(read.servers)),
    );
    out(renderHeld(held));
    out(renderDiagnostics(diagnostics));
  }
  return hasErrors(diagnostics) ? EXIT.failed : EXIT.ok;
}

function renderServers(
  files: string,
  servers: readonly ConfiguredServer[],
  counts: readonly (ToolCounts | undefined)[],
): string {
  const rows = servers.map(({ config, origin }, index) => {
    const count = counts[index];
    return [
      config.name,
      origin.source,
      config.transport,
      chosen(config.choice),
      count === undefined ? '-' : toolCount(count.offered, count.off),
      target(config),
    ];
  });
  const header = ['NAME', 'SOURCE', 'TRANSPORT', 'CHOICE', 'TOOLS', 'TARGET'];
  // Counted from the cached lists, so they say when they are from: "-" is a server not seen yet.
  const note = counts.some((count) => count !== undefined)
    ? '\nTOOLS: of the list each server gave when it last connected ("-": not yet, or turned off).\n'
    : '';
  return `MCP servers (${files}):\n\n${renderTable(header, rows)}${note}`;
}

/** The servers that would wait for approval, each with why, and the command that shows and asks. */
function renderHeld(held: ReadonlyMap<string, McpApprovalReason>): string {
  if (held.size === 0) return '';
  const why: Record<McpApprovalReason, string> = {
    new: 'never approved',
    changed: 'changed since approved',
  };
  const names = [...held].map(([name, reason]) => `${name} (${why[reason]})`);
  return `\nWaiting for approval, not started until then: ${names.join(', ')}. "epoch mcp approve <name>" shows what one runs and asks.\n`;
}

// Longer lists are cut: `epoch mcp get <name>` shows them whole, with their lines.
const CHOICE_WIDTH = 40;

/**
 * What the files choose, as written: the lists are patterns, and how many tools they turn off is
 * known only once the server answers (`epoch mcp status` counts them), so the patterns are shown.
 */
function chosen({ enabled, includeTools, excludeTools }: McpServerChoice): string {
  if (!enabled) return 'disabled';
  const names = (list: readonly McpToolPattern[]) => list.map(({ pattern }) => pattern).join(', ');
  const only = includeTools === undefined ? 'all tools' : `only ${names(includeTools)}`;
  const but = excludeTools.length === 0 ? '' : ` but ${names(excludeTools)}`;
  // A plugin's file is not the user's: its patterns are shown as a server's text is.
  return cutCells(shownLine(`${only}${but}`), CHOICE_WIDTH);
}

/**
 * A server as JSON: its config with every secret redacted, where it comes from, and why it would
 * wait for approval (`needsApproval`: `new` or `changed`) when it would.
 */
function shown({ config, origin }: ConfiguredServer, held: McpApprovalReason | undefined): unknown {
  const approval = held === undefined ? {} : { needsApproval: held };
  return { ...printableConfig(config), target: target(config), origin, ...approval };
}
