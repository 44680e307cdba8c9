// tools/list on one connection: every page (paginate.ts, each with the full request options, and
// the first page's cache hints), then, when the connection mirrors tool parameters into headers (a
// 2026-era Streamable HTTP connection), the x-mcp-header check of each tool: the spec requires that
// a tool whose marks break its rules is not offered, so it is left out, with a warning that names
// the server, the tool and why; the marks of the others are kept for their calls.
import type { Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { type ParamHeader, scanParamHeaders } from '../transport/param-headers.js';
import { type ListedTools, type ListOwner, listToolPages } from './paginate.js';

export interface MarkedTools {
  readonly tools: Tool[];
  /** The marked tools' headers, by tool name; empty when the connection does not mirror. */
  readonly paramHeaders: ReadonlyMap<string, readonly ParamHeader[]>;
}

export type ToolList = ListedTools & MarkedTools;

export async function listTools(
  sdk: Client,
  options: RequestOptions,
  owner: ListOwner,
  mirrors: boolean,
): Promise<ToolList> {
  const listed = await listToolPages(sdk, options, owner);
  return { ...listed, ...markedTools(listed.tools, owner, mirrors) };
}

/**
 * The tools a connection offers of `listed`, and what each marked one's calls carry: all of them
 * when it does not mirror; else those whose marks keep the rules (a list the schema cache kept was
 * checked when it was listed, so none of it is left out again).
 */
export function markedTools(listed: Tool[], owner: ListOwner, mirrors: boolean): MarkedTools {
  const paramHeaders = new Map<string, readonly ParamHeader[]>();
  if (!mirrors) return { tools: listed, paramHeaders };
  const tools = listed.filter((tool) => {
    const scan = scanParamHeaders(tool.inputSchema);
    if (!scan.ok) {
      owner.logger.warn(
        `MCP server "${owner.server}": tool "${tool.name}" is not offered: ${scan.reason}. A 2026-07-28 server must mark only properties whose value can travel in an HTTP header; ask its maintainers to fix the tool's inputSchema.`,
        { server: owner.server, tool: tool.name },
      );
      return false;
    }
    if (scan.headers.length > 0) paramHeaders.set(tool.name, scan.headers);
    return true;
  });
  return { tools, paramHeaders };
}
