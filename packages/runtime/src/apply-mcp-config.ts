// Applying an edited mcp.json to a running process: re-read the user's file and reconcile the
// user's servers only. Removed servers are disconnected, changed ones (another fingerprint) are
// reconnected, new ones connected, and unchanged ones are not touched at all — not even
// reconnected, so their processes and in-flight calls live on. Host and plugin servers are not in
// that file and are never disconnected, not even for a moment: disconnecting everything and
// connecting the file again would take them down with it.
//
// Their `mcp:<server>` tool groups follow by themselves (see mcp-tool-groups.ts).
import { fingerprint, type McpRegistry, type McpServerConfig } from '@epoch-agent/plugin-mcp';
import { fromSource, type RuntimeDiagnostic } from './server-names.js';
import { loadUserServers } from './user-servers.js';

/** What applyMcpConfig did, by server name (file order, removed ones in registry order). */
export interface McpConfigApplied {
  /** The user file that was read. */
  readonly file: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Servers whose config changed: disconnected and connected again with the new one. */
  readonly reconnected: readonly string[];
  /** Left running as they were. */
  readonly unchanged: readonly string[];
  /** The file's diagnostics as read now; they replace the user's in runtime.diagnostics(). */
  readonly diagnostics: readonly RuntimeDiagnostic[];
}

export async function applyUserMcpConfig(mcp: McpRegistry): Promise<McpConfigApplied> {
  const statuses = mcp.statuses();
  const running = statuses.filter(({ source }) => source === 'user').map(({ name }) => name);
  const taken = new Map(
    statuses.filter(({ source }) => source !== 'user').map(({ name, source }) => [name, source]),
  );
  const load = await loadUserServers(taken);
  const diagnostics = fromSource('user', load.diagnostics);
  if (load.unreadable) {
    // A file that cannot be read says nothing about which servers the user wants: keep them all
    // rather than disconnect everything over a missing comma. The diagnostic says what to fix.
    return {
      file: load.file,
      added: [],
      removed: [],
      reconnected: [],
      unchanged: running,
      diagnostics,
    };
  }

  const wanted = new Set(load.servers.map(({ name }) => name));
  const removed = running.filter((name) => !wanted.has(name));
  const added: McpServerConfig[] = [];
  const reconnected: McpServerConfig[] = [];
  const unchanged: string[] = [];
  for (const config of load.servers) {
    const current = mcp.configOf(config.name);
    if (current === undefined) added.push(config);
    else if (fingerprint(current) === fingerprint(config)) unchanged.push(config.name);
    else reconnected.push(config);
  }

  await Promise.all(
    [...removed, ...reconnected.map(({ name }) => name)].map((name) => mcp.disconnect(name)),
  );
  const changed = new Set([...added, ...reconnected]);
  await mcp.connectAll(
    load.servers.filter((config) => changed.has(config)),
    'user',
  );
  return {
    file: load.file,
    added: added.map(({ name }) => name),
    removed,
    reconnected: reconnected.map(({ name }) => name),
    unchanged,
    diagnostics,
  };
}
