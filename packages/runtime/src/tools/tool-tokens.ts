// How much of every request a tool's definition takes: the one estimate the tool budget, the
// `epoch mcp` commands and the connectors page all count with.

import { estimateTokens } from '@epoch-agent/infra';
import type { EpochTool } from '@epoch-agent/protocol';

/**
 * About how many tokens of every request `tool`'s definition takes: a provider sends each tool's
 * name, description and input schema with every turn, counted as that JSON's text is (infra's
 * estimateTokens).
 */
export function estimateToolTokens(tool: EpochTool): number {
  const { name, description, inputSchema } = tool;
  return estimateTokens(JSON.stringify({ name, description, input_schema: inputSchema }));
}
