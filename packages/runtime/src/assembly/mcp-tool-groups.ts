// Keeps the ToolRegistry's `mcp:<server>` groups in step with the McpRegistry: a server's group
// holds exactly the tools the registry offers for it now, with the server's `defer` — set when it
// connects (or offers cached tools while connecting) and when its tools change, removed when it
// fails or is disconnected. Following every status event is cheap and honest: setting a group to
// the tools it holds is no change (ToolRegistry.setGroup).
// The registry never touches the ToolRegistry itself; this is the one place that does.
import type { McpRegistry } from '@epoch-agent/plugin-mcp';
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
  const stops = [
    mcp.onStatus((status) => sync(status.name)),
    mcp.onToolsChanged((event) => sync(event.server)),
  ];
  return {
    sync,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}
