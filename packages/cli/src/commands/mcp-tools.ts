// `epoch mcp tools [<name>]`: the tools the model is given, by the name it sees (as the
// ToolRegistry resolved it), with title, the annotations the permission system reads (read-only,
// destructive, …) and parameters — and what each server's list costs in context, every turn; then
// the tools found on demand (deferred: over the tool budget, behind mcp_search_tools) and those
// the user turned off, marked, with what they would add; how many are withheld since they changed
// (`epoch mcp diff` shows them); and the budget.
import { groupedNumber, terminalJson } from '@epoch-agent/infra';
import type { EpochTool } from '@epoch-agent/protocol';
import type { McpServerStatus, Runtime } from '@epoch-agent/runtime';
import { approvalMode } from '../approval.js';
import { type Invocation, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { lineRoom } from '../render/cells.js';
import { counted } from '../render/counted.js';
import { hasErrors } from '../render/diagnostics.js';
import { noServers } from '../render/no-servers.js';
import {
  badges,
  contextTokens,
  enableHint,
  parameters,
  renderTool,
  type ToolOffer,
} from '../render/tools.js';
import { withRuntime } from '../session.js';
import { exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';
import { settled } from './settle.js';
import { serverToolName, toolsByOffer } from './tools-of.js';

/** `epoch mcp tools`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  if (invocation.operands.length > 1) {
    throw new UsageError(`takes at most one server name (got "${invocation.operands.join(' ')}")`);
  }
  const [only] = invocation.operands;
  // Named, only that server starts, as for `call`: one hung server elsewhere must not hold it up.
  const options = {
    approval: approvalMode(invocation, io),
    ...(only === undefined ? {} : { connectOnly: [only] }),
  };
  return withRuntime(io, invocation, options, async (runtime) => {
    if (only !== undefined) {
      findServer(runtime.servers(), runtime.diagnostics(), only, runtime.configFile);
    }
    const names = runtime.mcp
      .statuses()
      .map(({ name }) => name)
      .filter((name) => only === undefined || name === only);
    const statuses = await settled(runtime, names);
    if (invocation.json) {
      const servers = statuses.map((status) => shownServer(runtime, status));
      const { toolBudgetTokens } = runtime.tools;
      io.out(`${terminalJson({ servers, toolBudgetTokens }, 2)}\n`);
    } else {
      const width = lineRoom(io.columns);
      for (const status of statuses) io.out(renderServer(runtime, status, width));
      if (only === undefined)
        io.out(
          statuses.length === 0 ? await noServers(runtime.configFile) : total(runtime, statuses),
        );
    }
    if (only !== undefined) return exitOfState(statuses[0]?.state ?? 'disconnected');
    // A server the user turned off, or one that starts on demand and was not needed, is as asked,
    // not a failure; a file with errors is one, as for `status`.
    const working = statuses.every(({ state }) => ASKED_FOR.has(state));
    return working && !hasErrors(runtime.diagnostics()) ? EXIT.ok : EXIT.failed;
  });
}

const ASKED_FOR: ReadonlySet<McpServerStatus['state']> = new Set([
  'connected',
  'notStarted',
  'disabled',
]);

function renderServer(runtime: Runtime, status: McpServerStatus, width: number): string {
  const head = `${status.name} (${status.source}, ${status.transport})`;
  // Not started, its tools are the model's all the same (from the cache): listed as a connected one's.
  if (status.state !== 'connected' && status.state !== 'notStarted') {
    return `${head}: ${status.state}\n${statusDetail(status, runtime.server(status.name)).join('\n')}\n\n`;
  }
  const { offered, onDemand } = toolsByOffer(runtime, status.name);
  const off = runtime.mcp.toolsOffOf(status.name);
  // Listed after the offered ones, so a person sees what the model finds only by searching, and
  // what they could turn back on.
  const shown: [readonly EpochTool[], ToolOffer][] = [
    [offered, 'offered'],
    [onDemand, 'on demand'],
    [off, 'off'],
  ];
  const lines = shown.flatMap(([tools, how]) =>
    tools.flatMap((tool) => renderTool(tool, width, how, serverToolName(tool))),
  );
  const [example] = off;
  const hint = example === undefined ? '' : enableHint(status.name, serverToolName(example));
  const long = longNames(status.name, [...offered, ...onDemand]);
  // Connected, the detail is only what is withheld (not started, that too): said under the tools.
  const withheld = statusDetail(status, runtime.server(status.name));
  const body = [...lines, ...withheld].join('\n');
  return `${head}: ${counted(offered.length, 'tool')}, ${cost(offered, onDemand, off)}\n${body}\n${hint}${long}\n`;
}

// OpenAI's function names, and those of providers that follow it, stop at 64 characters: a host
// for them caps longer names with a hash (tools/names.ts), which no person can read or guess.
const SHORT_PROVIDER_LIMIT = 64;

/** A warning when the model's names of this server's tools pass 64 characters: the server's name is most of them. */
function longNames(server: string, tools: readonly EpochTool[]): string {
  const long = tools.filter(({ name }) => name.length > SHORT_PROVIDER_LIMIT);
  if (long.length === 0) return '';
  return `Warning: ${counted(long.length, 'tool name')} of ${server} ${long.length === 1 ? 'is' : 'are'} longer than ${SHORT_PROVIDER_LIMIT} characters, the most some model providers (OpenAI's among them) accept; a host for those cuts them and adds a hash. A shorter server name (it is in every one: mcp__${server}__…) keeps them whole.\n`;
}

function total(runtime: Runtime, statuses: readonly McpServerStatus[]): string {
  // Everything the model is given, mcp_search_tools and mcp_call_tool included when they stand
  // for tools found on demand.
  const offered = runtime.tools.tools();
  const onDemand = statuses.flatMap(({ name }) => toolsByOffer(runtime, name).onDemand);
  const off = statuses.flatMap(({ name }) => runtime.mcp.toolsOffOf(name));
  const budget = groupedNumber(runtime.tools.toolBudgetTokens);
  const search =
    onDemand.length === 0
      ? ''
      : ' The model finds those with mcp_search_tools and runs them with mcp_call_tool (both counted above).';
  return `In all: ${counted(offered.length, 'tool')} from ${counted(statuses.length, 'server')}, ${cost(offered, onDemand, off)}. Tool budget: ${budget} tokens (tool_budget_tokens).${search}\n`;
}

/**
 * What the offered tools cost every request, what the ones found on demand would cost if they
 * were offered too, and what the ones turned off would add.
 */
function cost(
  tools: readonly EpochTool[],
  onDemand: readonly EpochTool[],
  off: readonly EpochTool[],
): string {
  const tokens = (list: readonly EpochTool[]) => groupedNumber(contextTokens(list));
  const deferred =
    onDemand.length === 0
      ? ''
      : `; ${onDemand.length} more found on demand, which offered would add about ${tokens(onDemand)}`;
  const more =
    off.length === 0 ? '' : `; ${counted(off.length, 'tool')} off would add about ${tokens(off)}`;
  return `about ${tokens(tools)} tokens of context per request${deferred}${more}`;
}

function shownServer(runtime: Runtime, status: McpServerStatus): unknown {
  const { offered, onDemand } = toolsByOffer(runtime, status.name);
  const off = runtime.mcp.toolsOffOf(status.name);
  return {
    ...status,
    contextTokens: contextTokens(offered),
    tools: offered.map(shownTool),
    onDemandContextTokens: contextTokens(onDemand),
    onDemandTools: onDemand.map(shownTool),
    offContextTokens: contextTokens(off),
    offTools: off.map(shownTool),
  };
}

function shownTool(tool: EpochTool): unknown {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    annotations: tool.annotations,
    badges: badges(tool),
    parameters: parameters(tool),
    inputSchema: tool.inputSchema,
  };
}
