// A runtime's approvals: which of the servers it is about to start must wait for a person's yes
// (approvals/trust.ts decides, by source), asking the host's `approve` callback when it gave one,
// and recording what is approved in the approval store.
import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import {
  describeLaunch,
  launchKey,
  type McpApprovalReason,
  type McpLaunch,
  type McpServerConfig,
  type McpServerSource,
} from '@epoch-agent/plugin-mcp';
import type { ApprovalReader, ApprovalStore } from '../approvals/approval-store.js';
import { approvalNeeded } from '../approvals/trust.js';

/** What a host's `approve` callback is asked: the same a person sees before `epoch mcp approve`. */
export interface McpApprovalRequest {
  readonly server: string;
  readonly source: McpServerSource;
  /** What it would run: the command or URL, never a secret (describeLaunch). */
  readonly launch: McpLaunch;
  readonly reason: McpApprovalReason;
}

/** True approves (recorded, as Runtime.approveServer does); false leaves it in `needsApproval`. */
export type McpApprover = (request: McpApprovalRequest) => boolean | Promise<boolean>;

export interface ServerApprovalsOptions {
  readonly store: ApprovalStore;
  readonly approve: McpApprover | undefined;
  readonly logger: Logger;
}

export class ServerApprovals {
  readonly store: ApprovalStore;
  readonly #approve: McpApprover | undefined;
  readonly #logger: Logger;
  /** The user's servers when the runtime was built, by name: their launches, trusted then. */
  readonly #trustedAtBuild = new Map<string, string>();

  constructor(options: ServerApprovalsOptions) {
    this.store = options.store;
    this.#approve = options.approve;
    this.#logger = options.logger;
  }

  /** The user's entries of buildRuntime's first read: the user's own (see trust.ts). */
  trustAtBuild(configs: readonly McpServerConfig[]): void {
    for (const config of configs) this.#trustedAtBuild.set(config.name, launchKey(config));
  }

  /**
   * Which of `configs` (all of `source`) must wait for approval, and why; the host's callback is
   * asked about each first, one at a time (a person answers one question at a time), and its yes
   * recorded. `atBuild`: buildRuntime's first read.
   */
  async holds(
    source: McpServerSource,
    configs: readonly McpServerConfig[],
    { atBuild }: { readonly atBuild: boolean },
  ): Promise<Map<string, McpApprovalReason>> {
    const held = new Map<string, McpApprovalReason>();
    // Read once for all of them: a file of thousands of servers is not read once per server.
    const store = await this.store.snapshot();
    for (const config of configs) {
      const reason = await this.reasonFor(source, config, atBuild, store);
      if (reason === undefined) continue;
      if (await this.#asked(source, config, reason)) {
        await this.approve(source, config);
      } else {
        held.set(config.name, reason);
      }
    }
    return held;
  }

  /** Undefined when the server may start as `config` says; else why it waits. */
  reasonFor(
    source: McpServerSource,
    config: McpServerConfig,
    atBuild = false,
    store: ApprovalReader = this.store,
  ): Promise<McpApprovalReason | undefined> {
    const { name } = config;
    return approvalNeeded(source, {
      name,
      launch: launchKey(config),
      store,
      atBuild,
      trustedAtBuild: source === 'user' ? this.#trustedAtBuild.get(name) : undefined,
    });
  }

  /** Records the launch `config` has now as approved for that server. */
  approve(source: McpServerSource, config: McpServerConfig): Promise<void> {
    return this.store.approve(source, config.name, launchKey(config));
  }

  /**
   * The entries one of epoch's own writers just wrote (`names`), as each file reads back now:
   * approved in that form, since the writer showed what they run.
   */
  async approveWritten(
    names: readonly string[],
    files: readonly (readonly [McpServerSource, readonly McpServerConfig[]])[],
  ): Promise<void> {
    const written = new Set(names);
    const forms = files.flatMap(([source, configs]) =>
      configs
        .filter((config) => written.has(config.name))
        .map((config) => ({ source, name: config.name, launch: launchKey(config) })),
    );
    await this.store.approveAll(forms);
  }

  async #asked(
    source: McpServerSource,
    config: McpServerConfig,
    reason: McpApprovalReason,
  ): Promise<boolean> {
    if (this.#approve === undefined) return false;
    const server = config.name;
    try {
      return (
        (await this.#approve({ server, source, launch: describeLaunch(config), reason })) === true
      );
    } catch (error) {
      // A callback that fails said no: nothing unapproved starts.
      this.#logger.error(`The approve callback threw: ${messageOf(error)}`, { server });
      return false;
    }
  }
}
