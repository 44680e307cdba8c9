// What a person approves through the Runtime: a server's launch (approveServer), every approval of
// it taken back (revokeServer), and its withheld tools (approveTools). Runtime's methods of the
// same names run these one at a time, with the edits.
import type { McpRegistry, McpServerStatus, McpShownTool } from '@epoch-agent/plugin-mcp';
import type { ConfiguredServer } from '../servers/configured-server.js';
import type { ServerApprovals } from './approvals.js';
import type { ConnectsInFlight } from './connects-in-flight.js';

/** What the approvals need of the Runtime. */
export interface RuntimeApprovalParts {
  readonly mcp: McpRegistry;
  readonly approvals: ServerApprovals;
  readonly inFlight: ConnectsInFlight;
  /** Servers approved here that connectOnly left out: approving one is asking for it to run. */
  readonly approvedHere: Set<string>;
  /** The server of that name, of any source; RuntimeError `unknown_server` when none has it. */
  named(name: string): ConfiguredServer;
  connects(name: string): boolean;
}

/** What Runtime.revokeServer did. */
export interface RuntimeServerRevoked {
  /**
   * Its status after it: `needsApproval` when it needs an approval to run; undefined when this
   * runtime does not start it (connectOnly).
   */
  readonly status: McpServerStatus | undefined;
  /**
   * False when it needs no approval and so runs on: the host's servers, and the user's entries
   * that were in the file when the runtime was built (the user's own). Only plugin servers and
   * user entries written or changed since need one.
   */
  readonly needsApproval: boolean;
}

/** Runtime.approveServer. */
export async function approveServer(
  parts: RuntimeApprovalParts,
  name: string,
): Promise<McpServerStatus> {
  const { mcp, inFlight } = parts;
  const server = parts.named(name);
  const { source } = server.origin;
  // The config that would start: the registry's, which the last apply gave it.
  const config = mcp.configOf(name) ?? server.config;
  await parts.approvals.approve(source, config);
  if (mcp.configOf(name) !== undefined) {
    await inFlight.run(mcp.release(name));
  } else {
    parts.approvedHere.add(name);
    // Nothing starts once the runtime is closing (connects() says no then).
    const configs = parts.connects(name) ? [config] : [];
    await inFlight.run(mcp.connectAll(configs, source));
  }
  const status = statusOf(mcp, name);
  if (status === undefined) throw new Error(`the runtime closed before "${name}" started`);
  return status;
}

/** Runtime.revokeServer. */
export async function revokeServer(
  parts: RuntimeApprovalParts,
  name: string,
): Promise<RuntimeServerRevoked> {
  const { mcp, approvals } = parts;
  const server = parts.named(name);
  const { source } = server.origin;
  await approvals.store.revoke(source, name);
  parts.approvedHere.delete(name);
  const config = mcp.configOf(name) ?? server.config;
  const reason = await approvals.reasonFor(source, config);
  if (reason !== undefined && mcp.configOf(name) !== undefined) await mcp.hold(name, reason);
  return { status: statusOf(mcp, name), needsApproval: reason !== undefined };
}

/** Runtime.approveTools. */
export function approveTools(
  parts: RuntimeApprovalParts,
  name: string,
  tools: readonly McpShownTool[] | undefined,
): Promise<McpServerStatus> {
  parts.named(name);
  return parts.mcp.approveTools(name, tools);
}

function statusOf(mcp: McpRegistry, name: string): McpServerStatus | undefined {
  return mcp.statuses().find((each) => each.name === name);
}
