// A tools/call result as the model's ToolResult, its structuredContent checked first against the
// tool's outputSchema (output-check.ts): one rule for a call's result and for a task's result
// fetched later (McpRegistry.taskResult, `epoch mcp tasks show`).
import type { JsonSchema, ToolResult } from '@epoch-agent/protocol';
import { type ToolCallResult, toToolResult } from './result.js';

/** The outputSchema check, loaded with the first result of a tool that declares one. */
let outputCheck: Promise<typeof import('./output-check.js')> | undefined;

/**
 * `result` as a ToolResult; one that breaks `outputSchema` (when the tool declares one) is a tool
 * error naming each path and what is wrong. `origin` names the server and the tool.
 */
export async function checkedToolResult(
  outputSchema: JsonSchema | undefined,
  result: ToolCallResult,
  origin: string,
): Promise<ToolResult> {
  if (outputSchema !== undefined) {
    outputCheck ??= import('./output-check.js');
    const { outputProblem } = await outputCheck;
    const problem = outputProblem(outputSchema, result, origin);
    if (problem !== undefined) return { content: [{ type: 'text', text: problem }], isError: true };
  }
  return toToolResult(result, origin);
}
