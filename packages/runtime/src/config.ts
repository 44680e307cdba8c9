// @epoch-agent/runtime/config: the MCP servers of every source (the host's, installed plugins', the
// user's mcp.json, the project's .epoch/mcp.json) read and checked, without connecting any: what
// `epoch mcp list` and `epoch mcp get` need, and what a front end reads of a tool (its cost, its
// parameters). The root entry exports the same, with the registry, the ToolRegistry and the config
// writer that a program which connects needs too. Written by hand.

// The loader's own rules, for what a front end is given: "did you mean …?" for a mistyped name,
// and a transport as a person may write it (`streamable-http`); what an entry would run, as a
// person approves it, and the key of that approval; parseMcpConfig reads an entry that is not in a
// file yet (an import's) as one would be.
export {
  describeLaunch,
  launchKey,
  type McpLaunch,
  parseMcpConfig,
  suggest,
  transportKind,
} from '@epoch-agent/plugin-mcp/config';
// Which servers, as read, would wait for a person's approval before they start.
export { serversNeedingApproval } from './approvals/held-servers.js';
export type { ConfiguredServer, McpServerOrigin } from './servers/configured-server.js';
export {
  type DiagnosticEntry,
  diagnosticEntry,
  diagnosticServer,
} from './servers/diagnostic-owner.js';
export { lastProtocol, lastToolCounts, type ToolCounts } from './servers/last-tool-counts.js';
export {
  findProjectConfig,
  PROJECT_CONFIG_PATH,
  type ProjectFileOptions,
} from './servers/project-file.js';
export {
  type McpServersRead,
  type ReadMcpServersOptions,
  readMcpServers,
} from './servers/read-servers.js';
export {
  type ServerField,
  type ServerFieldSource,
  type ServerFields,
  type ServerFieldVariable,
  serverFields,
} from './servers/server-fields.js';
export type { RuntimeDiagnostic, RuntimeDiagnosticCode } from './servers/server-names.js';
export {
  type FollowedRef,
  followRefs,
  type RefProblemCode,
  refProblemText,
} from './tools/schema-ref.js';
export { type ToolParameter, toolParameters } from './tools/tool-parameters.js';
export { estimateToolTokens } from './tools/tool-tokens.js';
