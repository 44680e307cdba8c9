// @epoch-agent/plugin-mcp: the MCP client plugin. The public surface, written by hand: nothing
// outside this package imports anything but what is exported here.
export type {
  HttpServerConfig,
  McpServerCommon,
  McpServerConfig,
  McpServerSource,
  McpTransportKind,
  RemoteServerConfig,
  SseServerConfig,
  StdioServerConfig,
} from './types.js';
