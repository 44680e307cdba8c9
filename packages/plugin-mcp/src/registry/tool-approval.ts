// A person's approval of a server's withheld tools (McpRegistry.approveTools): their definitions as
// listed now become the pins, written to the store first, and then they are offered, with a
// tools-changed event (`approval`).
import { McpError } from '../errors/mcp-error.js';
import type { McpServerStatus } from '../types.js';
import { emitStatus, offeredBy, statusOf, withheldBy } from './entry-status.js';
import { announce, offerFor } from './offers.js';
import { type McpPinnedTool, pinnedServer, pinning, pinOf, pinsOf } from './pins.js';
import type { Servers } from './servers.js';

/** McpRegistry.approveTools. */
export async function approveTools(
  servers: Servers,
  name: string,
  tools: readonly string[] | undefined,
): Promise<McpServerStatus> {
  const entry = servers.named(name);
  const withheld = withheldBy(entry);
  const unknown = tools?.filter((tool) => !withheld.some((each) => each.name === tool)) ?? [];
  if (unknown.length > 0) {
    const listed = withheld.map((tool) => `"${tool.name}"`).join(', ');
    throw new McpError(
      'tool_not_withheld',
      `MCP server "${name}" has no withheld tool ${unknown.map((tool) => `"${tool}"`).join(', ')} (withheld now: ${listed || 'none'}).`,
      { server: name, tool: unknown[0] },
    );
  }
  const { offer, client } = entry;
  const store = servers.pins;
  // Nothing withheld: nothing to approve, and the pins stay as they are.
  if (store === undefined || offer === undefined || client === undefined || withheld.length === 0) {
    return statusOf(entry);
  }
  if (!pinning(servers, entry)) return statusOf(entry);
  let pins: Map<string, McpPinnedTool>;
  if (tools === undefined) {
    // The list as it is now; pins of tools it no longer has are dropped.
    pins = pinsOf(offer.schema.tools);
  } else {
    pins = new Map(entry.pins);
    for (const tool of withheld)
      if (tools.includes(tool.name)) pins.set(tool.name, pinOf(tool.after));
  }
  await store.write(pinnedServer(entry), pins);
  // Removed, or given another client, while the pins were written: the next start reads them.
  if (servers.entries.get(name) !== entry || entry.client !== client) return statusOf(entry);
  const before = { tools: offeredBy(entry), withheld };
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
