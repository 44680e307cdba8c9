// A person's approval of a server's withheld tools (McpRegistry.approveTools): their definitions as
// listed now become the pins, written to the store first, and then they are offered, with a
// tools-changed event (`approval`).

import type { Tool } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { McpServerStatus, McpShownTool, McpWithheldTool } from '../types.js';
import { emitStatus, offeredBy, statusOf, withheldBy } from './entry-status.js';
import { announce, offerFor } from './offers.js';
import { pinOf, writePins } from './pins.js';
import type { Servers } from './servers.js';
import type { McpPinnedTool, McpPinnedTools } from './types.js';

/**
 * McpRegistry.approveTools, one approval at a time: two at once would each write the pins without
 * the other's tools.
 */
export function approveTools(
  servers: Servers,
  name: string,
  tools: readonly McpShownTool[] | undefined,
): Promise<McpServerStatus> {
  const run = servers.toolApprovals.then(() => approve(servers, name, tools));
  servers.toolApprovals = run.catch(() => undefined);
  return run;
}

async function approve(
  servers: Servers,
  name: string,
  tools: readonly McpShownTool[] | undefined,
): Promise<McpServerStatus> {
  const entry = servers.named(name);
  const withheld = withheldBy(entry);
  if (tools !== undefined) checkShown(name, tools, withheld);
  const { offer, client } = entry;
  const store = servers.pins;
  // Nothing withheld (pinning off withholds nothing), or none named: the pins stay as they are.
  const none = withheld.length === 0 || tools?.length === 0;
  if (store === undefined || offer === undefined || client === undefined || none) {
    return statusOf(entry);
  }
  // The definitions as the offer has them (offerFor made them): the tools not withheld are their
  // pins already. Approving all keeps the pins of the tools listed now only.
  const approved = withheld.filter(
    (tool) => tools?.some((shown) => shown.name === tool.name) ?? true,
  );
  const pins = new Map<string, McpPinnedTool>(
    tools === undefined ? keptPins(entry.pins, offer.schema.tools) : entry.pins,
  );
  for (const tool of approved) pins.set(tool.name, pinOf(tool.after));
  await writePins(servers, store, entry, pins);
  // Removed, or given another client, while the pins were written: the next start reads them.
  if (servers.entries.get(name) !== entry || entry.client !== client) return statusOf(entry);
  const before = { tools: offeredBy(entry), withheld: withheldBy(entry) };
  entry.pins = pins;
  // The list it has now: one that changed again meanwhile is checked against the new pins.
  const current = entry.offer ?? offer;
  entry.offer = offerFor(servers, entry, client, current.schema);
  emitStatus(servers, entry);
  announce(
    servers,
    entry,
    before,
    { tools: offeredBy(entry), withheld: withheldBy(entry) },
    'approval',
  );
  return statusOf(entry);
}

/** The pins of the tools of `listed`, by name. */
function keptPins(pins: McpPinnedTools | undefined, listed: readonly Tool[]): McpPinnedTools {
  const kept = new Map<string, McpPinnedTool>();
  for (const { name } of listed) {
    const pin = pins?.get(name);
    if (pin !== undefined) kept.set(name, pin);
  }
  return kept;
}

/**
 * Throws unless every tool of `shown` is withheld now with the definition shown:
 * `tool_not_withheld` for one that is not withheld at all, `tools_changed` for one the server
 * changed again after it was shown. Nothing is approved then: a person approves what they saw.
 */
function checkShown(
  server: string,
  shown: readonly McpShownTool[],
  withheld: readonly McpWithheldTool[],
): void {
  const quoted = (tools: readonly McpShownTool[]) =>
    tools.map((tool) => JSON.stringify(tool.name)).join(', ');
  const now = new Map(withheld.map((tool) => [tool.name, tool.hash]));
  const unknown = shown.filter((tool) => !now.has(tool.name));
  if (unknown.length > 0) {
    const listed = quoted(withheld);
    throw new McpError(
      'tool_not_withheld',
      `MCP server "${server}" has no withheld tool ${quoted(unknown)} (withheld now: ${listed || 'none'}).`,
      { server, tool: unknown[0]?.name },
    );
  }
  const changed = shown.filter((tool) => now.get(tool.name) !== tool.hash);
  if (changed.length > 0) {
    throw new McpError(
      'tools_changed',
      `MCP server "${server}" changed ${quoted(changed)} again after it was shown, so nothing was approved. Look at its withheld tools as they are now.`,
      { server, tool: changed[0]?.name },
    );
  }
}
