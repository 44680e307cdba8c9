// One server's tools as the ToolRegistry offers them: in its `mcp:<server>` group, each under the
// name the registry resolved (a collision with another group's tool renames one of them).
import type { EpochTool } from '@epoch-agent/protocol';
import { type McpEpochTool, mcpGroup, type ResolvedTool, type Runtime } from '@epoch-agent/runtime';

export function toolsOf(runtime: Runtime, server: string): ResolvedTool[] {
  const group = mcpGroup(server);
  return runtime.tools.entries().filter((entry) => entry.group === group);
}

/**
 * The server's tools under their resolved names, split by how the model gets them: one by one in
 * every request, or found on demand through mcp_search_tools (deferred: over the tool budget).
 */
export function toolsByOffer(
  runtime: Runtime,
  server: string,
): { readonly offered: EpochTool[]; readonly onDemand: EpochTool[] } {
  const deferred = new Set(runtime.tools.deferred().map(({ name }) => name));
  const tools = offeredTools(runtime, server);
  return {
    offered: tools.filter(({ name }) => !deferred.has(name)),
    onDemand: tools.filter(({ name }) => deferred.has(name)),
  };
}

/** The tools as the model receives them: under their resolved names. */
export function offeredTools(runtime: Runtime, server: string): EpochTool[] {
  return toolsOf(runtime, server).map(({ tool, name }) => ({ ...tool, name }));
}

/** The tool's name on its server (or list_resources / read_resource): what `--tool` takes. */
export function serverToolName(tool: EpochTool): string {
  const { target } = tool as McpEpochTool;
  return target.kind === 'tool' ? target.name : target.kind;
}
