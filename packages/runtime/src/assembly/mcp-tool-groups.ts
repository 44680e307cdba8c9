// Keeps the ToolRegistry's `mcp:<server>` groups in step with the McpRegistry: a server's group
// holds exactly the tools the registry offers for it now, with the server's `defer` — set when it
// connects (or offers cached tools while connecting) and when its tools change, removed when it
// fails or is disconnected. Following every status event is cheap and honest: setting a group to
// the tools it holds is no change (ToolRegistry.setGroup).
// The registry never touches the ToolRegistry itself; this is the one place that does. So the
// reader of cut results (`mcp_read_result`) is offered here too, from the first result the
// registry saves: a group of its own, whose arrival is a tools-changed event like any other.
import type { McpRegistry } from '@epoch-agent/plugin-mcp';
import { READ_RESULT_TOOL_NAME, RESULTS_GROUP, readResultTool } from '../tools/read-result.js';
import { mcpGroup } from '../tools/tool-name-resolution.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

export interface McpToolGroupSync {
  /**
   * Sets one server's group from the registry now: after McpRegistry.update, whose new `defer`
   * is no status and no tools change, so no event brings it.
   */
  readonly sync: (server: string) => void;
  readonly stop: () => void;
}

/** Starts keeping the groups in step. */
export function syncMcpToolGroups(mcp: McpRegistry, tools: ToolRegistry): McpToolGroupSync {
  const sync = (server: string): void => {
    const offered = mcp.toolsOf(server);
    const config = mcp.configOf(server);
    if (config === undefined || offered.length === 0) {
      tools.removeGroup(mcpGroup(server));
    } else {
      tools.setGroup(mcpGroup(server), offered, { defer: config.defer });
    }
  };
  const reader = readResultTool(mcp.savedResults);
  const offerReader = (): void => tools.setGroup(RESULTS_GROUP, [reader]);
  // Only a registry whose notes name the reader gets it: another's notes name the file.
  const reads = mcp.savedResults.reader === READ_RESULT_TOOL_NAME;
  if (reads && mcp.savedResults.size > 0) offerReader();
  const stops = [
    mcp.onStatus((status) => sync(status.name)),
    mcp.onToolsChanged((event) => sync(event.server)),
    ...(reads ? [mcp.savedResults.onSaved(offerReader)] : []),
  ];
  return {
    sync,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}
