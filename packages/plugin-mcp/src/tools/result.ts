// A tools/call result as the model gets it. How it is checked when it arrives (leniently: one
// content block of a type nobody knows must not cost the model the rest of the answer), and how
// each content block becomes a ToolContent.
//
// Both checks are written by hand for the fields we pass on. They run on every call, where a
// schema library's general validation cost more than everything else the client does per call,
// and they keep the library out of the plugin's import.
import type { ToolContent, ToolContentAnnotations, ToolResult } from '@epoch-agent/protocol';
import type { ReadResourceResult, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { forAssistant } from './one-copy.js';

export interface ToolCallResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
}

/**
 * A tools/call result as a server may really send it, checked leniently. The SDK's `callTool()`
 * rejects the whole result (SdkError INVALID_RESULT) when one content block has a type it does not
 * know; checking only this much lets toToolResult check blocks one at a time, so the model still
 * gets the rest of the answer and a line saying what could not be shown. Missing `content` is an
 * empty list; an `isError` that is not a boolean is dropped; every other field is kept as sent.
 */
export function checkToolCallResult(
  value: unknown,
): { readonly value: ToolCallResult } | { readonly issue: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { issue: 'a tools/call result must be an object' };
  }
  const { content = [], isError } = value as { content?: unknown; isError?: unknown };
  if (!Array.isArray(content)) return { issue: 'content: must be a list' };
  const result: Record<string, unknown> = { ...value, content };
  if (typeof isError === 'boolean') result.isError = isError;
  else delete result.isError;
  return { value: result as unknown as ToolCallResult };
}

/** checkToolCallResult as a Standard Schema, for tools/call through the SDK's `request()`. */
export const toolCallResultSchema: StandardSchemaV1<unknown, ToolCallResult> = {
  '~standard': {
    version: 1,
    vendor: 'epoch-agent',
    validate(value) {
      const checked = checkToolCallResult(value);
      return 'value' in checked ? checked : { issues: [{ message: checked.issue }] };
    },
  },
};

/**
 * The result with each block checked (toToolContent) and its annotations kept; the blocks meant
 * for the user only (an `audience` without "assistant") in `forUser`, the rest in `content`.
 * Both copies of a result stay: which one the model gets is one-copy.ts's.
 */
export function toToolResult(result: ToolCallResult, origin: string): ToolResult {
  const content: ToolContent[] = [];
  const forUser: ToolContent[] = [];
  // One pass, on every call's way back.
  for (const item of result.content) {
    const block = toToolContent(item, origin);
    if (forAssistant(block)) content.push(block);
    else forUser.push(block);
  }
  const structured = result.structuredContent;
  const isObject =
    typeof structured === 'object' && structured !== null && !Array.isArray(structured);
  if (structured !== undefined && !isObject) {
    // Newer servers may return any JSON value here; ToolResult holds objects only, so the model
    // gets it as text rather than not at all.
    content.push({ type: 'text', text: `structuredContent: ${JSON.stringify(structured)}` });
  }
  return {
    content,
    ...(isObject ? { structuredContent: structured as { readonly [key: string]: unknown } } : {}),
    ...(forUser.length === 0 ? {} : { forUser }),
    ...(result.isError === undefined ? {} : { isError: result.isError }),
  };
}

type ResourceContents = ReadResourceResult['contents'][number];

export function embeddedResource(
  contents: ResourceContents,
): Extract<ToolContent, { type: 'resource' }>['resource'] {
  return {
    uri: contents.uri,
    ...(contents.mimeType === undefined ? {} : { mimeType: contents.mimeType }),
    ...('text' in contents ? { text: contents.text } : { blob: contents.blob }),
  };
}

const UNKNOWN_CONTENT_PREVIEW = 1_000;

type Block = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A block the MCP spec defines, with the fields we pass on as the spec types them; else text. */
function toToolContent(value: unknown, origin: string): ToolContent {
  const content = knownContent(value);
  if (content === undefined) return unknownContent(value, origin);
  const annotations = contentAnnotations((value as Block).annotations);
  return annotations === undefined ? content : { ...content, annotations };
}

function knownContent(value: unknown): ToolContent | undefined {
  if (!isBlock(value)) return undefined;
  const block = value;
  const { type } = block;
  switch (type) {
    case 'text':
      if (typeof block.text === 'string') return { type, text: block.text };
      break;
    case 'image':
    case 'audio':
      if (isBase64(block.data) && typeof block.mimeType === 'string') {
        return { type, data: block.data, mimeType: block.mimeType };
      }
      break;
    case 'resource': {
      const resource = resourceContents(block.resource);
      if (resource !== undefined) return { type, resource };
      break;
    }
    case 'resource_link':
      if (
        typeof block.uri === 'string' &&
        typeof block.name === 'string' &&
        optional(block.mimeType, 'string') &&
        optional(block.description, 'string') &&
        optional(block.title, 'string') &&
        optional(block.size, 'number')
      ) {
        return {
          type,
          uri: block.uri,
          name: block.name,
          ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType as string }),
          ...(block.description === undefined ? {} : { description: block.description as string }),
        };
      }
      break;
  }
  // A type this code does not know, or a known one without the fields the spec requires.
  return undefined;
}

/**
 * The annotations the spec defines, each field kept only when it has the spec's type: a malformed
 * one is dropped, never the block. An audience that is not a list of "user" and "assistant" is
 * dropped whole, so a block whose audience cannot be read still reaches the model.
 */
function contentAnnotations(value: unknown): ToolContentAnnotations | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { audience, priority, lastModified } = value as Readonly<Record<string, unknown>>;
  const kept: { -readonly [K in keyof ToolContentAnnotations]: ToolContentAnnotations[K] } = {};
  if (
    Array.isArray(audience) &&
    audience.every((role) => role === 'user' || role === 'assistant')
  ) {
    kept.audience = audience as ('user' | 'assistant')[];
  }
  if (typeof priority === 'number' && priority >= 0 && priority <= 1) kept.priority = priority;
  if (typeof lastModified === 'string') kept.lastModified = lastModified;
  return Object.keys(kept).length === 0 ? undefined : kept;
}

function isBlock(value: unknown): value is Block {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}

function resourceContents(
  value: unknown,
): Extract<ToolContent, { type: 'resource' }>['resource'] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { uri, mimeType, text, blob } = value as Readonly<Record<string, unknown>>;
  if (typeof uri !== 'string' || !optional(mimeType, 'string')) return undefined;
  const type = mimeType === undefined ? {} : { mimeType: mimeType as string };
  if (typeof text === 'string') return { uri, ...type, text };
  if (isBase64(blob)) return { uri, ...type, blob };
  return undefined;
}

function optional(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || typeof value === type;
}

/** What the spec calls base64 and the SDK checks the same way: what atob() takes. */
function isBase64(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
}

// A content type newer than this code (or a server off the spec) is shown to the model as text:
// dropping it would hide part of the answer, and throwing would lose the rest of it.
function unknownContent(block: unknown, origin: string): ToolContent {
  const type =
    typeof block === 'object' && block !== null && 'type' in block
      ? String(block.type)
      : typeof block;
  const json = JSON.stringify(block) ?? String(block);
  const preview =
    json.length > UNKNOWN_CONTENT_PREVIEW ? `${json.slice(0, UNKNOWN_CONTENT_PREVIEW)}…` : json;
  return {
    type: 'text',
    text: `[${origin} returned content of type "${type}", which this client cannot show: ${preview}]`,
  };
}
