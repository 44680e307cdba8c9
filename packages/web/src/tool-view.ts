// A tool as the page shows it: the name the model is given, its parameters read from its input
// schema (the runtime's toolParameters, as `epoch mcp tools` reads them), and what its definition
// costs in the model's context.
//
// The cost is an estimate on purpose (the runtime's estimateToolTokens, as the tool budget counts):
// every provider tokenizes differently and wraps tool definitions in its own way, and the estimate
// is close enough to tell a 200-token server from a 20,000-token one, which is the decision the
// number is for (a server whose tool list eats the context is worth turning off).
import { estimateToolTokens, type McpEpochTool, toolParameters } from '@epoch-agent/runtime';
import type { ToolView } from './api-types.js';

/** `name`: the one the model is given; `onDemand`: found through mcp_search_tools. */
export function toolView(name: string, tool: McpEpochTool, onDemand: boolean): ToolView {
  return {
    name,
    serverName: tool.target.kind === 'tool' ? tool.target.name : tool.target.kind,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    annotations: tool.annotations,
    parameters: toolParameters(tool.inputSchema),
    onDemand,
    contextTokens: estimateToolTokens({ ...tool, name }),
    task: tool.taskSupport === 'required',
  };
}
