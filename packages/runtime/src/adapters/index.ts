// @epoch-agent/runtime/adapters: EpochTools and ToolResults in the shapes of the model APIs a host
// talks to — Anthropic Messages, OpenAI Chat Completions and Responses, the Vercel AI SDK — each
// content kind by the one policy of result-parts.ts. Types only of those APIs, written here: no
// provider SDK is loaded, or needed, at run time.

export {
  type AiSdkInputSchema,
  type AiSdkTool,
  type AiSdkToolOutput,
  toAiSdkTool,
  toAiSdkToolOutput,
  toAiSdkTools,
} from './ai-sdk.js';
export {
  type AnthropicTool,
  type AnthropicToolResultBlock,
  type AnthropicToolResultContent,
  toAnthropicTool,
  toAnthropicToolResult,
  toAnthropicTools,
} from './anthropic.js';
export { executeTool, toolErrorResult } from './execute-tool.js';
export {
  type OpenAIChatTool,
  type OpenAIChatToolAnswer,
  type OpenAIChatToolMessage,
  type OpenAIChatUserMessage,
  type OpenAIChatUserPart,
  toOpenAIChatTool,
  toOpenAIChatToolResult,
  toOpenAIChatTools,
} from './openai-chat.js';
export {
  type OpenAIResponsesOutputPart,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolOutput,
  toOpenAIResponsesTool,
  toOpenAIResponsesToolOutput,
  toOpenAIResponsesTools,
} from './openai-responses.js';
export { type OpenAIStrictSchema, openAIStrictSchema } from './openai-strict-schema.js';
export {
  type OpenAIToolArguments,
  type OpenAIToolOptions,
  openAIToolArguments,
} from './openai-tools.js';
export { type ObjectSchema, providerSchema } from './provider-schema.js';
export { TOOL_ERROR_LINE } from './result-parts.js';
