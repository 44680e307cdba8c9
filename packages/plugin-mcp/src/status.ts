// One server's McpServerStatus, built from its config, its source and its client's connection
// state. The only place a status is made, so "no secrets in a status" is checked here: the target
// is the command without its args (which may carry tokens) or the URL with credentials redacted;
// messages and stderr were already scrubbed by the client.
import { redactUrl } from '@epoch-agent/infra';
import { describeLaunch } from './config/launch.js';
import type { McpConnectionState } from './connection/state.js';
import {
  assertNever,
  type McpApprovalReason,
  type McpServerConfig,
  type McpServerSource,
  type McpServerStatus,
  type McpServerStatusCommon,
} from './types.js';

/**
 * How many tools the registry offers for a server now (live or cached), how many are off, and how
 * many are withheld (not the approved definition).
 */
export interface ToolCounts {
  readonly offered: number;
  readonly off: number;
  readonly withheld: number;
}

/** A disabled server has no client, so no connection state: this stands for it. */
export const DISABLED = { kind: 'disabled' } as const;

/** Nor has a server held for approval: this stands for it, with why it is held. */
export interface Held {
  readonly kind: 'needsApproval';
  readonly reason: McpApprovalReason;
}

export function serverStatus(
  config: McpServerConfig,
  source: McpServerSource,
  state: McpConnectionState | typeof DISABLED | Held,
  tools: ToolCounts,
): McpServerStatus {
  const common: McpServerStatusCommon = {
    name: config.name,
    source,
    transport: config.transport,
    target: config.transport === 'stdio' ? config.command : redactUrl(config.url),
    toolCount: tools.offered,
    toolsOff: tools.off,
    toolsWithheld: tools.withheld,
  };
  switch (state.kind) {
    case 'disabled':
    case 'disconnected':
    case 'notStarted':
      return { ...common, state: state.kind };
    case 'needsApproval':
      // Described from the config as it would start now: the person approves what would run.
      return {
        ...common,
        state: 'needsApproval',
        launch: describeLaunch(config),
        reason: state.reason,
      };
    case 'connecting':
      return { ...common, state: 'connecting', since: state.since };
    case 'connected':
      return {
        ...common,
        state: 'connected',
        serverInfo: state.serverInfo,
        ...(state.instructions === undefined ? {} : { instructions: state.instructions }),
        protocol: state.protocol,
        capabilities: state.capabilities,
      };
    case 'reconnecting': {
      const { attempt, attempts, nextAttemptAt } = state;
      return {
        ...common,
        state: 'reconnecting',
        reconnect: { attempt, attempts, nextAttemptAt },
        error: { code: state.error.code, message: state.error.message },
        stderrTail: state.stderrTail,
        ...(state.exit === undefined ? {} : { exit: state.exit }),
      };
    }
    case 'idle':
      return { ...common, state: 'idle', since: state.since };
    case 'needsLogin':
      return {
        ...common,
        state: 'needsLogin',
        error: { code: 'needs_login', message: state.message },
      };
    case 'failed':
      return {
        ...common,
        state: 'failed',
        error: { code: state.code, message: state.message },
        stderrTail: state.stderrTail,
        ...(state.exit === undefined ? {} : { exit: state.exit }),
      };
    default:
      return assertNever(state, 'connection state');
  }
}
