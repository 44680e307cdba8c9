// The text mcp_search_tools answers with: each found tool's definition, bounded. A deferred tool's
// description and schema are a server's, of any size; the answer goes into the model's context, so
// each is cut at a documented size and the whole answer kept within one (search-limits.ts).
import { estimateTokens } from '@epoch-agent/infra';
import type { EpochTool, JsonSchema } from '@epoch-agent/protocol';
import { withoutSchemaKeyword } from '../adapters/provider-schema.js';
import { MAX_ANSWER_TOKENS, MAX_DESCRIPTION_CHARS, MAX_SCHEMA_CHARS } from './search-limits.js';
import type { SearchableTool } from './tool-search.js';

/** A summarised schema's names and descriptions are cut to this many characters. */
const SUMMARY_TEXT_CHARS = 120;

/** The answer's text: the found tools, best first, as many as fit, and `note`. */
export function searchAnswer(found: readonly SearchableTool[], note: string): string {
  const tools: string[] = [];
  let left = 0;
  // Room for the brackets, the note and the count of those left out.
  let room = MAX_ANSWER_TOKENS - estimateTokens(note) - 50;
  for (const each of found) {
    const entry = JSON.stringify(entryOf(each));
    const tokens = estimateTokens(entry) + 1;
    if (tokens > room) {
      left += 1;
      continue;
    }
    room -= tokens;
    tools.push(entry);
  }
  const more =
    left === 0 ? '' : ` ${left} more found did not fit in this answer: search with a lower limit.`;
  // The entries are JSON already: joined, not parsed and written again.
  return `{"tools":[${tools.join(',')}],"note":${JSON.stringify(`${note}${more}`)}}`;
}

function entryOf({ tool, server }: SearchableTool) {
  return {
    name: tool.name,
    server,
    ...(tool.title === undefined ? {} : { title: cut(tool.title, SUMMARY_TEXT_CHARS) }),
    description: cut(tool.description, MAX_DESCRIPTION_CHARS),
    annotations: boundedAnnotations(tool.annotations),
    input_schema: boundedSchema(tool.inputSchema),
  };
}

// A server's annotations are hints and a title, which is cut like a summary's names.
function boundedAnnotations({ title, ...hints }: EpochTool['annotations']) {
  return title === undefined ? hints : { ...hints, title: cut(title, SUMMARY_TEXT_CHARS) };
}

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… [${text.length - max} more characters not shown]`;
}

function boundedSchema(schema: EpochTool['inputSchema']): { [key: string]: unknown } {
  const whole = withoutSchemaKeyword(schema);
  if (JSON.stringify(whole).length <= MAX_SCHEMA_CHARS) return whole;
  // Parameters are named in the schema's order while the summary stays within MAX_SCHEMA_CHARS.
  const all = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const properties: { [name: string]: object } = {};
  let size = 0;
  let named = 0;
  for (const [name, property] of all) {
    const { type, description } = isObject(property) ? property : {};
    const summary = {
      ...(typeof type === 'string' || Array.isArray(type) ? { type: cutJson(type) } : {}),
      ...(typeof description === 'string'
        ? { description: cut(description, SUMMARY_TEXT_CHARS) }
        : {}),
    };
    const key = cut(name, SUMMARY_TEXT_CHARS);
    size += key.length + JSON.stringify(summary).length + 4;
    if (size > MAX_SCHEMA_CHARS) break;
    properties[key] = summary;
    named += 1;
  }
  const required = (Array.isArray(schema.required) ? schema.required : []).filter(
    (name): name is string => typeof name === 'string' && name in properties,
  );
  return {
    type: 'object',
    properties,
    ...(required.length === 0 ? {} : { required }),
    $comment:
      `Summarised: the whole schema is over ${MAX_SCHEMA_CHARS} characters, so only ` +
      (named < all.length
        ? `the first ${named} of its ${all.length} parameters are named, each with its type.`
        : 'each parameter is named, with its type.'),
  };
}

/** A schema `type`: a string, or a short array of them; anything longer is left out. */
function cutJson(type: unknown): unknown {
  return JSON.stringify(type).length <= SUMMARY_TEXT_CHARS ? type : undefined;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
