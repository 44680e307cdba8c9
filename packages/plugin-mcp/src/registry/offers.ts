// What the registry offers the model for a server: its tools, made from a schema (cached, then
// live) and the server's choice; the live schema learned and cached as it comes; and a
// tools-changed event when what is offered changed.

import { isDeepStrictEqual } from 'node:util';
import type { McpServerSchema } from '../cache.js';
import { offersTool, serverToolName } from '../config/tool-choice.js';
import type { McpClient } from '../connection/client.js';
import type { McpConnectionState } from '../connection/state.js';
import { diffTools, isEmptyDiff } from '../tools/diff.js';
import { type McpEpochTool, toEpochTools } from '../tools/epoch-tools.js';
import { modelTool } from '../tools/model-text.js';
import { liveBackend } from './routing.js';
import type { Entry, Offer, Servers } from './servers.js';
import type { McpToolsChangedEvent } from './types.js';

/**
 * The server answered with its live schema: offer it from now on and cache it. Returns what to
 * announce when it replaced a different one.
 */
export function learn(
  servers: Servers,
  entry: Entry,
  client: McpClient,
  state: Extract<McpConnectionState, { kind: 'connected' }>,
):
  | {
      before: readonly McpEpochTool[];
      after: readonly McpEpochTool[];
      reason: McpToolsChangedEvent['reason'];
    }
  | undefined {
  const before = entry.offer;
  const { memory } = client;
  const schema: McpServerSchema = {
    tools: state.tools,
    resources: state.resources,
    prompts: state.prompts,
    ...(memory === undefined ? {} : { memory }),
  };
  const same = before !== undefined && before.config === entry.config;
  if (same && isDeepStrictEqual(before.schema, schema)) return undefined;
  void servers.cache?.set(entry.config, schema);
  // What the connection learned may be new while the tools are not: nothing to announce. Tools
  // made for another config (before a reconfigure) are made again: its choice may differ.
  if (same && sameTools(before.schema, schema)) {
    entry.offer = { ...before, schema };
    return undefined;
  }
  const after = offerFor(servers, entry, client, schema);
  entry.offer = after;
  if (before === undefined) return undefined;
  return {
    before: before.tools,
    after: after.tools,
    reason: entry.connected ? 'list_changed' : 'connect',
  };
}

export function announce(
  servers: Servers,
  entry: Entry,
  before: readonly McpEpochTool[],
  after: readonly McpEpochTool[],
  reason: McpToolsChangedEvent['reason'],
): void {
  const diff = diffTools(before, after);
  if (isEmptyDiff(diff)) return;
  servers.toolsListeners.emit({ server: entry.config.name, source: entry.source, reason, ...diff });
}

/**
 * For an enabled server: its tools call whatever client the server of that name has at the
 * call (see liveBackend), so a tool object a host holds outlives a reconnect or a new config.
 */
export function offerFor(
  servers: Servers,
  entry: Entry,
  client: McpClient,
  schema: McpServerSchema,
): Offer {
  const { config, source } = entry;
  const { name } = config;
  const live = (): Entry | undefined => servers.entries.get(name);
  const tools = toEpochTools({
    server: name,
    source,
    tools: schema.tools.map(modelTool),
    resources: schema.resources,
    backend: liveBackend(servers, name),
    cap: {
      // The server's config and secrets at the call: update() and reconfigure() replace them.
      maxTokens: () => (live() ?? entry).config.maxOutputTokens ?? servers.maxOutputTokens,
      dir: servers.toolResultsDir,
      get redact() {
        return (live()?.client ?? client).redactor;
      },
    },
    nameOptions: { maxLength: servers.toolNameMaxLength },
  });
  const offered = tools.filter((tool) => offersTool(config.choice, serverToolName(tool)));
  return { config, schema, tools, offered };
}

function sameTools(a: McpServerSchema, b: McpServerSchema): boolean {
  return (
    a.resources === b.resources && a.prompts === b.prompts && isDeepStrictEqual(a.tools, b.tools)
  );
}
