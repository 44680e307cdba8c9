// Applying an edited mcp.json to a running process: reconcile the user's servers only with the
// user's file as read again. Removed servers are disconnected, changed ones (another fingerprint)
// are reconnected, new ones connected, and unchanged ones are not touched at all — not even
// reconnected, so their processes and in-flight calls live on. Host and plugin servers are not in
// that file and are never disconnected, not even for a moment: disconnecting everything and
// connecting the file again would take them down with it.
//
// A runtime that connects only some servers (BuildRuntimeOptions.connectOnly) connects a new server
// only when it is one of those; the others are read, and their names kept, but never started.
// One built with `connect: 'background'` starts its connects and leaves them running
// (connects-in-flight.ts): only the disconnects are awaited.
//
// A server whose connection is the same but whose choice (enabled, include_tools, exclude_tools)
// (or `defer`, or `max_output_tokens`) changed is not reconnected: the registry starts or stops
// it, or changes which of its tools are offered, and how, or the cap of its next call
// (McpRegistry.update).
//
// A server the file adds, or whose connection it changes, starts only in a form that was approved
// (README, "Trust"): one that was not is registered held, `needsApproval`, and starts nothing.
//
// Their `mcp:<server>` tool groups follow by themselves (see mcp-tool-groups.ts).
import { isDeepStrictEqual } from 'node:util';
import {
  fingerprint,
  type McpApprovalHolds,
  type McpRegistry,
  type McpServerConfig,
  sameChoice,
} from '@epoch-agent/plugin-mcp';
import type { McpServerOverride } from '@epoch-agent/plugin-mcp/config';
import { fromSource, type RuntimeDiagnostic } from '../servers/server-names.js';
import type { UserServersLoad } from '../servers/user-servers.js';
import type { ConnectsInFlight } from './connects-in-flight.js';

/** What applyMcpConfig did, by server name (file order, removed ones in registry order). */
export interface McpConfigApplied {
  /** The user file that was read. */
  readonly file: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /**
   * Servers whose config changed: reconnected with the new one (McpRegistry.reconfigure), their
   * tools offered throughout and the objects a host holds calling the new connection.
   */
  readonly reconnected: readonly string[];
  /**
   * Servers turned on or off, or some of their tools (a plugin's or host's too, by the user's
   * `overrides`), or whose `defer` changed: started, stopped or given another tool list, and
   * nothing reconnected.
   */
  readonly choiceChanged: readonly string[];
  /** Left as they were (but for a new max_output_tokens, which needs no reconnect). */
  readonly unchanged: readonly string[];
  /**
   * Of `added` and `reconnected`, the servers that wait for a person's approval of what they
   * would run (status `needsApproval`): registered, nothing started.
   */
  readonly held: readonly string[];
  /** The file's diagnostics as read now; they replace the user's in runtime.diagnostics(). */
  readonly diagnostics: readonly RuntimeDiagnostic[];
  /**
   * The user's servers the file defines now, in file order, connected or not; undefined when the
   * file could not be read (the servers known before stay as they were).
   */
  readonly servers: readonly McpServerConfig[] | undefined;
  /** The file's `overrides` now; undefined when it could not be read (the ones before hold). */
  readonly overrides: readonly McpServerOverride[] | undefined;
  /** The file's `tool_budget_tokens` now; absent when it does not say or could not be read. */
  readonly toolBudgetTokens?: number;
}

export interface ApplyUserMcpConfigOptions {
  /**
   * The user's mcp.json as read now, a server whose name a host or plugin server holds left out:
   * the caller keeps it to list the servers it applied.
   */
  readonly load: UserServersLoad;
  /** Whether a server the file adds (or changes) is started now. */
  readonly connects: (name: string) => boolean;
  /** Runs the connects it starts and the servers it turns on or off: awaited, or left running. */
  readonly inFlight: ConnectsInFlight;
  /** Which of the servers it would start (added or changed) must wait for approval, and why. */
  readonly holds: (configs: readonly McpServerConfig[]) => Promise<McpApprovalHolds>;
}

export async function applyUserMcpConfig(
  mcp: McpRegistry,
  { load, connects, inFlight, holds }: ApplyUserMcpConfigOptions,
): Promise<McpConfigApplied> {
  const running = mcp
    .statuses()
    .filter(({ source }) => source === 'user')
    .map(({ name }) => name);
  const diagnostics = fromSource('user', load.diagnostics);
  if (load.unreadable) {
    // A file that cannot be read says nothing about which servers the user wants: keep them all
    // rather than disconnect everything over a missing comma. The diagnostic says what to fix.
    return {
      file: load.file,
      added: [],
      removed: [],
      reconnected: [],
      choiceChanged: [],
      unchanged: running,
      held: [],
      diagnostics,
      servers: undefined,
      overrides: undefined,
    };
  }

  const wanted = new Set(load.servers.map(({ name }) => name));
  const removed = running.filter((name) => !wanted.has(name));
  const added: McpServerConfig[] = [];
  const reconnected: McpServerConfig[] = [];
  // Given their new config over the same connection: a choice, defer or cap that means something
  // else, or patterns that only moved in the file (the unknown-tool warnings point at the new lines).
  const updated: McpServerConfig[] = [];
  const choiceChanged: string[] = [];
  const unchanged: string[] = [];
  for (const config of load.servers) {
    const current = mcp.configOf(config.name);
    if (current === undefined) {
      if (connects(config.name)) added.push(config);
    } else if (fingerprint(current) !== fingerprint(config)) {
      reconnected.push(config);
    } else {
      if (!isDeepStrictEqual(current, config)) updated.push(config);
      const same = sameChoice(current.choice, config.choice) && current.defer === config.defer;
      (same ? unchanged : choiceChanged).push(config.name);
    }
  }

  // Decided before anything starts; a host's callback may take a person's time.
  const held = await holds([...added, ...reconnected]);
  await Promise.all([
    ...removed.map((name) => mcp.disconnect(name)),
    ...updated.map((config) => inFlight.run(mcp.update(config))),
    // A reconnect, not a disconnect and a connect: the server stays registered, so its tool group
    // is not emptied and filled again, and its held tools find the new connection.
    // Still registered: the runtime may have closed while the callback was asked.
    ...reconnected
      .filter(({ name }) => mcp.configOf(name) !== undefined)
      .map((config) => inFlight.run(mcp.reconfigure(config, { held: held.get(config.name) }))),
  ]);
  const fresh = new Set(added);
  // Asked again, in the same tick as the connect: the runtime may have begun closing meanwhile.
  await inFlight.run(
    mcp.connectAll(
      load.servers.filter((config) => fresh.has(config) && connects(config.name)),
      'user',
      { held },
    ),
  );
  return {
    file: load.file,
    added: added.map(({ name }) => name),
    removed,
    reconnected: reconnected.map(({ name }) => name),
    choiceChanged,
    unchanged,
    held: [...held.keys()],
    diagnostics,
    servers: load.servers,
    overrides: load.overrides,
    ...(load.toolBudgetTokens === undefined ? {} : { toolBudgetTokens: load.toolBudgetTokens }),
  };
}
