// The public surface of @epoch-agent/web: the connectors page and its HTTP API (what `epoch web`
// runs), and the JSON the API speaks. Nothing else is imported from outside the package.
export type {
  AddServerField,
  AddServerRequest,
  AddServerResponse,
  ApiErrorBody,
  ApprovedAnswer,
  ApproveRequest,
  ApproveToolsRequest,
  ChoiceRequest,
  ChoiceSet,
  LoginStarted,
  LoginView,
  McpGroups,
  McpView,
  ParameterView,
  RevokedAnswer,
  ServerTarget,
  ServerView,
  ToolCallAnswer,
  ToolCallRequest,
  ToolChanges,
  ToolSchemas,
  ToolsApproved,
  ToolView,
  WithheldToolView,
} from './api-types.js';
export { isWebError, WebError, type WebErrorCode } from './errors.js';
export type { LoggedOut, OAuthStatus } from './oauth-types.js';
export type { QuestionAnswer, QuestionFieldProblem, QuestionView } from './question-types.js';
export type {
  ContentView,
  PromptGot,
  PromptList,
  PromptRequest,
  ResourceList,
  ResourceRead,
} from './server-content-types.js';
export { type RunningWeb, type StartWebOptions, startWeb } from './start-web.js';
export type {
  TaskCancelled,
  TaskErrorCode,
  TaskList,
  TaskStarter,
  TaskView,
} from './task-types.js';
