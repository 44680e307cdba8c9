// One server's tools as the ToolRegistry offers them: in its `mcp:<server>` group, each under the
// name the registry resolved (a collision with another group's tool renames one of them).
import type { EpochTool } from '@epoch-agent/protocol';
import { mcpGroup, type ResolvedTool, type Runtime } from '@epoch-agent/runtime';

export function toolsOf(runtime: Runtime, server: string): ResolvedTool[] {
  const group = mcpGroup(server);
  return runtime.tools.entries().filter((entry) => entry.group === group);
}

/** The tools as the model receives them: under their resolved names. */
export function offeredTools(runtime: Runtime, server: string): EpochTool[] {
  return toolsOf(runtime, server).map(({ tool, name }) => ({ ...tool, name }));
}
