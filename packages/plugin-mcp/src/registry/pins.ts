// A server's pinned tool definitions (README, "Pinned tools"): what a registry keeps them in, read
// when the server starts, written when its first live list is seen and when a person approves its
// tools; and the partition of a list into the tools that may be offered and those withheld because
// they are not the definitions a person approved.
import { messageOf } from '@epoch-agent/infra';
import type { Tool } from '@modelcontextprotocol/client';
import { sameJson } from '../canonical-json.js';
import { launchKey } from '../config/launch.js';
import { definitionHash, type McpToolDefinition, toolDefinition } from '../tools/definition.js';
import type { McpWithheldTool } from '../types.js';
import type { Entry, Servers } from './servers.js';
import type { McpPinnedServer, McpPinnedTool, McpPinnedTools, McpToolPinStore } from './types.js';

/** Whether the server's tools are checked against pins: a store is given and its entry allows it. */
export function pinning(servers: Servers, entry: Entry): boolean {
  return servers.pins !== undefined && entry.config.pinTools !== false;
}

/** The tools of `tools` that `pins` does not allow: new, or not the pinned definition. */
export function withheldTools(tools: readonly Tool[], pins: McpPinnedTools): McpWithheldTool[] {
  const withheld: McpWithheldTool[] = [];
  for (const tool of tools) {
    const pin = pins.get(tool.name);
    if (pin === undefined) {
      const after = toolDefinition(tool);
      withheld.push({ name: tool.name, reason: 'new', after, hash: definitionHash(after) });
    } else if (!samePinned(tool, pin)) {
      const after = toolDefinition(tool);
      const { definition: before } = pin;
      withheld.push({
        name: tool.name,
        reason: 'changed',
        before,
        after,
        hash: definitionHash(after),
      });
    }
  }
  return withheld;
}

// Run for every tool of every server at each start (its cached list against its pins), so it
// hashes nothing when the definitions are equal, the common case, and copies nothing: a hash is
// only the judge when they seem to differ (a member written as undefined by a host's server).
function samePinned(tool: Tool, { definition: pinned, hash }: McpPinnedTool): boolean {
  const same =
    tool.title === pinned.title &&
    tool.description === pinned.description &&
    sameJson(tool.inputSchema, pinned.inputSchema) &&
    sameJson(tool.outputSchema, pinned.outputSchema) &&
    sameJson(tool.annotations, pinned.annotations);
  return same || definitionHash(toolDefinition(tool)) === hash;
}

/** Pins of every tool of `tools`. */
export function pinsOf(tools: readonly Tool[]): Map<string, McpPinnedTool> {
  return new Map(tools.map((tool) => [tool.name, pinOf(toolDefinition(tool))]));
}

/**
 * Its hash is computed when first read — as the pins are written, in the background — not when a
 * first list is pinned: that is every tool of every server at a first start.
 */
export function pinOf(definition: McpToolDefinition): McpPinnedTool {
  let hash: string | undefined;
  return {
    definition,
    get hash() {
      hash ??= definitionHash(definition);
      return hash;
    },
  };
}

export function pinnedServer(entry: Entry): McpPinnedServer {
  return { source: entry.source, name: entry.config.name, launch: launchKey(entry.config) };
}

/** Which server, in which launch, a pin write was for: the key of Servers.unwrittenPins. */
function pinKey({ source, name, launch }: McpPinnedServer): string {
  return JSON.stringify([source, name, launch]);
}

/**
 * The server's pins from the store, into `entry.pins`; a store that fails to read is as a corrupt
 * file: an empty map, every tool withheld. When the store has none, the pins of a first list it
 * refused to write hold: with none, the next list would be taken for the first, and a tool changed
 * meanwhile trusted without approval.
 */
export async function readPins(servers: Servers, entry: Entry): Promise<void> {
  const { pins } = servers;
  if (pins === undefined) return;
  // This process's own writes first: a reconnect right after a first list read the store before
  // that list's pins were in it, and took the next list, changed or not, for the first.
  await Promise.all(servers.pinWrites);
  const server = pinnedServer(entry);
  try {
    entry.pins = (await pins.read(server)) ?? servers.unwrittenPins.get(pinKey(server));
  } catch (error) {
    const { name } = entry.config;
    servers.logger.warn(
      `MCP server "${name}": its tool pins could not be read, so its tools are withheld until they are approved: ${messageOf(error)}`,
      { server: name },
    );
    entry.pins = new Map();
  }
}

/**
 * The first live list of a server with no pins in this launch becomes its pins. Written in the
 * background (disconnectAll waits for it); a failed write is a warning, and the pins hold in memory
 * for this process (this registry): across its reconnects too, while the store has none.
 */
export function pinFirstList(servers: Servers, entry: Entry, tools: readonly Tool[]): void {
  const store = servers.pins;
  if (store === undefined || !pinning(servers, entry) || entry.pins !== undefined) return;
  const pins = pinsOf(tools);
  entry.pins = pins;
  const server = pinnedServer(entry);
  const write = store.write(server, pins).catch((error: unknown) => {
    servers.unwrittenPins.set(pinKey(server), pins);
    const { name } = entry.config;
    servers.logger.warn(
      `MCP server "${name}": its tool pins could not be written, so they hold only until this process ends (a later start pins its tools afresh): ${messageOf(error)}`,
      { server: name },
    );
  });
  servers.pinWrites.add(write);
  void write.finally(() => servers.pinWrites.delete(write));
}

/**
 * Writes the server's pins (an approval). Once the store has them, pins it refused before are
 * forgotten: with the store's taken away later (a revoke), the next list is pinned afresh.
 */
export async function writePins(
  servers: Servers,
  store: McpToolPinStore,
  entry: Entry,
  pins: McpPinnedTools,
): Promise<void> {
  const server = pinnedServer(entry);
  await store.write(server, pins);
  servers.unwrittenPins.delete(pinKey(server));
}
