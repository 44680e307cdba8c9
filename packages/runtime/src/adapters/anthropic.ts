// Anthropic Messages: tool definitions for `tools`, and a ToolResult as the `tool_result` block
// that answers a `tool_use`. A tool result carries text, images (JPEG, PNG, GIF, WebP) and PDF
// documents, and has its own error flag (`is_error`); audio and other binary data become a note.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { type ObjectSchema, providerSchema } from './provider-schema.js';
import { IMAGE_TYPES, type MediaSupport, type ResultPart, resultParts } from './result-parts.js';

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ObjectSchema;
}

type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } };

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** Left out when the tool gave nothing to show: Anthropic refuses empty text blocks. */
  content?: AnthropicToolResultContent[];
  is_error?: boolean;
}

const SUPPORT: MediaSupport<'image' | 'file'> = {
  api: 'Anthropic Messages',
  takes: {
    image: (mimeType) => IMAGE_TYPES.has(mimeType),
    file: (mimeType) => mimeType === 'application/pdf',
  },
};

export function toAnthropicTool(tool: EpochTool): AnthropicTool {
  return {
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    input_schema: providerSchema(tool.inputSchema),
  };
}

export function toAnthropicTools(tools: readonly EpochTool[]): AnthropicTool[] {
  return tools.map(toAnthropicTool);
}

/** The `tool_result` block answering the `tool_use` of id `toolUseId`. */
export function toAnthropicToolResult(
  toolUseId: string,
  result: ToolResult,
): AnthropicToolResultBlock {
  const content = resultParts(result, SUPPORT).map(anthropicContent);
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    ...(content.length === 0 ? {} : { content }),
    ...(result.isError === true ? { is_error: true } : {}),
  };
}

function anthropicContent(part: ResultPart<'image' | 'file'>): AnthropicToolResultContent {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image',
        source: {
          type: 'base64',
          media_type: part.mimeType as AnthropicImageType,
          data: part.data,
        },
      };
    case 'file':
      return {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.data },
      };
  }
}
