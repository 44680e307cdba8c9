// What the runtime knows of one server before it connects: its config and where that is written.
// Every source (host, plugin, project, user) makes these and every reader of the servers takes
// them, so the type lives apart from any one of them.
import type { McpKeyPositions, McpServerConfig } from '@epoch-agent/plugin-mcp';

/** Where a server's configuration lives. */
export type McpServerOrigin =
  /** In the host's code (`hostCapabilities.mcpServers`): no file holds it. */
  | { readonly source: 'host'; readonly namespace: string }
  /** In an installed plugin's mcp.json. */
  | { readonly source: 'plugin'; readonly plugin: string; readonly file: string }
  /** In the project's `.epoch/mcp.json` (servers/project-file.ts says which one). */
  | { readonly source: 'project'; readonly file: string }
  /** In the user's mcp.json. */
  | { readonly source: 'user'; readonly file: string };

/** A server as read, not yet connected. */
export interface ConfiguredServer {
  readonly config: McpServerConfig;
  readonly origin: McpServerOrigin;
  /** Where its entry and the keys of its fields are written in its origin's file; not a host's. */
  readonly positions?: McpKeyPositions;
  /** A plugin's or host's server: where the user's mcp.json writes its `overrides` entry. */
  readonly overridePositions?: McpKeyPositions;
}
