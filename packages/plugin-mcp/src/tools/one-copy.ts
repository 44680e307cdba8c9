// What of a tool result a model gets: one copy of it, and nothing meant for the user only. The one
// rule, used by EpochTool.execute of every MCP tool and by every adapter of the runtime.
//
// A server may send a result twice, as text and as `structuredContent` (the MCP spec asks it to,
// for clients that read only text): a file read comes back as the file's text and as
// `{ "content": "<the same text>" }`. Both to the model is every token twice. So:
//
//   no structuredContent                           the content as it is
//   text blocks that are the JSON of the           the text (the structured content dropped)
//   structured content, or that carry every
//   string and number of it, or a tool that
//   declares no outputSchema
//   otherwise (a summary beside the data of a      the structured content as JSON text, in place
//   declared outputSchema; or no text at all)      of the text blocks (other blocks kept)
//
// Blocks whose `annotations.audience` leaves out "assistant" never reach the model, whatever the
// rest of the result is.
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';
import { sameJson } from '../canonical-json.js';

/** Whether the tool declares an outputSchema; an EpochTool that is not an MCP tool declares none. */
export interface OneCopyOptions {
  readonly outputSchema: boolean;
}

/**
 * More scalars than this in a structured content are not looked for in the text one by one (each
 * is a search of the whole text): the text then does not count as carrying them.
 */
export const MAX_CARRIED_VALUES = 1_000;

/** The content a model gets of `result`: one copy, no block for the user only. */
export function modelContent(result: ToolResult, options: OneCopyOptions): ToolContent[] {
  const content = result.content.filter(forAssistant);
  const { structuredContent } = result;
  if (structuredContent === undefined) return content;
  const texts = content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  if (texts.length > 0 && (!options.outputSchema || carries(texts, structuredContent))) {
    return content;
  }
  const json: ToolContent = { type: 'text', text: JSON.stringify(structuredContent) };
  const first = content.findIndex((block) => block.type === 'text');
  const rest = content.filter((block) => block.type !== 'text');
  if (first === -1) return [...rest, json];
  // Where the text was, so that a caption before an image still comes before it.
  const before = content.slice(0, first).filter((block) => block.type !== 'text');
  return [...before, json, ...rest.slice(before.length)];
}

/** Whether a block is for the model: no audience said, or one that names the assistant. */
export function forAssistant(block: ToolContent): boolean {
  const audience = block.annotations?.audience;
  return audience === undefined || audience.includes('assistant');
}

function carries(texts: readonly string[], structured: unknown): boolean {
  if (texts.some((text) => parsesTo(text, structured))) return true;
  const values = scalars(structured);
  if (values === undefined) return false;
  const text = texts.join('\n');
  return values.every((value) => text.includes(value));
}

/** Every string and number in `value`, as text; undefined past MAX_CARRIED_VALUES. */
function scalars(value: unknown): string[] | undefined {
  const found: string[] = [];
  const walk = (item: unknown): boolean => {
    if (typeof item === 'string' || typeof item === 'number') {
      found.push(String(item));
      return found.length <= MAX_CARRIED_VALUES;
    }
    if (Array.isArray(item)) return item.every(walk);
    if (item !== null && typeof item === 'object') return Object.values(item).every(walk);
    return true;
  };
  return walk(value) ? found : undefined;
}

function parsesTo(text: string, wanted: unknown): boolean {
  // Only a text that could be JSON is parsed: a 60 KB file's text is not tried.
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[' && start !== '"') return false;
  try {
    return sameJson(JSON.parse(text), wanted);
  } catch {
    return false;
  }
}
