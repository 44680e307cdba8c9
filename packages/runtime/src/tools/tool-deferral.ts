// Which groups' tools are found on demand instead of offered one by one: the tool budget's
// decision. Pure, and decided on the whole set every time, so the answer depends only on which
// groups hold which tools, never on the order servers connected in.
//
// A group that says `defer: true` is always found on demand, one that says `false` (every host
// group) never. The `auto` ones (every MCP server's, by default) are found on demand only when
// what is offered would exceed the budget: the largest first, until what is left — the two tools
// that search and call the deferred ones counted in — fits. Largest first, because one big server
// moved out spares the most context while the fewest tools lose their place in the list.
import type { McpToolDeferral } from '@epoch-agent/plugin-mcp';
import { compareGroups } from './tool-name-resolution.js';

/** About 10% of a 200,000-token context: what the tools' definitions may take of every request. */
export const DEFAULT_TOOL_BUDGET_TOKENS = 20_000;

/** One group: how it wants its tools offered, and what offering them one by one costs. */
export interface GroupCost {
  readonly group: string;
  readonly defer: McpToolDeferral;
  readonly tokens: number;
}

/**
 * The groups whose tools are deferred, given the budget and the cost of the two tools that stand
 * for them (offered only when something is deferred). Empty when everything fits.
 */
export function deferredGroups(
  groups: readonly GroupCost[],
  budgetTokens: number,
  searchToolsTokens: number,
): Set<string> {
  const deferred = new Set(groups.filter(({ defer }) => defer === true).map(({ group }) => group));
  let offered = groups.reduce(
    (sum, { group, tokens }) => (deferred.has(group) ? sum : sum + tokens),
    0,
  );
  if (deferred.size === 0 && offered <= budgetTokens) return deferred;
  const candidates = groups
    .filter(({ defer }) => defer === 'auto')
    .sort((a, b) => b.tokens - a.tokens || compareGroups(a.group, b.group));
  for (const { group, tokens } of candidates) {
    if (offered + searchToolsTokens <= budgetTokens) break;
    deferred.add(group);
    offered -= tokens;
  }
  return deferred;
}
