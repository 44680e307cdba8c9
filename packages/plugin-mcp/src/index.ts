// @epoch-agent/plugin-mcp: the MCP client plugin. The public surface, written by hand: what hosts
// use (the runtime, the benches, the conformance driver, README.md and EMBEDDING.md) and nothing
// more. The package's own tests import anything else from its module.

// The servers of one agent: start, stop and reconnect them, their statuses and their tools (with
// the types of its methods, so a host can name what they take and give).

export { McpRegistry } from './registry/registry.js';
export type {
  McpApprovalHolds,
  McpPinnedServer,
  McpPinnedTool,
  McpPinnedTools,
  McpRegistryOptions,
  McpServerPrompt,
  McpStatusListener,
  McpToolPinStore,
  McpToolsChangedEvent,
  McpToolsChangedListener,
} from './registry/types.js';
export type {
  McpApprovalReason,
  McpIcon,
  McpServerExit,
  McpServerSource,
  McpServerState,
  McpServerStatus,
  McpShownTool,
  McpTransportKind,
  McpWithheldTool,
} from './types.js';

// Tools that run as tasks: their records in $EPOCH_HOME, for a later process.

export {
  type McpBackgroundCall,
  type McpBackgroundState,
  startInBackground,
} from './tasks/background-call.js';
export type { TaskCancel as McpTaskCancel } from './tasks/task-lookup.js';
export {
  readTaskRecords,
  type TaskRecordListing as McpTaskRecordListing,
} from './tasks/task-record-list.js';
export { type McpTaskRecord, taskRecordsDir } from './tasks/task-records.js';
export type { TaskState as McpTaskState, TaskStatus as McpTaskStatus } from './tasks/task-wire.js';

// One server's client, for a host that manages a server by itself.

export type { McpServerCapabilities } from './connection/capabilities.js';
export { McpClient, type McpClientOptions, type McpStateListener } from './connection/client.js';
export type { McpConnectionOptions, McpTracingOptions } from './connection/options.js';
export type { McpProtocol, McpProtocolEra } from './connection/protocol.js';
export type { McpRoot, McpRoots } from './connection/roots.js';
export { MAX_INSTRUCTIONS_CHARS } from './connection/server-identity.js';
export {
  type McpServerOutput,
  type McpServerOutputLine,
  OUTPUT_MAX_BYTES,
  OUTPUT_MAX_LINES,
  ServerOutput,
} from './connection/server-output.js';
export type {
  McpConnectionState,
  McpConnectionStateKind,
  McpServerInfo,
  McpStateError,
} from './connection/state.js';
export {
  HEADERS_HELPER_LIFETIME_MS,
  HEADERS_HELPER_MAX_OUTPUT_BYTES,
  HEADERS_HELPER_TIMEOUT_MS,
  type McpHeadersHelper,
  type McpHeadersReason,
  type McpHeadersRequest,
} from './transport/headers-helper-rules.js';

// A server's questions for the person (README "Servers that ask you"): the form's rules, the same
// the `./elicitation` entry gives a browser, the limits, and a server's setting.

export { QUESTION_WAIT_MS, QUESTIONS_PER_REQUEST } from './elicitation/ask.js';
export {
  type AnswerCheck,
  checkAnswer,
  type FieldProblem,
  FORM_FIELDS_MAX,
  FORM_OPTIONS_MAX,
  type FormReading,
  formFields,
  urlOf,
  valueProblem,
} from './elicitation/form.js';
export { elicitationOf, type McpElicitationSetting, type McpTaskCalls } from './types.js';

// Errors: one class, decided on by `code`.

export { isMcpError, McpError, type McpErrorCode } from './errors/mcp-error.js';

// Reading mcp.json: everything the config-only entry (./config) exports, from that one list, and
// what a read config means.

export { fingerprint } from './config/fingerprint.js';
export * from './config/index.js';
export type {
  McpServerChoice,
  McpServerCommon,
  McpServerConfig,
  McpToolDeferral,
  McpToolPattern,
  McpVariableUse,
  RemoteServerConfig,
  StdioServerConfig,
} from './types.js';

// A server's tools as epoch tools: the names the model is given, and results held to
// max_output_tokens.

export {
  definitionHash,
  type McpToolDefinition,
  toolDefinition,
} from './tools/definition.js';
export { definitionDiff, type McpDefinitionLine } from './tools/definition-diff.js';
export { diffTools, isEmptyDiff, type McpToolsDiff } from './tools/diff.js';
export {
  type McpEpochTool,
  type McpToolBackend,
  type McpToolTarget,
  toEpochTools,
} from './tools/epoch-tools.js';
export { MAX_TOOL_DESCRIPTION_CHARS, MAX_TOOL_TITLE_CHARS } from './tools/model-text.js';
export {
  MAX_TOOL_NAME_LENGTH,
  MIN_TOOL_NAME_LENGTH,
  prefixedName,
  serverPrefix,
  TOOL_NAME_PREFIX,
} from './tools/names.js';
export { forAssistant, modelContent, type OneCopyOptions } from './tools/one-copy.js';
export type { ToolOutputCap } from './tools/output-cap.js';
export { defaultToolResultsDir } from './tools/result-files.js';
export {
  type McpSavedPiece,
  type McpSavedResult,
  McpSavedResults,
  type McpSavedResultsOptions,
} from './tools/saved-results.js';

// OAuth: logging in to a server and out of it, and what a login stored; the OAuth code loads when
// a login starts.

export { loginToServer, logoutFromServer, storedLoginOf } from './oauth/entry.js';
export type { McpLoginOptions, McpLoginResult } from './oauth/login.js';
export type { McpLogoutResult } from './oauth/logout.js';
export { openInBrowser } from './oauth/open-url.js';
export type { McpStoredLogin } from './oauth/stored-login.js';

// How servers are reached and stopped: a transport factory in place of the real transports (tests,
// in-memory servers), and how long closing a stdio server waits.

export type { McpTransportFactory } from './transport/create.js';
export type { ReapOptions } from './transport/reap.js';

// What each server offered when it last connected, so the next start shows its tools at once.

export { McpSchemaCache } from './cache.js';

// The redaction policy of one server's secrets (README: "The `epoch` command").

export { serverRedactor } from './secrets.js';
