// How much of every request a tool's definition takes: the one estimate the tool budget, the
// `epoch mcp` commands and the connectors page all count with.

import type { EpochTool } from '@epoch-agent/protocol';

/**
 * About how many tokens of every request `tool`'s definition takes: a provider sends each tool's
 * name, description and input schema with every turn. Counted as characters / 4 of that JSON, the
 * usual rule of thumb for English and JSON; a given model's tokenizer differs by a few percent,
 * which is not what decides whether 100 tools are too many.
 */
export function estimateToolTokens(tool: EpochTool): number {
  const { name, description, inputSchema } = tool;
  return Math.ceil(JSON.stringify({ name, description, input_schema: inputSchema }).length / 4);
}
