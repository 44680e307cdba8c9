// What can be said about a server without connecting it, from what its last connection left in
// the schema cache (kept per connection fingerprint): how many tools it listed, offered or off under
// the choice the files make now (`epoch mcp list`), and which protocol it spoke (`epoch mcp get`).
// A server whose config changed since, or that never connected, has neither.
import type { McpProtocol } from '@epoch-agent/plugin-mcp';
import { McpSchemaCache } from '@epoch-agent/plugin-mcp/cache';
import { choiceCounts, serverToolNames } from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from './configured-server.js';

export interface ToolCounts {
  readonly offered: number;
  readonly off: number;
}

/** Per server, in order: its counts, or undefined when unknown or when it is disabled. */
export async function lastToolCounts(
  servers: readonly ConfiguredServer[],
): Promise<(ToolCounts | undefined)[]> {
  const cache = new McpSchemaCache();
  return Promise.all(
    servers.map(async ({ config }) => {
      if (!config.choice.enabled) return undefined;
      const schema = await cache.get(config);
      return schema === undefined
        ? undefined
        : choiceCounts(config.choice, serverToolNames(schema));
    }),
  );
}

/** The protocol era and revision the server spoke when this config last connected. */
export async function lastProtocol(
  config: ConfiguredServer['config'],
): Promise<McpProtocol | undefined> {
  const verdict = (await new McpSchemaCache().get(config))?.memory?.verdict;
  return verdict === undefined ? undefined : { era: verdict.era, version: verdict.version };
}
