// `epoch mcp status`: connects to every server, the way the agent does, and shows how each one is
// doing and the tools the model gets from it, under the names the ToolRegistry gave them (and the
// ones the user turned off, marked); then closes them all. It answers "does my MCP setup work?",
// where `epoch mcp list` answers "did epoch read my file the way I meant it?".
import { terminalJson } from '@epoch-agent/infra';
import type { McpServerStatus, Runtime } from '@epoch-agent/runtime';
import { approvalMode } from '../approval.js';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { cellWidth, cutCells, lineRoom, padCells } from '../render/cells.js';
import { counted } from '../render/counted.js';
import { hasErrors, renderDiagnostics } from '../render/diagnostics.js';
import { noServers } from '../render/no-servers.js';
import { shownLine } from '../render/server-text.js';
import { contextTokens, enableHint, firstLine, toolCount } from '../render/tools.js';
import { serverLogs } from '../server-logs.js';
import { withRuntime } from '../session.js';
import { LiveStatusTable, renderStatuses } from './status-table.js';
import { serverToolName, toolsByOffer, toolsOf } from './tools-of.js';

/** `epoch mcp status`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  // On a terminal (`columns` is set only for one) each server's row is printed as it settles,
  // under a header printed once the files are read, before any server starts. --json and a pipe
  // get the table once every server has settled.
  let live: LiveStatusTable | undefined;
  const showsLive = !invocation.json && io.columns !== undefined;
  const approval = approvalMode(invocation, io);
  return withRuntime(
    io,
    invocation,
    {
      approval,
      // No cached tool list offered: a cached server would be reported `connecting` (or
      // `notStarted`) instead of being tried. The cache still says which era each server speaks.
      registry: { offerCachedTools: false },
      ...serverLogs(invocation, io),
      onRead: ({ servers }) => {
        if (!showsLive || servers.length === 0) return;
        live = new LiveStatusTable(servers, approval !== 'never');
        io.out(live.header);
      },
      onStatus: (status, print) => live?.onStatus(status, print),
    },
    async (runtime) => {
      const statuses = runtime.mcp.statuses();
      const diagnostics = runtime.diagnostics();
      if (invocation.json) {
        const servers = statuses.map((status) => {
          const off = runtime.mcp.toolsOffOf(status.name);
          return {
            ...status,
            tools: toolsOf(runtime, status.name).map(({ name }) => name),
            contextTokens: contextTokens(toolsByOffer(runtime, status.name).offered),
            offTools: off.map(({ name }) => name),
            offContextTokens: contextTokens(off),
          };
        });
        const { configFile: file, projectFile } = runtime;
        io.out(`${terminalJson({ file, projectFile, servers, diagnostics }, 2)}\n`);
      } else if (statuses.length === 0) {
        io.out(await noServers(runtime.configFile));
        io.out(renderDiagnostics(diagnostics));
      } else {
        const width = lineRoom(io.columns);
        if (live === undefined) io.out(renderStatuses(statuses, runtime.servers()));
        else live.rest(statuses, io.out);
        // In the config's order, as the rows of a pipe are: only the live rows follow the clock.
        for (const { name } of statuses) io.out(renderToolNames(runtime, name, width));
        io.out(renderDiagnostics(diagnostics));
        io.out(`\n${summary(statuses)}\n`);
      }
      const working = down(statuses).length === 0 && held(statuses).length === 0;
      return working && !hasErrors(diagnostics) ? EXIT.ok : EXIT.failed;
    },
  );
}

function renderToolNames(runtime: Runtime, server: string, width: number): string {
  const tools = toolsOf(runtime, server).map(({ name, tool }) => ({ name, tool, off: false }));
  const off = runtime.mcp.toolsOffOf(server).map((tool) => ({ name: tool.name, tool, off: true }));
  const all = [...tools, ...off];
  if (all.length === 0) return '';
  // A loop, not Math.max(...): a server may list more tools than a call takes arguments.
  let nameWidth = 0;
  for (const { name } of all) nameWidth = Math.max(nameWidth, cellWidth(name));
  const lines = all.map(({ name, tool, off }) => {
    const head = `  ${padCells(name, nameWidth)}  ${off ? '(off) ' : ''}`;
    const about = shownLine(firstLine(tool.description) || (tool.title ?? ''));
    return `${head}${cutCells(about, width - cellWidth(head))}`.trimEnd();
  });
  const [example] = off;
  const hint = example === undefined ? '' : enableHint(server, serverToolName(example.tool));
  const count = toolCount(tools.length, off.length, runtime.mcp.withheldOf(server).length);
  return `\nTools of ${server} (${count}):\n${lines.join('\n')}\n${hint}`;
}

/**
 * The servers that should be connected and are not: one the user turned off is as asked, and one
 * held for approval is said apart (it waits for a person, not for a fix).
 */
function down(statuses: readonly McpServerStatus[]): McpServerStatus[] {
  return statuses.filter(
    ({ state }) => state !== 'connected' && state !== 'disabled' && state !== 'needsApproval',
  );
}

function held(statuses: readonly McpServerStatus[]): string[] {
  return statuses.filter(({ state }) => state === 'needsApproval').map(({ name }) => name);
}

/** The servers with tools withheld, and the command that shows what changed. */
function withheldSentence(statuses: readonly McpServerStatus[]): string {
  const some = statuses.filter(({ toolsWithheld }) => toolsWithheld > 0);
  if (some.length === 0) return '';
  const names = some.map(({ name, toolsWithheld }) => `${name} (${toolsWithheld})`).join(', ');
  return ` Tools withheld until approved: ${names} ("epoch mcp diff <name>" shows what changed).`;
}

function summary(statuses: readonly McpServerStatus[]): string {
  const disabled = statuses.filter(({ state }) => state === 'disabled').map(({ name }) => name);
  const waiting = held(statuses);
  const on = statuses.length - disabled.length - waiting.length;
  const off = disabled.length === 0 ? '' : `; turned off: ${disabled.join(', ')}`;
  const servers =
    waiting.length === 0
      ? ''
      : ` Not started until approved: ${waiting.join(', ')} ("epoch mcp approve <name>" shows what each runs and asks).`;
  // What waits for a person: servers, then tools.
  const approve = `${servers}${withheldSentence(statuses)}`;
  if (on === 0 && waiting.length === 0)
    return `Every MCP server is turned off: ${disabled.join(', ')}.`;
  const failing = down(statuses);
  if (failing.length === 0) {
    const all = on === 1 ? 'The MCP server connected' : `All ${on} MCP servers connected`;
    return `${on === 0 ? 'No MCP server connected' : all}${off}.${approve}`;
  }
  const names = failing.map(({ name, state }) => `${name} (${state})`).join(', ');
  return `${on - failing.length} of ${counted(on, 'MCP server')} connected; not connected: ${names}${off}.${approve}`;
}
