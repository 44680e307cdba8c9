// Who must approve what (README, "Trust"): whether a server may start as its entry says now, or
// waits for a person's yes, decided by where it came from. One rule per source, in a Record over
// every source, so a new source does not compile until it has its rule.
//
// - host: trusted. The host wrote its servers in code; nothing another program writes reaches them.
// - user: the entries in mcp.json when the runtime is built are the user's own, as they always
//   were. An entry that appears or changes while the runtime runs (applyMcpConfig, the watcher)
//   may have been written by anything that can write the file, the agent itself included: it
//   starts only in a form that was approved (epoch's own writers approve what they write).
// - plugin: starts only in a form that was approved; installing a plugin is not approving what
//   its servers run.
// - project: likewise; the repository's `.epoch/mcp.json` was written by whoever wrote the
//   repository, and cloning it is not approving what it runs.
import type { McpApprovalReason, McpServerSource } from '@epoch-agent/plugin-mcp';
import type { ApprovalReader } from './approval-store.js';

/** What the rule knows of the server and of the moment it is asked. */
export interface ApprovalQuestion {
  readonly name: string;
  /** The launchKey of its entry as it would start now. */
  readonly launch: string;
  readonly store: ApprovalReader;
  /** buildRuntime's first read: the user's entries then are the user's own. */
  readonly atBuild: boolean;
  /**
   * The launch the user's server of that name had when the runtime was built, trusted then; an
   * edit that comes back to it needs no approval, and one that leaves it is `changed`.
   */
  readonly trustedAtBuild?: string | undefined;
}

type Rule = (question: ApprovalQuestion) => Promise<McpApprovalReason | undefined>;

const trusted: Rule = async () => undefined;

const approvedInStore =
  (source: McpServerSource): Rule =>
  ({ name, launch, store }) =>
    store.reason(source, name, launch);

const RULES: Record<McpServerSource, Rule> = {
  host: trusted,
  plugin: approvedInStore('plugin'),
  project: approvedInStore('project'),
  user: async (question) => {
    const { atBuild, launch, trustedAtBuild } = question;
    if (atBuild || launch === trustedAtBuild) return undefined;
    const reason = await approvedInStore('user')(question);
    // The user's own entry as it was at start is a form they approved.
    return reason === 'new' && trustedAtBuild !== undefined ? 'changed' : reason;
  },
};

/**
 * Undefined when a server of `source` may start as `question.launch` says; else why it waits for
 * a person's approval (`new`: no form of it was approved; `changed`: another form was).
 */
export function approvalNeeded(
  source: McpServerSource,
  question: ApprovalQuestion,
): Promise<McpApprovalReason | undefined> {
  return RULES[source](question);
}
