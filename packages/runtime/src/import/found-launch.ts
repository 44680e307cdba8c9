// What each server found in another client's file would run, shown as an approval shows a launch,
// and which server epoch has already that runs exactly the same (the same launch key, whatever its
// name): a server imported before is recognised by what it runs, so it is not offered again under
// a new name. Within one import too: of the servers found that run exactly the same (two clients
// holding one server under two names), the first is imported and the others name it.
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
  /** Not one of epoch's but an earlier server of the same import has the same launch key. */
  readonly sameAsFound?: FoundServer;
}

/** Whether a server found runs what epoch has, or what an earlier one of the import runs. */
export function runsAgain(launch: FoundLaunch | undefined): boolean {
  return launch?.sameAs !== undefined || launch?.sameAsFound !== undefined;
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
  const inImport = new Map<string, FoundServer>();
  for (const server of found) {
    // Read as the user's file will read it once written there: its ${VAR}s, a cwd relative to it.
    const text = JSON.stringify({ servers: { [server.name]: server.entry } });
    const [config] = parseMcpConfig(text, runtime.configFile).servers;
    if (config === undefined) continue;
    const key = launchKey(config);
    const sameAs = known.get(key);
    const sameAsFound = sameAs === undefined ? inImport.get(key) : undefined;
    if (sameAs === undefined && sameAsFound === undefined) inImport.set(key, server);
    launches.set(server, {
      launch: describeLaunch(config),
      ...(sameAs === undefined ? {} : { sameAs }),
      ...(sameAsFound === undefined ? {} : { sameAsFound }),
    });
  }
  return launches;
}
