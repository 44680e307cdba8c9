// What tools cost in the model's context, worded in one place: the summary and the budget line give
// the one total the runtime counts (view.offeredTokens: what every request carries, the tools
// that stand for those found on demand included), so two numbers never disagree at one moment;
// a card says what its own server adds, and never "≈ 0" for tools that are only on demand. A group's
// heading adds up its servers' own tools; the budget line says what the total carries besides
// them (the stand-in that finds the tools on demand), so the two never seem to disagree.
import type { McpView, ServerView } from '../src/api-types.js';
import { formatTokens } from './text.js';

export interface ToolTotals {
  /** The servers' tools the model gets, offered or on demand. */
  readonly tools: number;
  /** Of them, found on demand through mcp_search_tools. */
  readonly onDemand: number;
  /** What every request carries of tool definitions: the one total. */
  readonly tokens: number;
  /** Of `tokens`, what is not any server's own tools (mcp_search_tools, standing for those on demand). */
  readonly besides: number;
}

/** What the tools of `servers` add to every request: a group heading's figure. */
export function serversTokens(servers: readonly ServerView[]): number {
  return servers.reduce((sum, server) => sum + server.contextTokens, 0);
}

export function toolTotals(view: McpView): ToolTotals {
  const tools = Object.values(view.groups).flatMap((servers) =>
    servers.flatMap((server) => server.tools),
  );
  const own = serversTokens(Object.values(view.groups).flat());
  return {
    tools: tools.length,
    onDemand: tools.filter((tool) => tool.onDemand).length,
    tokens: view.offeredTokens,
    besides: Math.max(0, view.offeredTokens - own),
  };
}

/**
 * A card's line: `15 tools, 4 on demand, 3 off · ≈ 2.1k tokens of context in every request; the 4
 * on demand would add ≈ 900 tokens if offered, the 3 off would add ≈ 400 tokens`, or, when every
 * tool is on demand, `15 tools, all on demand: none in every request; …`.
 */
export function serverCostText(server: ServerView): string {
  const off = server.toolsOff.length;
  const onDemand = server.tools.filter((tool) => tool.onDemand).length;
  const offered = server.tools.length - onDemand;
  const all = server.tools.length + off;
  const count = [
    `${all} ${all === 1 ? 'tool' : 'tools'}`,
    onDemand > 0 && (offered === 0 && off === 0 ? 'all on demand' : `${onDemand} on demand`),
    off > 0 && `${off} off`,
  ].filter((part) => part !== false);
  const every =
    offered === 0 && onDemand > 0
      ? ': none in every request'
      : ` · ≈ ${formatTokens(server.contextTokens)} of context in every request`;
  const more = [
    onDemand > 0 &&
      `the ${onDemand} on demand would add ≈ ${formatTokens(server.contextTokensOnDemand)} if offered`,
    off > 0 && `the ${off} off would add ≈ ${formatTokens(server.contextTokensOff)}`,
  ].filter((part) => part !== false);
  return `${count.join(', ')}${every}${more.length > 0 ? `; ${more.join(', ')}` : ''}`;
}
