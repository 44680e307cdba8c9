// What OpenAI's Chat Completions and Responses APIs share about tools: the schema a function tool
// is sent with (strict when asked for and possible, see openai-strict-schema.ts), and the
// arguments a function call came back with, as the tool's own schema wants them.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { argumentsError, NOT_AN_OBJECT } from './execute-tool.js';
import { openAIStrictSchema, withoutOptionalNulls } from './openai-strict-schema.js';
import { type ObjectSchema, providerSchema } from './provider-schema.js';

export interface OpenAIToolOptions {
  /**
   * Send each tool whose schema strict mode can express with `strict: true` and that schema
   * transformed; the others with `strict: false` (`openAIStrictSchema` says why). Default false.
   */
  readonly strict?: boolean;
}

export function openAIFunction(
  tool: EpochTool,
  options: OpenAIToolOptions,
): { parameters: ObjectSchema; strict: boolean } {
  if (options.strict === true) {
    const strict = openAIStrictSchema(tool.inputSchema);
    if (strict.kind === 'strict') return { parameters: strict.schema, strict: true };
  }
  return { parameters: providerSchema(tool.inputSchema), strict: false };
}

export type OpenAIToolArguments =
  | { readonly kind: 'arguments'; readonly args: { readonly [key: string]: unknown } }
  /** The model sent no JSON object: answer the call with `result`, which says so. */
  | { readonly kind: 'invalid'; readonly result: ToolResult };

/**
 * A function call's `arguments` (JSON text) as arguments for `tool.execute`: a `null` for a
 * property the tool's schema leaves optional (what a strict tool's model sends for "left out") is
 * left out, so the server sees the arguments its schema asks for.
 */
export function openAIToolArguments(tool: EpochTool, json: string): OpenAIToolArguments {
  let value: unknown;
  try {
    value = json.trim() === '' ? {} : JSON.parse(json);
  } catch (error) {
    return invalid(
      argumentsError(tool, `the arguments are not JSON (${(error as Error).message}).`),
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(argumentsError(tool, NOT_AN_OBJECT));
  }
  const args = withoutOptionalNulls(value, tool.inputSchema) as { readonly [key: string]: unknown };
  return { kind: 'arguments', args };
}

function invalid(result: ToolResult): OpenAIToolArguments {
  return { kind: 'invalid', result };
}
