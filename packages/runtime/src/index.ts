// The public surface of @epoch-agent/runtime: the assembly a host embeds and every front end (the
// `epoch` command, the connectors page) runs on — buildRuntime, the ToolRegistry, where servers
// come from, applyMcpConfig, the edits of the user's mcp.json — plus the plugin's types a front end
// shows, so a front end needs no other package. Nothing else is imported from outside the package.
// What a tool takes and gives, for a front end that calls one (the connectors page's "Try").

// A host writes its own tools, reads results and shows diagnostics with these: one import is enough.
export { type Diagnostic, formatDiagnostic, type Logger } from '@epoch-agent/infra';
export type {
  McpApprovalReason,
  McpBackgroundCall,
  McpBackgroundState,
  McpDefinitionLine,
  McpEpochTool,
  McpErrorCode,
  McpHeadersHelper,
  McpHeadersReason,
  McpHeadersRequest,
  McpIcon,
  McpLoginResult,
  McpLogoutResult,
  McpPinnedServer,
  McpPinnedTool,
  McpPinnedTools,
  McpProtocol,
  McpRoot,
  McpRoots,
  McpServerCapabilities,
  McpServerChoice,
  McpServerConfig,
  McpServerEntry,
  McpServerExit,
  McpServerOutput,
  McpServerOutputLine,
  McpServerPrompt,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpShownTool,
  McpStoredLogin,
  McpTaskRecord,
  McpTaskRecordListing,
  McpTaskState,
  McpTaskStatus,
  McpToolDeferral,
  McpToolDefinition,
  McpToolPattern,
  McpToolPinStore,
  McpToolsChangedEvent,
  McpToolTarget,
  McpTransportKind,
  McpWithheldTool,
  ReapOptions,
} from '@epoch-agent/plugin-mcp';
export {
  definitionDiff,
  isMcpError,
  MAX_INSTRUCTIONS_CHARS,
  MCP_CONFIG_FIELDS,
  McpError,
  openInBrowser,
  readTaskRecords,
  serverPrefix,
  startInBackground,
  TOOL_NAME_PREFIX,
} from '@epoch-agent/plugin-mcp';
// A server's questions to the person (buildRuntime's `elicit`): what a host shows, what it
// answers, and the check a front end runs on each value typed before it is sent.
export { valueProblem } from '@epoch-agent/plugin-mcp/elicitation';
export type {
  Elicit,
  ElicitationAnswer,
  ElicitationDuring,
  ElicitationField,
  ElicitationForm,
  ElicitationQuestion,
  ElicitationUrl,
  ElicitationValue,
  EpochTool,
  JsonSchema,
  ToolAnnotations,
  ToolContent,
  ToolContext,
  ToolProgress,
  ToolResult,
} from '@epoch-agent/protocol';
export type { McpConfigApplied } from './assembly/apply-mcp-config.js';
export type { McpApprovalRequest, McpApprover } from './assembly/approvals.js';
export { type BuildRuntimeOptions, buildRuntime } from './assembly/build-runtime.js';
export {
  type McpConfigTarget,
  type McpConfigWatchOptions,
  watchMcpConfig,
} from './assembly/config-watch.js';
export type { ConnectMode } from './assembly/connects-in-flight.js';
export type { Runtime } from './assembly/runtime.js';
export type { RuntimeServerRevoked } from './assembly/runtime-approvals.js';
export type { RuntimeLoginOptions } from './assembly/server-login.js';
export type {
  RuntimeChoiceSet,
  RuntimeRemoveOptions,
  RuntimeServerAdded,
  RuntimeServerEntryReplaced,
  RuntimeServerRemoved,
  RuntimeServersImported,
  ServerScope,
} from './assembly/user-edits.js';
// Everything the config-only entry (./config) exports, from that one list.
export * from './config.js';
export {
  type AddServerInput,
  type AddServerResult,
  type AddServersOptions,
  type AddServersResult,
  addServer,
  addServers,
  type ChoiceChange,
  type ChoiceEdit,
  type ChoiceEditResult,
  type ChoiceTarget,
  type ChoiceWriteOptions,
  ENTRY_LIMITS,
  type EntryForEditing,
  type EntryJson,
  isMcpConfigWriteError,
  McpConfigWriteError,
  type McpConfigWriteErrorCode,
  type McpConfigWriteErrorData,
  type McpConfigWriteOptions,
  parseEntryJson,
  type RemoveServerOptions,
  type RemoveServerResult,
  type ReplaceServerEntryOptions,
  type ReplaceServerEntryResult,
  readServerEntry,
  removeServer,
  replaceServerEntry,
  replaceServerEntryInText,
  setServerChoice,
  sizeText,
} from './config-edit/index.js';
export {
  isRuntimeError,
  RuntimeError,
  type RuntimeErrorCode,
  type RuntimeErrorData,
} from './errors.js';
// Servers of other MCP clients, read from their files and imported (`epoch mcp import`).
export { CLIENTS, findClientServers, readFileAs } from './import/clients.js';
export { type FoundLaunch, foundLaunches, runsAgain } from './import/found-launch.js';
export {
  CLIENT_NAMES,
  type ClientFile,
  type ClientFileRead,
  type ClientName,
  type ClientScope,
  type FoundServer,
  type ImportPlaces,
  isClientName,
} from './import/found-server.js';
export {
  type ImportedServer,
  type ImportOptions,
  type ImportOutcome,
  type ImportResult,
  importServers,
} from './import/import-servers.js';
export type { HostCapabilities } from './servers/host-servers.js';
export { pluginsDir } from './servers/plugin-servers.js';
export {
  HOST_NAMESPACE_PATTERN,
  PLUGIN_NAME_PATTERN,
  SERVER_NAME_PATTERN,
} from './servers/server-names.js';
export { FRONT_END_START, HOST_START } from './servers/start-default.js';
export { CALL_TOOL_NAME, SEARCH_TOOL_NAME } from './tools/deferred-tools.js';
export { READ_RESULT_TOOL_NAME, RESULTS_GROUP } from './tools/read-result.js';
export { DEFAULT_TOOL_BUDGET_TOKENS } from './tools/tool-deferral.js';
export {
  MCP_GROUP_PREFIX,
  mcpGroup,
  type ResolvedTool,
  type ToolNameCollision,
  type ToolOrigin,
} from './tools/tool-name-resolution.js';
export {
  type ToolGroupOptions,
  ToolRegistry,
  type ToolRegistryChange,
  type ToolRegistryListener,
  type ToolRegistryOptions,
} from './tools/tool-registry.js';
