// The Vercel AI SDK: an EpochTool as the object its `Tool` type takes (`type: 'dynamic'`, as the
// AI SDK's own MCP client makes its tools), without loading the `ai` package: the input schema is
// a Standard Schema that converts to JSON Schema (the AI SDK's `asSchema` takes one), every
// argument passes its check (the server checks them), and `toModelOutput` gives the model the
// result by the policy of result-parts.ts: text, images and every other media type as parts the
// AI SDK hands on to its provider (which decides what it can send), and a failed result as
// `error-text`.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { isSchema } from '../tools/schema-ref.js';
import { argumentsError, executeTool, NOT_AN_OBJECT } from './execute-tool.js';
import { providerSchema } from './provider-schema.js';
import { type MediaKind, type MediaSupport, type ResultPart, resultParts } from './result-parts.js';
import { mapSubschemas } from './schema-walk.js';

/** A Standard Schema (`@standard-schema/spec` v1) with a JSON Schema converter. */
export interface AiSdkInputSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: unknown };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

export type AiSdkToolOutput =
  | { type: 'error-text'; value: string }
  | {
      type: 'content';
      value: (
        | { type: 'text'; text: string }
        | { type: 'image-data'; data: string; mediaType: string }
        | { type: 'file-data'; data: string; mediaType: string; filename?: string }
      )[];
    };

export interface AiSdkTool {
  type: 'dynamic';
  description: string;
  title?: string;
  inputSchema: AiSdkInputSchema;
  execute: (input: unknown, options: { abortSignal?: AbortSignal }) => Promise<ToolResult>;
  toModelOutput: (options: { output: ToolResult }) => AiSdkToolOutput;
}

const SUPPORT: MediaSupport<MediaKind> = {
  api: 'the AI SDK',
  takes: {
    image: (mimeType) => mimeType.startsWith('image/'),
    audio: () => true,
    file: () => true,
  },
};

export function toAiSdkTool(tool: EpochTool): AiSdkTool {
  return {
    type: 'dynamic',
    description: tool.description,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    inputSchema: aiSdkInputSchema(tool),
    execute: (input, { abortSignal }) => {
      if (!isSchema(input)) {
        return Promise.resolve(argumentsError(tool, NOT_AN_OBJECT));
      }
      // A tool call outside a run that can be stopped still needs a signal: one never aborted.
      return executeTool(tool, input, { signal: abortSignal ?? new AbortController().signal });
    },
    toModelOutput: ({ output }) => toAiSdkToolOutput(output),
  };
}

/** A tool set (`tools` of `generateText` / `streamText`), keyed by each tool's name. */
export function toAiSdkTools(tools: readonly EpochTool[]): Record<string, AiSdkTool> {
  return Object.fromEntries(tools.map((tool) => [tool.name, toAiSdkTool(tool)]));
}

export function toAiSdkToolOutput(result: ToolResult): AiSdkToolOutput {
  const parts = resultParts(result, SUPPORT);
  if (result.isError === true) {
    const text = parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n\n');
    return { type: 'error-text', value: text };
  }
  return {
    type: 'content',
    value: parts.map(aiSdkPart),
  };
}

type AiSdkPart = Extract<AiSdkToolOutput, { type: 'content' }>['value'][number];

function aiSdkPart(part: ResultPart): AiSdkPart {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image-data', data: part.data, mediaType: part.mimeType };
    case 'audio':
      return { type: 'file-data', data: part.data, mediaType: part.mimeType };
    case 'file':
      return {
        type: 'file-data',
        data: part.data,
        mediaType: part.mimeType,
        filename: part.filename,
      };
  }
}

function aiSdkInputSchema(tool: EpochTool): AiSdkInputSchema {
  // A fresh copy for each conversion: the AI SDK writes into the schema it is given.
  const convert = (): Record<string, unknown> => keepObjectsOpen(providerSchema(tool.inputSchema));
  return {
    '~standard': {
      version: 1,
      vendor: 'epoch-agent',
      validate: (value) => ({ value }),
      jsonSchema: { input: convert, output: convert },
    },
  };
}

// The AI SDK closes every object of a Standard Schema it converts (`additionalProperties: false`
// where it is absent or a boolean), which would leave a free-form object (`mcp_call_tool`'s
// `arguments`) no properties at all. It keeps a schema there, so one that allows any property
// says so with the schema `{}`, which means the same.
function keepObjectsOpen(schema: Record<string, unknown>): Record<string, unknown> {
  const open = mapSubschemas(schema, keepObjectsOpen);
  const { additionalProperties } = open;
  const types = Array.isArray(open.type) ? open.type : [open.type];
  if (
    types.includes('object') &&
    (additionalProperties === undefined || additionalProperties === true)
  ) {
    open.additionalProperties = {};
  }
  return open;
}
