// @epoch-agent/plugin-mcp/config: reading mcp.json text, a file or a host's entries into server
// configs and diagnostics, and nothing else. What a program that reads configs without connecting
// (`epoch mcp list`) loads: a dozen modules, where the root entry (which exports the same) has the
// client and the registry too. Written by hand, like the root entry.

// What a server's tool names start with: reading servers decides which names would pass for a
// host's tools (names.ts loads nothing but node:crypto).
export { serverPrefix } from '../tools/names.js';
// What an entry would run, shown before it is approved, and the key its approval is stored under.
export type { McpLaunch } from '../types.js';
// Whether a server's questions reach a person: what `epoch mcp get` shows, its source's default
// included.
// The log levels a server may be asked for (`log_level`), and the one it is asked for unless told.
export {
  DEFAULT_LOG_LEVEL,
  elicitationOf,
  MCP_LOG_LEVELS,
  type McpElicitationSetting,
  type McpLogLevel,
} from '../types.js';
export { type McpServerOverride, withOverride } from './choice.js';
export type { McpConfigPositions, McpKeyPositions } from './key-positions.js';
export { describeLaunch, launchKey } from './launch.js';
export {
  type LoadMcpConfigOptions,
  loadMcpConfig,
  type McpConfigLoad,
  parseMcpConfig,
  parseMcpServerEntries,
} from './load.js';
// The words for a JSON syntax error, for another reader of JSON files (import) to say it alike.
export { describeSyntaxError } from './locate.js';
export { DEFAULT_MAX_OUTPUT_TOKENS } from './output-tokens.js';
export {
  type FieldName as McpConfigFieldName,
  MCP_CONFIG_FIELDS,
  type McpServerEntry,
  OVERRIDE_FIELDS,
} from './schema.js';
export { transportKind } from './server.js';
export { idleTimeoutOf, type McpStartMode, ON_DEMAND_IDLE_MS, startOf } from './start.js';
export { suggest } from './suggest.js';
export {
  choiceCounts,
  matchesToolPattern,
  sameChoice,
  serverToolName,
  serverToolNames,
  unmatchedPatterns,
} from './tool-choice.js';
export { isVariableSet } from './variables.js';
