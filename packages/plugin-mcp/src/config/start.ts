// When a server starts (an entry's `start`, or the registry's default) and how long one started on
// demand stays without a request: one place, read by the registry, a server's life and `get`.
import type { McpServerConfig } from '../types.js';

/** See McpServerCommon.start and README "Started when used". */
export type McpStartMode = 'at_start' | 'on_demand';

/**
 * How long a server started on demand stays after its last request when its entry sets no
 * `idle_timeout_seconds`: long enough for the calls of one task, short enough that a session
 * that used it once does not keep its process for hours.
 */
export const ON_DEMAND_IDLE_MS = 300_000;

/** When a server starts: its own setting, else `fallback` (the registry's default). */
export function startOf(
  config: Pick<McpServerConfig, 'start'>,
  fallback: McpStartMode,
): McpStartMode {
  return config.start ?? fallback;
}

/** Its idle timeout in force (0: never): as written, else by when it starts. */
export function idleTimeoutOf(
  config: Pick<McpServerConfig, 'idleTimeoutMs' | 'start'>,
  fallback: McpStartMode,
): number {
  if (config.idleTimeoutMs !== undefined) return config.idleTimeoutMs;
  return startOf(config, fallback) === 'on_demand' ? ON_DEMAND_IDLE_MS : 0;
}
