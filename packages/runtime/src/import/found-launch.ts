// What each server found in another client's file would run, shown as an approval shows a launch,
// and which server epoch has already that runs exactly the same (the same launch key, whatever its
// name): a server imported before is recognised by what it runs, so it is not offered again under
// a new name.
import {
  describeLaunch,
  launchKey,
  type McpLaunch,
  parseMcpConfig,
} from '@epoch-agent/plugin-mcp/config';
import type { Runtime } from '../assembly/runtime.js';
import type { FoundServer } from './found-server.js';

export interface FoundLaunch {
  readonly launch: McpLaunch;
  /** The server of epoch's that has the same launch key. */
  readonly sameAs?: string;
}

/** Each of `found` that would load, with its launch; a server that would not load has none. */
export function foundLaunches(
  runtime: Pick<Runtime, 'servers' | 'configFile'>,
  found: readonly FoundServer[],
): ReadonlyMap<FoundServer, FoundLaunch> {
  const known = new Map<string, string>();
  for (const { config } of runtime.servers()) {
    const key = launchKey(config);
    if (!known.has(key)) known.set(key, config.name);
  }
  const launches = new Map<FoundServer, FoundLaunch>();
  for (const server of found) {
    // Read as the user's file will read it once written there: its ${VAR}s, a cwd relative to it.
    const text = JSON.stringify({ servers: { [server.name]: server.entry } });
    const [config] = parseMcpConfig(text, runtime.configFile).servers;
    if (config === undefined) continue;
    const sameAs = known.get(launchKey(config));
    launches.set(server, {
      launch: describeLaunch(config),
      ...(sameAs === undefined ? {} : { sameAs }),
    });
  }
  return launches;
}
