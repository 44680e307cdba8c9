// What the registry says of each server: its status (its client's state, `connecting` from the
// moment the registry starts it, and how many of its tools are offered), and a status event only
// when that changed.

import { isDeepStrictEqual } from 'node:util';
import type { McpConnectionState } from '../connection/state.js';
import { DISABLED, serverStatus, type ToolCounts } from '../status.js';
import type { McpEpochTool } from '../tools/epoch-tools.js';
import { assertNever, type McpServerStatus, type McpWithheldTool } from '../types.js';
import type { Entry, Servers } from './servers.js';

/**
 * Tells the status listeners the server's status, unless it is the one they were last told: a
 * host acts on every event (re-renders, rebuilds its tool set), so an event means a change.
 */
export function emitStatus(servers: Servers, entry: Entry): void {
  const status = statusOf(entry);
  if (isDeepStrictEqual(status, entry.lastStatus)) return;
  entry.lastStatus = status;
  servers.statusListeners.emit(status);
}

/** `toolCount` is what tools() offers for it, so list_resources / read_resource are counted. */
export function statusOf(entry: Entry): McpServerStatus {
  const { config, source, client, held } = entry;
  if (client !== undefined) return serverStatus(config, source, client.state, counts(entry));
  // Turned off says more than held: it would not start even once approved.
  const state =
    held === undefined || !config.choice.enabled
      ? DISABLED
      : { kind: 'needsApproval' as const, reason: held };
  return serverStatus(config, source, state, NO_TOOLS);
}

export const NO_TOOLS: ToolCounts = { offered: 0, off: 0, withheld: 0 };

function counts(entry: Entry): ToolCounts {
  const { offer } = entry;
  if (offer === undefined || !offersState(entry)) return NO_TOOLS;
  const offered = offer.offered.length;
  const withheld = offer.withheld.length;
  return { offered, off: offer.tools.length - offered - withheld, withheld };
}

/** What tools() offers for this server now. */
export function offeredBy(entry: Entry): readonly McpEpochTool[] {
  return entry.offer !== undefined && offersState(entry) ? entry.offer.offered : [];
}

/** Its tools withheld now: those of the list tools() would offer them from (see offeredBy). */
export function withheldBy(entry: Entry): readonly McpWithheldTool[] {
  return entry.offer !== undefined && offersState(entry) ? entry.offer.withheld : [];
}

/** An enabled server in a state whose tools are offered (see offersTools). */
export function offersState({ client }: Entry): boolean {
  return client !== undefined && offersTools(client.state);
}

/**
 * Whether a server in this state has its tools offered (when its schema is known). Yes while a call
 * can still reach it: connecting (from the cache; a call waits), idle and notStarted (a call starts
 * it and waits), and
 * reconnecting (a call fails at once with a message the model reads, and the watchdog brings the
 * server back within seconds, so a host rebuilding its tool set now should not drop them). No
 * once only a person can bring it back: failed, needsLogin, disconnected.
 */
function offersTools(state: McpConnectionState): boolean {
  switch (state.kind) {
    case 'notStarted':
    case 'connecting':
    case 'connected':
    case 'idle':
    case 'reconnecting':
      return true;
    case 'failed':
    case 'needsLogin':
    case 'disconnected':
      return false;
    default:
      return assertNever(state, 'connection state');
  }
}
