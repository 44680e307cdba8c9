// What the registry offers the model for a server: its tools, made from a schema (cached, then
// live), the server's choice and its pins (a tool that is not the approved definition is withheld);
// the live schema learned, cached and (the first one) pinned as it comes; and a tools-changed event
// when what is offered, or what is withheld, changed.

import { isDeepStrictEqual } from 'node:util';
import type { McpServerSchema } from '../cache.js';
import { offersTool, serverToolName } from '../config/tool-choice.js';
import type { McpClient } from '../connection/client.js';
import type { McpConnectionState } from '../connection/state.js';
import { diffTools, isEmptyDiff } from '../tools/diff.js';
import { type McpEpochTool, toEpochTools } from '../tools/epoch-tools.js';
import { modelTool } from '../tools/model-text.js';
import type { McpWithheldTool } from '../types.js';
import { pinFirstList, pinning, withheldTools } from './pins.js';
import { liveBackend } from './routing.js';
import type { Entry, Offer, Servers } from './servers.js';
import type { McpToolsChangedEvent } from './types.js';

/** What a tools-changed event compares: tools (offered, or all not withheld) and withheld ones. */
export interface ToolsShown {
  readonly tools: readonly McpEpochTool[];
  readonly withheld: readonly McpWithheldTool[];
}

export const NOTHING_SHOWN: ToolsShown = { tools: [], withheld: [] };

/** All of an offer's tools but the withheld ones, and those; nothing for no offer. */
export function shownOf(offer: Offer | undefined): ToolsShown {
  if (offer === undefined) return NOTHING_SHOWN;
  const { tools, withheld } = offer;
  if (withheld.length === 0) return { tools, withheld };
  const names = new Set(withheld.map(({ name }) => name));
  return { tools: tools.filter((tool) => !isWithheld(tool, names)), withheld };
}

/**
 * The server answered with its live schema: offer it from now on, cache it, and pin it when it has
 * no pins. Returns what to announce when it replaced a different one.
 */
export function learn(
  servers: Servers,
  entry: Entry,
  client: McpClient,
  state: Extract<McpConnectionState, { kind: 'connected' }>,
): { before: ToolsShown; after: ToolsShown; reason: McpToolsChangedEvent['reason'] } | undefined {
  const before = entry.offer;
  const { memory } = client;
  const schema: McpServerSchema = {
    tools: state.tools,
    resources: state.resources,
    prompts: state.prompts,
    ...(memory === undefined ? {} : { memory }),
  };
  // Pinned now (offerFor pins it): the tools offered from the cache are trusted from now on, so
  // they are made again.
  const pinsNow = pinning(servers, entry) && entry.pins === undefined;
  const same = before !== undefined && before.config === entry.config && !pinsNow;
  if (same && isDeepStrictEqual(before.schema, schema)) return undefined;
  void servers.cache?.set(entry.config, schema);
  // What the connection learned may be new while the tools are not: nothing to announce. Tools
  // made for another config (before a reconfigure) are made again: its choice may differ.
  if (same && sameTools(before.schema, schema)) {
    entry.offer = { ...before, schema };
    return undefined;
  }
  const after = offerFor(servers, entry, client, schema, { live: true });
  entry.offer = after;
  if (before === undefined) return undefined;
  return {
    before: shownOf(before),
    after: shownOf(after),
    reason: entry.connected ? 'list_changed' : 'connect',
  };
}

export function announce(
  servers: Servers,
  entry: Entry,
  before: ToolsShown,
  after: ToolsShown,
  reason: McpToolsChangedEvent['reason'],
): void {
  const diff = diffTools(before.tools, after.tools);
  if (isEmptyDiff(diff) && isDeepStrictEqual(before.withheld, after.withheld)) return;
  servers.toolsListeners.emit({
    server: entry.config.name,
    source: entry.source,
    reason,
    ...diff,
    withheld: after.withheld,
  });
}

/**
 * For an enabled server: its tools call whatever client the server of that name has at the
 * call (see liveBackend), so a tool object a host holds outlives a reconnect or a new config.
 * `live`: the schema is what the server listed now, not the cache's, so it is pinned when the
 * server has no pins. The one place a schema's tools become definitions: offered, withheld,
 * pinned.
 */
export function offerFor(
  servers: Servers,
  entry: Entry,
  client: McpClient,
  schema: McpServerSchema,
  { live = false }: { readonly live?: boolean } = {},
): Offer {
  const { config, source } = entry;
  const { name } = config;
  const current = (): Entry | undefined => servers.entries.get(name);
  // As the model may see them (cleaned and cut): what is offered, compared, pinned and shown.
  const listed = schema.tools.map(modelTool);
  if (live) pinFirstList(servers, entry, listed);
  // Only with pinning on are the pins looked at: its off switch withholds nothing and trusts nothing.
  const pins = pinning(servers, entry) ? entry.pins : undefined;
  const withheld = pins === undefined ? [] : withheldTools(listed, pins);
  const names = new Set(withheld.map((tool) => tool.name));
  const tools = toEpochTools({
    server: name,
    source,
    tools: listed,
    resources: schema.resources,
    backend: liveBackend(servers, name),
    cap: {
      // The server's config and secrets at the call: update() and reconfigure() replace them.
      maxTokens: () => (current() ?? entry).config.maxOutputTokens ?? servers.maxOutputTokens,
      dir: servers.toolResultsDir,
      saved: servers.savedResults,
      get redact() {
        return (current()?.client ?? client).redactor;
      },
    },
    nameOptions: { maxLength: servers.toolNameMaxLength },
    annotationsTrusted: (tool) =>
      source === 'host' || (pins !== undefined && !names.has(tool.name)),
  });
  const offered = tools.filter(
    (tool) => !isWithheld(tool, names) && offersTool(config.choice, serverToolName(tool)),
  );
  return { config, schema, tools, offered, withheld };
}

function isWithheld(tool: McpEpochTool, names: ReadonlySet<string>): boolean {
  return names.size > 0 && tool.target.kind === 'tool' && names.has(tool.target.name);
}

function sameTools(a: McpServerSchema, b: McpServerSchema): boolean {
  return (
    a.resources === b.resources && a.prompts === b.prompts && isDeepStrictEqual(a.tools, b.tools)
  );
}
