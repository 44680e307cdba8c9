// @epoch-agent/runtime/config: the MCP servers of every source (the host's, installed plugins', the
// user's mcp.json) read and checked, without connecting any: what `epoch mcp list` and `epoch mcp
// get` need, and what a front end reads of a tool (its cost, its parameters). The root entry
// exports the same, with the registry, the ToolRegistry and the config writer that a program which
// connects needs too. Written by hand.

// "Did you mean …?" for a name typed wrong (a command, a server, a tool), as the loader guesses a
// field's name.
export { suggest } from '@epoch-agent/plugin-mcp/config';
export { lastProtocol, lastToolCounts, type ToolCounts } from './last-tool-counts.js';
export {
  type ConfiguredServer,
  type McpServerOrigin,
  type McpServersRead,
  type ReadMcpServersOptions,
  readMcpServers,
} from './read-servers.js';
export {
  type FollowedRef,
  followRefs,
  type RefProblemCode,
  refProblemText,
} from './schema-ref.js';
export {
  type ServerField,
  type ServerFieldSource,
  type ServerFields,
  serverFields,
} from './server-fields.js';
export type { RuntimeDiagnostic, RuntimeDiagnosticCode } from './server-names.js';
export { type ToolParameter, toolParameters } from './tool-parameters.js';
export { estimateToolTokens } from './tool-tokens.js';
