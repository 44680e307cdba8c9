// Which servers, as read, a process started now would hold for approval (trust.ts's rules at
// buildRuntime's first read): what `epoch mcp list` shows without starting anything or building a
// runtime.

import type { McpApprovalReason } from '@epoch-agent/plugin-mcp';
import { launchKey } from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from '../servers/configured-server.js';
import { ApprovalStore } from './approval-store.js';
import { approvalNeeded } from './trust.js';

/**
 * The servers of `servers` that would wait for approval, by name, and why. One turned off is left
 * out: it starts nothing either way, and its choice says so.
 */
export async function serversNeedingApproval(
  servers: readonly ConfiguredServer[],
  store: ApprovalStore = new ApprovalStore(),
): Promise<ReadonlyMap<string, McpApprovalReason>> {
  const held = new Map<string, McpApprovalReason>();
  for (const { config, origin } of servers) {
    if (!config.choice.enabled) continue;
    const { name } = config;
    const question = { name, launch: launchKey(config), store, atBuild: true };
    const reason = await approvalNeeded(origin.source, question);
    if (reason !== undefined) held.set(name, reason);
  }
  return held;
}
