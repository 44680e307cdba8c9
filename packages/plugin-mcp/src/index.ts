// @epoch-agent/plugin-mcp: the MCP client plugin. The public surface, written by hand: nothing
// outside this package imports anything but what is exported here.

export { McpClient, type McpClientOptions, type McpStateListener } from './client.js';
export { fingerprint } from './config/fingerprint.js';
export { loadMcpConfig, type McpConfigLoad, parseMcpConfig } from './config/load.js';
export {
  MCP_CONFIG_DIAGNOSTIC_CODES,
  MCP_CONFIG_FIELDS,
  type McpConfigDiagnosticCode,
  type McpConfigField,
} from './config/schema.js';
export type {
  McpConnectionState,
  McpConnectionStateKind,
  McpServerInfo,
} from './connection-state.js';
export { isMcpError, McpError, type McpErrorCode, type McpErrorOptions } from './errors.js';
export {
  McpRegistry,
  type McpRegistryOptions,
  type McpServerPrompt,
  type McpStatusListener,
} from './registry.js';
export {
  MAX_TOOL_NAME_LENGTH,
  MIN_TOOL_NAME_LENGTH,
  prefixedName,
  type ToolNameOptions,
} from './tool-names.js';
export {
  type McpEpochTool,
  type McpToolBackend,
  type McpToolTarget,
  type ToEpochToolsOptions,
  type ToolCallResult,
  toEpochTools,
  toolCallResultSchema,
} from './tools.js';
export {
  type CreateTransportOptions,
  createTransport,
  type McpTransportFactory,
  type McpTransportHandle,
} from './transport/create.js';
export type {
  HttpServerConfig,
  McpServerCommon,
  McpServerConfig,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpServerStatusCommon,
  McpTransportKind,
  RemoteServerConfig,
  SseServerConfig,
  StdioServerConfig,
} from './types.js';
