// buildRuntime: the assembly an agent process runs on, and the one every front end (the `epoch`
// command, the connectors page) runs on too. It reads the MCP servers of the four sources (see
// servers/read-servers.ts), connects them in one McpRegistry with the source set here and nowhere
// else (those that need a person's approval registered held: approvals.ts), and keeps their
// tools, next to the host's own, in one ToolRegistry.

import { silentLogger } from '@epoch-agent/infra';
import {
  McpRegistry,
  type McpRegistryOptions,
  type McpServerConfig,
  type McpServerSource,
  type McpStatusListener,
} from '@epoch-agent/plugin-mcp';
import type { Elicit } from '@epoch-agent/protocol';
import { ApprovalStore } from '../approvals/approval-store.js';
import type { McpConfigWriteOptions } from '../config-edit/index.js';
import {
  type McpServersRead,
  type ReadMcpServersOptions,
  readMcpServers,
} from '../servers/read-servers.js';
import { HOST_START } from '../servers/start-default.js';
import { READ_RESULT_TOOL_NAME } from '../tools/read-result.js';
import { DEFAULT_TOOL_BUDGET_TOKENS } from '../tools/tool-deferral.js';
import { ToolRegistry, type ToolRegistryOptions } from '../tools/tool-registry.js';
import { type McpApprover, ServerApprovals } from './approvals.js';
import { type ConnectMode, ConnectsInFlight } from './connects-in-flight.js';
import { Runtime } from './runtime.js';
import { ServerLogins } from './server-login.js';

// The order servers are registered in, which statuses() keeps: a Record, so a new source must
// be given its place.
const SOURCE_ORDER: Record<McpServerSource, number> = { host: 0, plugin: 1, user: 2, project: 3 };
const sources = (Object.keys(SOURCE_ORDER) as McpServerSource[]).toSorted(
  (a, b) => SOURCE_ORDER[a] - SOURCE_ORDER[b],
);

export interface BuildRuntimeOptions
  extends ReadMcpServersOptions,
    Pick<ToolRegistryOptions, 'logger' | 'toolBudgetTokens'> {
  /**
   * How the MCP servers are connected (McpRegistryOptions: toolNameMaxLength, maxOutputTokens,
   * schemaCache, offerCachedTools, toolPins, start, createTransport, reconnectDelaysMs, reap); the
   * logger is the one above. Default `toolPins`: files beside the approvals
   * (`$EPOCH_HOME/tool-pins`). Default `start`: `on_demand` (HOST_START, which says why): a server
   * whose entry says no `start` and whose tools are cached starts at its first call. The cut notes
   * name the runtime's `mcp_read_result` (offered from the first cut result on).
   */
  readonly registry?: Omit<McpRegistryOptions, 'logger' | 'resultReader' | 'elicit'>;
  /**
   * Connect only the servers of these names, now and when applyMcpConfig finds them added; every
   * other server is still read (its name, origin and diagnostics are known) but never started.
   * For a front end that works on one server. Default: every server.
   */
  readonly connectOnly?: readonly string[];
  /**
   * When buildRuntime, and each edit the runtime applies (addServer, removeServer,
   * setServerChoice, applyMcpConfig), resolve. `wait` (the default): once every server they start
   * has a tool list or a failure status, as McpRegistry.connectAll does, and every server they
   * turn on or off is started or stopped. `background`: as soon as the servers are read (or the
   * file is written and applied), each of them already `connecting`, the connects going on behind
   * and told by status events. For a front end that shows servers as they connect. Either way
   * close() ends the connects still running and waits for them.
   */
  readonly connect?: ConnectMode;
  /**
   * Called once with what was read (every source, the user's overrides applied), before any
   * server starts: for a front end that lays out the servers before their statuses come.
   */
  readonly onRead?: (read: McpServersRead) => void;
  /** Called with every status change from the first connect on, as `runtime.mcp.onStatus`. */
  readonly onStatus?: McpStatusListener;
  /**
   * Aborting it while the servers connect closes every one of them (process trees reaped) and
   * rejects buildRuntime with the signal's reason: how Ctrl-C stops a start.
   */
  readonly signal?: AbortSignal;
  /** Waiting for another writer of the user's mcp.json (addServer, removeServer). */
  readonly configWrite?: McpConfigWriteOptions;
  /**
   * Asked before a server that needs approval starts (see the README's trust section): a
   * plugin's server never approved in its present form, or a user's entry that appears or
   * changes while the runtime runs. Resolve true to approve (recorded, as approveServer does),
   * false to leave it in `needsApproval`. With no callback nothing unapproved starts; a person
   * approves it later (Runtime.approveServer, `epoch mcp approve`, the page).
   */
  readonly approve?: McpApprover;
  /**
   * Puts a server's question to a person (README "Servers that ask you", EMBEDDING.md "A server
   * asks the user"): never the model, and never answered `accept` by the host on its own. Given,
   * servers are told they may ask (form and URL modes); a question carries the server, its source
   * and the request it belongs to, a tool call's with the very ToolContext the host passed to
   * `execute`, so a host running several sessions shows it to the right one. Absent, nothing is
   * declared and a server that asks anyway is answered `cancel`.
   */
  readonly elicit?: Elicit;
}

