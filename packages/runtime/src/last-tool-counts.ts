// What can be said about a server's tools without connecting it: how many its last connection
// listed (the schema cache, kept per connection fingerprint), offered or off under the choice the
// files make now. For `epoch mcp list`, which never connects; a server whose config changed since,
// or that never connected, has no counts.
import { McpSchemaCache } from '@epoch-agent/plugin-mcp/cache';
import { choiceCounts, serverToolNames } from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from './read-servers.js';

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
