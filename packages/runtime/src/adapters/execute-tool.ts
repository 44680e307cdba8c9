// A tool call whose failure the model can read. A thrown McpError (the server was not reachable,
// the call timed out or was cancelled, the server answered with a JSON-RPC error) becomes an error
// result with the error's message, which names the server and tool and says what happened: every
// provider wants an answer to every tool call it made, and the model can try another way. Any
// other exception is a bug in the host or in a tool of its own, and is thrown on.

import { isMcpError, type McpError } from '@epoch-agent/plugin-mcp';
import type { EpochTool, ToolContext, ToolResult } from '@epoch-agent/protocol';

export async function executeTool(
  tool: EpochTool,
  args: { readonly [key: string]: unknown },
  ctx: ToolContext,
): Promise<ToolResult> {
  try {
    return await tool.execute(args, ctx);
  } catch (error) {
    if (isMcpError(error)) return toolErrorResult(error);
    throw error;
  }
}

export function toolErrorResult(error: McpError): ToolResult {
  return { content: [{ type: 'text', text: error.message }], isError: true };
}

export const NOT_AN_OBJECT = 'the arguments must be a JSON object.';

/** The answer to a call whose arguments are not what any tool takes (not a JSON object). */
export function argumentsError(tool: EpochTool, problem: string): ToolResult {
  return { content: [{ type: 'text', text: `${tool.name}: ${problem}` }], isError: true };
}
