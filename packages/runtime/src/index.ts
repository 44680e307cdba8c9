// The public surface of @epoch-agent/runtime: the assembly a host embeds (buildRuntime, the
// ToolRegistry, where servers come from, applyMcpConfig, mcp-config-write). Nothing else is
// imported from outside the package.
export type { McpConfigApplied } from './apply-mcp-config.js';
export { type BuildRuntimeOptions, buildRuntime, type Runtime } from './build-runtime.js';
export {
  isRuntimeError,
  RuntimeError,
  type RuntimeErrorCode,
  type RuntimeErrorData,
} from './errors.js';
export type { HostCapabilities } from './host-servers.js';
export {
  type AddServerInput,
  type AddServerResult,
  addServer,
  isMcpConfigWriteError,
  McpConfigWriteError,
  type McpConfigWriteErrorCode,
  type McpConfigWriteErrorData,
  type McpConfigWriteOptions,
  type RemoveServerResult,
  removeServer,
  SERVER_NAME_PATTERN,
} from './mcp-config-write.js';
export { pluginsDir } from './plugin-servers.js';
export {
  HOST_NAMESPACE_PATTERN,
  PLUGIN_NAME_PATTERN,
  type RuntimeDiagnostic,
  type RuntimeDiagnosticCode,
} from './server-names.js';
export {
  MCP_GROUP_PREFIX,
  mcpGroup,
  type ResolvedTool,
  type ToolNameCollision,
  type ToolOrigin,
} from './tool-name-resolution.js';
export {
  ToolRegistry,
  type ToolRegistryChange,
  type ToolRegistryListener,
  type ToolRegistryOptions,
} from './tool-registry.js';