/**
 * Validates the host's capabilities (throwing RuntimeError `invalid_host_namespace` /
 * `invalid_host_server_name` before anything starts), reads the plugins', the user's and the
 * project's mcp.json,
 * and connects the servers; resolves when each one has a tool list (live or cached) or a failure
 * status, as McpRegistry.connectAll does, or at once with `connect: 'background'`. A server that
 * fails or a file with mistakes never makes this reject: see `runtime.mcp.statuses()` and
 * `runtime.diagnostics()`.
 */
export async function buildRuntime(options: BuildRuntimeOptions = {}): Promise<Runtime> {
  const { signal } = options;
  signal?.throwIfAborted();
  const read = await readMcpServers(options);
  options.onRead?.(read);
  const logger = options.logger ?? silentLogger;
  const only = options.connectOnly === undefined ? undefined : new Set(options.connectOnly);
  const hostBudget = options.toolBudgetTokens ?? DEFAULT_TOOL_BUDGET_TOKENS;
  const inFlight = new ConnectsInFlight(options.connect ?? 'wait', logger);
  const store = new ApprovalStore();
  const approvals = new ServerApprovals({
    store,
    approve: options.approve,
    logger,
  });
  approvals.trustAtBuild(
    read.servers.filter(({ origin }) => origin.source === 'user').map(({ config }) => config),
  );
  // The tool pins beside the approvals, unless the host keeps its own.
  const mcp = new McpRegistry({
    toolPins: store.pins,
    start: HOST_START,
    ...options.registry,
    ...(options.elicit === undefined ? {} : { elicit: options.elicit }),
    resultReader: READ_RESULT_TOOL_NAME,
    logger,
  });
  const runtime = new Runtime({
    read,
    mcp,
    tools: new ToolRegistry({
      ...(options.registry?.toolNameMaxLength === undefined
        ? {}
        : { toolNameMaxLength: options.registry.toolNameMaxLength }),
      logger,
      toolBudgetTokens: read.toolBudgetTokens ?? hostBudget,
    }),
    hostBudget,
    hostNamespace: options.hostCapabilities?.namespace,
    connects: (name) => only === undefined || only.has(name),
    inFlight,
    configWrite: options.configWrite ?? {},
    approvals,
    logins: new ServerLogins({ mcp, approvals, headersHelper: options.registry?.headersHelper }),
  });
  if (options.onStatus !== undefined) runtime.mcp.onStatus(options.onStatus);
  const bySource = (source: McpServerSource): McpServerConfig[] =>
    read.servers
      .filter(({ origin, config }) => origin.source === source && runtime.connects(config.name))
      .map(({ config }) => config);
  // Closing ends every connect in flight; each server's connectAll then settles with its status.
  const close = () => void runtime.close();
  signal?.addEventListener('abort', close, { once: true });
  try {
    // Who must wait for approval is decided (the host's callback asked) before anything starts,
    // so the sources are then registered in their order.
    const holds = await Promise.all(
      sources.map((source) => approvals.holds(source, bySource(source), { atBuild: true })),
    );
    // bySource asks connects() again: the runtime may have begun closing during the callback.
    await inFlight.run(
      Promise.all(
        sources.map((source, i) =>
          runtime.mcp.connectAll(bySource(source), source, { held: holds[i] }),
        ),
      ),
    );
  } finally {
    signal?.removeEventListener('abort', close);
  }
  if (signal?.aborted) {
    await runtime.close();
    signal.throwIfAborted();
  }
  return runtime;
}
