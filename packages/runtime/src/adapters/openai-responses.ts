// OpenAI Responses: function tools, and a ToolResult as the `function_call_output` item that
// answers a `function_call`. Its output is text, or a list of text, images (PNG, JPEG, GIF, WebP)
// and files (PDF) when the result has media; audio and other binary data become a note. With no
// error flag, a failed result's text starts with TOOL_ERROR_LINE.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { type OpenAIToolOptions, openAIFunction } from './openai-tools.js';
import type { ObjectSchema } from './provider-schema.js';
import {
  dataUrl,
  IMAGE_TYPES,
  type MediaSupport,
  type ResultPart,
  resultParts,
  TOOL_ERROR_LINE,
} from './result-parts.js';

export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: ObjectSchema;
  strict: boolean;
}

export type OpenAIResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; file_data: string; filename: string };

export interface OpenAIResponsesToolOutput {
  type: 'function_call_output';
  call_id: string;
  /** Text when the result is text only; a list of parts when it has media. */
  output: string | OpenAIResponsesOutputPart[];
}

const SUPPORT: MediaSupport<'image' | 'file'> = {
  api: 'OpenAI Responses',
  takes: {
    image: (mimeType) => IMAGE_TYPES.has(mimeType),
    file: (mimeType) => mimeType === 'application/pdf',
  },
};

export function toOpenAIResponsesTool(
  tool: EpochTool,
  options: OpenAIToolOptions = {},
): OpenAIResponsesTool {
  return {
    type: 'function',
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    ...openAIFunction(tool, options),
  };
}

export function toOpenAIResponsesTools(
  tools: readonly EpochTool[],
  options: OpenAIToolOptions = {},
): OpenAIResponsesTool[] {
  return tools.map((tool) => toOpenAIResponsesTool(tool, options));
}

/** The `function_call_output` item answering the function call of `callId`. */
export function toOpenAIResponsesToolOutput(
  callId: string,
  result: ToolResult,
): OpenAIResponsesToolOutput {
  const parts = resultParts(result, SUPPORT).map(responsesPart);
  if (result.isError === true) parts.unshift({ type: 'input_text', text: TOOL_ERROR_LINE });
  const textOnly = parts.every((part) => part.type === 'input_text');
  const output = textOnly
    ? parts.map((part) => (part as { text: string }).text).join('\n\n')
    : parts;
  return { type: 'function_call_output', call_id: callId, output };
}

function responsesPart(part: ResultPart<'image' | 'file'>): OpenAIResponsesOutputPart {
  switch (part.kind) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: dataUrl(part) };
    case 'file':
      return { type: 'input_file', file_data: dataUrl(part), filename: part.filename };
  }
}
