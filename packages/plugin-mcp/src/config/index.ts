// @epoch-agent/plugin-mcp/config: reading mcp.json text, a file or a host's entries into server
// configs and diagnostics, and nothing else. What a program that reads configs without connecting
// (`epoch mcp list`) loads: a dozen modules, where the root entry (which exports the same) has the
// client and the registry too. Written by hand, like the root entry.
export {
  type ChoiceWritten as McpChoiceWritten,
  type McpServerOverride,
  withOverride,
} from './choice.js';
export type { McpConfigPositions, McpKeyPositions } from './key-positions.js';
export {
  loadMcpConfig,
  type McpConfigLoad,
  type McpServerEntriesOptions,
  parseMcpConfig,
  parseMcpServerEntries,
} from './load.js';
export { DEFAULT_MAX_OUTPUT_TOKENS, MAX_OUTPUT_TOKENS_LIMIT } from './output-tokens.js';
export {
  type FieldName as McpConfigFieldName,
  MCP_CONFIG_DIAGNOSTIC_CODES,
  MCP_CONFIG_FIELDS,
  type McpConfigDiagnosticCode,
  type McpConfigField,
  type McpServerEntry,
  OVERRIDE_FIELDS,
} from './schema.js';
export { suggest } from './suggest.js';
export {
  choiceCounts,
  EVERY_TOOL,
  matchesToolPattern,
  offersTool,
  sameChoice,
  serverToolName,
  serverToolNames,
  unmatchedPatterns,
} from './tool-choice.js';
