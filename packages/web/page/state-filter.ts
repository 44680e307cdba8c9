// The state chips of the top bar and the order of the servers: which states each chip shows (a
// Record over every state, so a state added to the plugin's union fails to compile until it is
// placed), and which states come first in a group — the ones that need the person (failed, a
// login, an approval), then the rest in the file's order — except a server the person has just
// acted on (switched, reconnected), which keeps the rank it had: a row does not move out from under
// the person who pressed its switch.
import type { McpServerState } from '@epoch-agent/runtime';
import type { ServerView } from '../src/api-types.js';

export type StateFilter = 'failed' | 'connecting' | 'notStarted' | 'off' | 'approval';

export const STATE_FILTERS: Record<StateFilter, { readonly label: string }> = {
  failed: { label: 'Failed' },
  connecting: { label: 'Connecting' },
  notStarted: { label: 'Not started' },
  off: { label: 'Off' },
  approval: { label: 'Needs approval' },
};

/** The chip that shows a server in each state; undefined: only "All" does. */
export const FILTER_OF: Record<McpServerState, StateFilter | undefined> = {
  connected: undefined,
  connecting: 'connecting',
  reconnecting: 'connecting',
  notStarted: 'notStarted',
  idle: undefined,
  needsLogin: undefined,
  failed: 'failed',
  disconnected: undefined,
  needsApproval: 'approval',
  disabled: 'off',
};

/** Lower first; equal ranks keep the file's order. */
const RANK: Record<McpServerState, number> = {
  failed: 0,
  needsLogin: 1,
  needsApproval: 2,
  reconnecting: 3,
  connecting: 4,
  connected: 5,
  notStarted: 5,
  idle: 5,
  disconnected: 5,
  disabled: 6,
};

export function stateOf(server: ServerView): McpServerState {
  // No status: this process does not start it, as its card says.
  return server.status?.state ?? 'disconnected';
}

/** Where `server` goes in its group now: lower first. */
export function rankOf(server: ServerView): number {
  return RANK[stateOf(server)];
}

/**
 * `servers` with those that need the person first (a stable sort: the file's order otherwise);
 * a server in `held` at the rank held for it.
 */
export function inOrder(
  servers: readonly ServerView[],
  held: ReadonlyMap<string, number> = new Map(),
): ServerView[] {
  return servers
    .map((server, at) => ({ server, at, rank: held.get(server.name) ?? rankOf(server) }))
    .sort((a, b) => a.rank - b.rank || a.at - b.at)
    .map(({ server }) => server);
}

/** How many servers each chip shows. */
export function filterCounts(servers: readonly ServerView[]): Record<StateFilter, number> {
  const counts: Record<StateFilter, number> = {
    failed: 0,
    connecting: 0,
    notStarted: 0,
    off: 0,
    approval: 0,
  };
  for (const server of servers) {
    const filter = FILTER_OF[stateOf(server)];
    if (filter !== undefined) counts[filter] += 1;
  }
  return counts;
}
