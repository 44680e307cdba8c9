// The servers installed plugins bring: `$EPOCH_HOME/plugins/<plugin name>/mcp.json`, read like the
// user's mcp.json, each server named `<plugin name>__<server>` and connected with source `plugin`.
// Plugins are per epoch home, not per profile. A directory whose name is not a plugin name, or a
// server key outside [A-Za-z0-9_-], is skipped with a diagnostic; the rest still load.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Diagnostic, epochHome, formatPath } from '@epoch-agent/infra';
import type { McpKeyPositions, McpServerConfig } from '@epoch-agent/plugin-mcp';
import { loadMcpConfig } from '@epoch-agent/plugin-mcp/config';

import { refuseElicitationAsk } from './elicitation-refusal.js';
import { refusePinOptOut } from './pin-opt-out.js';
import {
  type HeldNames,
  type KeyedServer,
  keyAt,
  PLUGIN_NAME_PATTERN,
  type RuntimeDiagnosticCode,
  SERVER_NAME_PATTERN,
  scopedServerName,
  withoutTakenNames,
} from './server-names.js';

/** `$EPOCH_HOME/plugins`: one directory per installed plugin, named after it. */
export function pluginsDir(): string {
  return join(epochHome(), 'plugins');
}

/** A plugin's server, the plugin and the plugin's mcp.json it was read from. */
export interface PluginServer {
  readonly config: McpServerConfig;
  readonly plugin: string;
  readonly file: string;
  /** Where its entry is written in that file, under its name without the plugin's prefix. */
  readonly positions: McpKeyPositions | undefined;
}

/**
 * Every plugin's servers, plugins in name order. `held`: the names already in use (the host's)
 * and the host's namespace; a plugin server that would reuse one, or whose tools would pass for
 * the host's, is left out with a diagnostic.
 */
export async function loadPluginServers(
  held: HeldNames,
  signal?: AbortSignal,
): Promise<{ servers: PluginServer[]; diagnostics: Diagnostic[] }> {
  const servers: PluginServer[] = [];
  const diagnostics: Diagnostic[] = [];
  const dir = pluginsDir();
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No plugins directory: nothing is installed.
    if (code === 'ENOENT') return { servers, diagnostics };
    diagnostics.push(
      at(
        dir,
        'unreadable_plugins_dir',
        `cannot read the plugins directory ${dir} (${code ?? 'error'}); no plugin servers are loaded. Check that it is a directory you can read.`,
      ),
    );
    return { servers, diagnostics };
  }
  for (const name of names) {
    const pluginDir = join(dir, name);
    if (!(await isDirectory(pluginDir))) continue;
    if (!PLUGIN_NAME_PATTERN.test(name)) {
      diagnostics.push(
        at(
          pluginDir,
          'invalid_plugin_name',
          `plugin directory "${name}" is skipped: a plugin name must match ${PLUGIN_NAME_PATTERN.source} (lowercase letters, digits and "-"), because it becomes part of tool names sent to model providers. Reinstall the plugin under a valid name.`,
        ),
      );
      continue;
    }
    const file = join(pluginDir, 'mcp.json');
    const load = await loadMcpConfig(file, { signal });
    // One by one: a file may have more diagnostics than a call takes arguments.
    for (const found of load.diagnostics) diagnostics.push(found);
    const [override] = load.overrides;
    if (override !== undefined) {
      diagnostics.push({
        severity: 'warning',
        code: 'plugin_overrides' satisfies RuntimeDiagnosticCode,
        file,
        path: 'overrides',
        line: override.at.line,
        column: override.at.column,
        message: `"overrides" in plugin "${name}"'s mcp.json is ignored: only the user's own mcp.json turns servers or tools off. A plugin turns its own servers off with "enabled": false in their entries.`,
      });
    }
    const whose = `plugin "${name}"'s`;
    const pinned = refusePinOptOut(load.servers, load.positions, file, whose);
    for (const found of pinned.diagnostics) diagnostics.push(found);
    const declining = refuseElicitationAsk(pinned.servers, load.positions, {
      file,
      whose,
      fullName: (server) => scopedServerName(name, server),
    });
    for (const found of declining.diagnostics) diagnostics.push(found);
    const keyed: KeyedServer[] = [];
    for (const config of declining.servers) {
      const positions = load.positions?.servers.get(config.name);
      if (SERVER_NAME_PATTERN.test(config.name)) {
        keyed.push({
          key: config.name,
          config: { ...config, name: scopedServerName(name, config.name) },
          positions,
        });
        continue;
      }
      diagnostics.push({
        severity: 'error',
        code: 'invalid_server_name' satisfies RuntimeDiagnosticCode,
        file,
        path: formatPath(['servers', config.name]),
        ...keyAt(positions),
        message: `MCP server "${config.name}" of plugin "${name}" is skipped: a plugin's server names must match ${SERVER_NAME_PATTERN.source} (letters, digits, "_" and "-"), because they become part of tool names sent to model providers. Rename it in ${file}.`,
      });
    }
    const kept = withoutTakenNames(keyed, file, held, name);
    for (const { config, positions } of kept.servers) {
      servers.push({ config, plugin: name, file, positions });
    }
    for (const found of kept.diagnostics) diagnostics.push(found);
  }
  return { servers, diagnostics };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function at(file: string, code: RuntimeDiagnosticCode, message: string): Diagnostic {
  return { severity: 'error', code, file, path: '', line: 1, column: 1, message };
}
