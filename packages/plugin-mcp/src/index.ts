// @epoch-agent/plugin-mcp: the MCP client plugin. The public surface, written by hand: nothing
// outside this package imports anything but what is exported here.

export {
  defaultSchemaCacheDir,
  McpSchemaCache,
  type McpSchemaCacheOptions,
  type McpServerSchema,
} from './cache.js';
export { fingerprint } from './config/fingerprint.js';
// Everything the config-only entry (./config) exports, from that one list.
export * from './config/index.js';
export { McpClient, type McpClientOptions, type McpStateListener } from './connection/client.js';
export type { McpConnectionOptions } from './connection/options.js';
export type {
  McpConnectionState,
  McpConnectionStateKind,
  McpServerInfo,
  McpStateError,
} from './connection/state.js';
export {
  isMcpError,
  McpError,
  type McpErrorCode,
  type McpErrorOptions,
} from './errors/mcp-error.js';
export {
  DEFAULT_REFRESH_SKEW_MS,
  OAuthConnectionAuth,
  type OAuthConnectionAuthOptions,
} from './oauth/connection-auth.js';
export { loginToServer, logoutFromServer, MAX_ROUNDS } from './oauth/entry.js';
export type { McpLoginOptions, McpLoginResult } from './oauth/login.js';
export type { McpLogoutOptions, McpLogoutResult } from './oauth/logout.js';
export { openInBrowser } from './oauth/open-url.js';
export {
  defaultTokenDir,
  type StoredLogin,
  type StoredTokens,
  TokenStore,
  type TokenStoreOptions,
} from './oauth/token-store.js';
export {
  McpRegistry,
  type McpRegistryOptions,
  type McpServerPrompt,
  type McpStatusListener,
  type McpToolsChangedEvent,
  type McpToolsChangedListener,
} from './registry.js';
export { serverRedactor, serverSecrets } from './secrets.js';
export type { McpToolsDiff } from './tools/diff.js';
export {
  type McpEpochTool,
  type McpToolBackend,
  type McpToolTarget,
  type ToEpochToolsOptions,
  toEpochTools,
} from './tools/epoch-tools.js';
export {
  MAX_TOOL_NAME_LENGTH,
  MIN_TOOL_NAME_LENGTH,
  prefixedName,
  serverPrefix,
  TOOL_NAME_PREFIX,
  type ToolNameOptions,
} from './tools/names.js';
export type { ToolOutputCap } from './tools/output-cap.js';
export { type ToolCallResult, toolCallResultSchema } from './tools/result.js';
export { defaultToolResultsDir } from './tools/result-files.js';
export {
  type CreateTransportOptions,
  createTransport,
  type McpTransportFactory,
  type McpTransportHandle,
  type TransportOAuthOptions,
} from './transport/create.js';
export type { ReapOptions } from './transport/reap.js';
export type {
  HttpServerConfig,
  McpEntryPosition,
  McpFieldPosition,
  McpIdentityProvider,
  McpOAuthConfig,
  McpOAuthGrant,
  McpPrivateKeyJwt,
  McpSecretSource,
  McpServerChoice,
  McpServerCommon,
  McpServerConfig,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpServerStatusCommon,
  McpToolDeferral,
  McpToolPattern,
  McpTransportKind,
  RemoteServerConfig,
  SseServerConfig,
  StdioServerConfig,
} from './types.js';
