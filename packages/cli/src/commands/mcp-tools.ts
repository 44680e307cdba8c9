// `epoch mcp tools [<name>]`: the tools the model is given, by the name it sees (as the
// ToolRegistry resolved it), with title, the annotations the permission system reads (read-only,
// destructive, …) and parameters — and what each server's list costs in context, every turn.
import { terminalJson } from '@epoch-agent/infra';
import type { McpServerStatus, Runtime } from '@epoch-agent/runtime';
import { type Invocation, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { badges, contextTokens, parameters, renderTool } from '../render/tools.js';
import { withRuntime } from '../session.js';
import { exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';
import { settled } from './settle.js';
import { offeredTools } from './tools-of.js';

const DEFAULT_WIDTH = 100;

/** `epoch mcp tools`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  if (invocation.operands.length > 1) {
    throw new UsageError(`takes at most one server name (got "${invocation.operands.join(' ')}")`);
  }
  const [only] = invocation.operands;
  return withRuntime(io, invocation, {}, async (runtime) => {
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
      io.out(`${terminalJson({ servers }, 2)}\n`);
    } else {
      const width = Math.max(60, io.columns ?? DEFAULT_WIDTH);
      for (const status of statuses) io.out(renderServer(runtime, status, width));
      if (only === undefined) io.out(total(runtime, statuses));
    }
    if (only !== undefined) return exitOfState(statuses[0]?.state ?? 'disconnected');
    return statuses.every(({ state }) => state === 'connected') ? EXIT.ok : EXIT.failed;
  });
}

function renderServer(runtime: Runtime, status: McpServerStatus, width: number): string {
  const head = `${status.name} (${status.source}, ${status.transport})`;
  const tools = offeredTools(runtime, status.name);
  if (status.state !== 'connected') {
    return `${head}: ${status.state}\n${statusDetail(status).join('\n')}\n\n`;
  }
  const cost = contextTokens(tools).toLocaleString('en-US');
  const lines = tools.flatMap((tool) => renderTool(tool, width));
  return `${head}: ${tools.length} tool(s), about ${cost} tokens of context per request\n${lines.join('\n')}\n\n`;
}

function total(runtime: Runtime, statuses: readonly McpServerStatus[]): string {
  const tools = statuses.flatMap(({ name }) => offeredTools(runtime, name));
  if (statuses.length === 0)
    return `No MCP servers in ${runtime.configFile} or in installed plugins.\n`;
  return `In all: ${tools.length} tool(s) from ${statuses.length} server(s), about ${contextTokens(tools).toLocaleString('en-US')} tokens of context per request.\n`;
}

function shownServer(runtime: Runtime, status: McpServerStatus): unknown {
  const offered = offeredTools(runtime, status.name);
  const tools = offered.map((tool) => ({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    annotations: tool.annotations,
    badges: badges(tool),
    parameters: parameters(tool),
    inputSchema: tool.inputSchema,
  }));
  return {
    ...status,
    contextTokens: contextTokens(offered),
    tools,
  };
}
