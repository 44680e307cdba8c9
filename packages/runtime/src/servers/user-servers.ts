// The user's own servers: one mcp.json (default `mcpConfigPath()`), names as written, source `user`.
import type { Diagnostic } from '@epoch-agent/infra';
import type { McpServerConfig } from '@epoch-agent/plugin-mcp';
import {
  loadMcpConfig,
  type McpConfigPositions,
  type McpServerOverride,
} from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from './configured-server.js';
import { type HeldNames, withoutTakenNames } from './server-names.js';

export interface UserServersLoad {
  readonly file: string;
  readonly servers: readonly McpServerConfig[];
  /** What the user chose about plugins' and the host's servers (see server-overrides.ts). */
  readonly overrides: readonly McpServerOverride[];
  /** The file's `tool_budget_tokens`; absent when it does not say. */
  readonly toolBudgetTokens?: number;
  /** Where the file writes each entry of `servers` and `overrides`, and their fields. */
  readonly positions: McpConfigPositions | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Nothing could be read from the file (a syntax error, or it cannot be opened): its servers are
   * unknown, not absent.
   */
  readonly unreadable: boolean;
}

/**
 * `held`: names host and plugin servers hold, and the host's namespace; a user server reusing one,
 * or whose tools would pass for the host's, is left out. `signal` stops a long load (it rejects).
 */
export async function loadUserServers(
  file: string,
  held: HeldNames,
  signal?: AbortSignal,
): Promise<UserServersLoad> {
  const load = await loadMcpConfig(file, { signal });
  const kept = withoutTakenNames(
    load.servers.map((config) => ({
      key: config.name,
      config,
      positions: load.positions?.servers.get(config.name),
    })),
    file,
    held,
  );
  return {
    file,
    servers: kept.servers.map(({ config }) => config),
    overrides: load.overrides,
    ...(load.toolBudgetTokens === undefined ? {} : { toolBudgetTokens: load.toolBudgetTokens }),
    positions: load.positions,
    diagnostics: [...load.diagnostics, ...kept.diagnostics],
    unreadable: load.diagnostics.some(
      ({ code }) => code === 'syntax_error' || code === 'unreadable_file',
    ),
  };
}

/** The loaded servers as the runtime lists them: each with its file and where it is written. */
export function configuredUserServers({
  file,
  servers,
  positions,
}: UserServersLoad): ConfiguredServer[] {
  const origin = { source: 'user', file } as const;
  return servers.map((config) => {
    const written = positions?.servers.get(config.name);
    return { config, origin, ...(written === undefined ? {} : { positions: written }) };
  });
}
