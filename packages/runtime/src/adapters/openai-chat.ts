// OpenAI Chat Completions: function tools, and a ToolResult as the `tool` message that answers a
// tool call. A tool message carries text only, so media travel in a user message that follows:
// each image (PNG, JPEG, GIF, WebP), WAV or MP3 clip and PDF is a part of `followUp`, and the tool
// message says where it went. Chat Completions wants the tool messages of one assistant turn right
// after it, so a host appends every `followUp` after the last of them. Other binary data becomes a
// note. With no error flag, a failed result's text starts with TOOL_ERROR_LINE.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { type OpenAIToolOptions, openAIFunction } from './openai-tools.js';
import type { ObjectSchema } from './provider-schema.js';
import {
  dataUrl,
  IMAGE_TYPES,
  type MediaKind,
  type MediaPart,
  type MediaSupport,
  resultParts,
  TOOL_ERROR_LINE,
} from './result-parts.js';

export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: ObjectSchema; strict: boolean };
}

export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

export type OpenAIChatUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

export interface OpenAIChatUserMessage {
  role: 'user';
  content: OpenAIChatUserPart[];
}

export interface OpenAIChatToolAnswer {
  readonly message: OpenAIChatToolMessage;
  /** The result's media, when it has any: append after the turn's last tool message. */
  readonly followUp?: OpenAIChatUserMessage;
}

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

const SUPPORT: MediaSupport<MediaKind> = {
  api: 'OpenAI Chat Completions',
  takes: {
    image: (mimeType) => IMAGE_TYPES.has(mimeType),
    audio: (mimeType) => mimeType in AUDIO_FORMATS,
    file: (mimeType) => mimeType === 'application/pdf',
  },
};

export function toOpenAIChatTool(tool: EpochTool, options: OpenAIToolOptions = {}): OpenAIChatTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === '' ? {} : { description: tool.description }),
      ...openAIFunction(tool, options),
    },
  };
}

export function toOpenAIChatTools(
  tools: readonly EpochTool[],
  options: OpenAIToolOptions = {},
): OpenAIChatTool[] {
  return tools.map((tool) => toOpenAIChatTool(tool, options));
}

/** The `tool` message answering the tool call of id `toolCallId`, and its media, if any. */
export function toOpenAIChatToolResult(
  toolCallId: string,
  result: ToolResult,
): OpenAIChatToolAnswer {
  const lines: string[] = result.isError === true ? [TOOL_ERROR_LINE] : [];
  const media: OpenAIChatUserPart[] = [];
  for (const part of resultParts(result, SUPPORT)) {
    if (part.kind === 'text') {
      lines.push(part.text);
      continue;
    }
    media.push(userPart(part));
    lines.push(
      `[${part.mimeType} ${media.length} of this result follows in the next user message]`,
    );
  }
  const message: OpenAIChatToolMessage = {
    role: 'tool',
    tool_call_id: toolCallId,
    content: lines.join('\n\n'),
  };
  if (media.length === 0) return { message };
  return {
    message,
    followUp: {
      role: 'user',
      content: [
        { type: 'text', text: `Attachments of the result of tool call ${toolCallId}:` },
        ...media,
      ],
    },
  };
}

function userPart(part: MediaPart): OpenAIChatUserPart {
  switch (part.kind) {
    case 'image':
      return { type: 'image_url', image_url: { url: dataUrl(part) } };
    case 'audio':
      return {
        type: 'input_audio',
        input_audio: { data: part.data, format: AUDIO_FORMATS[part.mimeType] ?? 'wav' },
      };
    case 'file':
      return { type: 'file', file: { file_data: dataUrl(part), filename: part.filename } };
  }
}
