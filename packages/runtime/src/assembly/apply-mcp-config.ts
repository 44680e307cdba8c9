// Applying edited files to a running process: reconcile the servers of the user's mcp.json and of
// the project's `.epoch/mcp.json`, each with its file as read again. Removed servers are
// disconnected, changed ones (another fingerprint) are reconnected, new ones connected, and
// unchanged ones are not touched at all — not even reconnected, so their processes and in-flight
// calls live on. Host and plugin servers are in neither file and are never disconnected, not even
// for a moment: disconnecting everything and connecting the files again would take them down with
// it. Both files are applied in one pass, every disconnect before any connect: a name that moved
// from one file to the other (a user server added under a project server's name, which then
// leaves the project's out) is stopped under its old source before it starts under its new one.
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
// A server a file adds, or whose connection it changes, starts only in a form that was approved
// (README, "Trust"): one that was not is registered held, `needsApproval`, and starts nothing.
//
// Their `mcp:<server>` tool groups follow by themselves (see mcp-tool-groups.ts).
import { isDeepStrictEqual } from 'node:util';
import {
  fingerprint,
  type McpApprovalHolds,
  type McpRegistry,
  type McpServerConfig,
  type McpServerSource,
  sameChoice,
} from '@epoch-agent/plugin-mcp';
import type { McpServerOverride } from '@epoch-agent/plugin-mcp/config';
import type { ProjectServersLoad } from '../servers/project-servers.js';
import { fromSource, type RuntimeDiagnostic } from '../servers/server-names.js';
import type { UserServersLoad } from '../servers/user-servers.js';
import type { ConnectsInFlight } from './connects-in-flight.js';

/** What applyMcpConfig did, by server name (file order, removed ones in registry order). */
export interface McpConfigApplied {
  /** The file that was read: the user's (or the project's, under `project`). */
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
   * The servers the file defines now, in file order, connected or not; undefined when the
   * file could not be read (the servers known before stay as they were).
   */
  readonly servers: readonly McpServerConfig[] | undefined;
  /** The file's `overrides` now; undefined when it could not be read (the ones before hold). */
  readonly overrides: readonly McpServerOverride[] | undefined;
  /** The file's `tool_budget_tokens` now; absent when it does not say or could not be read. */
  readonly toolBudgetTokens?: number;
  /**
   * The project's `.epoch/mcp.json`, applied in the same act (its `overrides` and budget are
   * none: only the user's file sets them); absent when the runtime has no project file.
   */
  readonly project?: McpConfigApplied;
}

/** One file to apply: which source its servers are, and the file as read now. */
type McpFileToApply =
  | {
      readonly source: 'user';
      readonly load: UserServersLoad;
    }
  | {
      readonly source: 'project';
      readonly load: ProjectServersLoad;
    };

export interface ApplyMcpFilesOptions {
  /** Whether a server a file adds (or changes) is started now. */
  readonly connects: (name: string) => boolean;
  /** Runs the connects it starts and the servers it turns on or off: awaited, or left running. */
  readonly inFlight: ConnectsInFlight;
  /** Which of a file's servers it would start (added or changed) must wait for approval, and why. */
  readonly holds: (
    source: McpServerSource,
    configs: readonly McpServerConfig[],
  ) => Promise<McpApprovalHolds>;
}

/** The files as read now: the user's, and the project's when there is one. */
export interface McpFilesRead {
  /**
   * The user's mcp.json, a server whose name a host or plugin server holds left out: the caller
   * keeps it to list the servers it applied.
   */
  readonly user: UserServersLoad;
  /** The project's file, its servers with the user's `overrides` applied. */
  readonly project?: ProjectServersLoad | undefined;
}

/** What each file's servers became (`project` set when it was given). */
export async function applyMcpFiles(
  mcp: McpRegistry,
  { user, project }: McpFilesRead,
  { connects, inFlight, holds }: ApplyMcpFilesOptions,
): Promise<{ user: McpConfigApplied; project: McpConfigApplied | undefined }> {
  // Decided before anything starts, one file after the other: a host's callback may take a
  // person's time, and a person answers one question at a time.
  const decide = async (file: McpFileToApply): Promise<DecidedPlan> => {
    const planned = plan(mcp, file, connects);
    const held = await holds(file.source, [...planned.added, ...planned.reconnected]);
    return { ...planned, held, applied: { ...planned.applied, held: [...held.keys()] } };
  };
  const userPlan = await decide({ source: 'user', load: user });
  const projectPlan =
    project === undefined ? undefined : await decide({ source: 'project', load: project });
  const plans = projectPlan === undefined ? [userPlan] : [userPlan, projectPlan];
  await Promise.all(
    plans.flatMap(({ removed, updated, reconnected, held }) => [
      ...removed.map((name) => mcp.disconnect(name)),
      ...updated.map((config) => inFlight.run(mcp.update(config))),
      // A reconnect, not a disconnect and a connect: the server stays registered, so its tool
      // group is not emptied and filled again, and its held tools find the new connection.
      // Still registered: the runtime may have closed while the callback was asked.
      ...reconnected
        .filter(({ name }) => mcp.configOf(name) !== undefined)
        .map((config) => inFlight.run(mcp.reconfigure(config, { held: held.get(config.name) }))),
    ]),
  );
  await Promise.all(
    plans.map(({ file, added, held }) =>
      // Asked again, in the same tick as the connect: the runtime may have begun closing
      // meanwhile. A name still held under another source (its file could not be read, so it
      // kept its servers) waits for the next apply: connectAll would refuse it.
      inFlight.run(
        mcp.connectAll(
          added.filter(({ name }) => connects(name) && mcp.configOf(name) === undefined),
          file.source,
          { held },
        ),
      ),
    ),
  );
  return { user: userPlan.applied, project: projectPlan?.applied };
}

interface Plan {
  readonly file: McpFileToApply;
  readonly applied: McpConfigApplied;
  readonly removed: readonly string[];
  readonly added: readonly McpServerConfig[];
  readonly updated: readonly McpServerConfig[];
  readonly reconnected: readonly McpServerConfig[];
}

/** A plan, and which of the servers it would start wait for approval. */
interface DecidedPlan extends Plan {
  readonly held: McpApprovalHolds;
}

function plan(mcp: McpRegistry, file: McpFileToApply, connects: (name: string) => boolean): Plan {
  const { source, load } = file;
  const sourceOf = new Map(mcp.statuses().map(({ name, source: from }) => [name, from] as const));
  const running = [...sourceOf].filter(([, from]) => from === source).map(([name]) => name);
  const diagnostics = fromSource(source, load.diagnostics);
  // A project file's own `overrides` count for nothing (project-servers.ts): it has none that do.
  const own = file.source === 'user' ? ownOf(file.load) : { overrides: [] };
  if (load.unreadable) {
    // A file that cannot be read says nothing about which servers the user wants: keep them all
    // rather than disconnect everything over a missing comma. The diagnostic says what to fix.
    const applied: McpConfigApplied = {
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
    return { file, applied, removed: [], added: [], updated: [], reconnected: [] };
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
    // Running under another source is not this file's server: it starts anew once that one stops.
    const current = sourceOf.get(config.name) === source ? mcp.configOf(config.name) : undefined;
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
  const applied: McpConfigApplied = {
    file: load.file,
    added: added.map(({ name }) => name),
    removed,
    reconnected: reconnected.map(({ name }) => name),
    choiceChanged,
    unchanged,
    held: [],
    diagnostics,
    servers: load.servers,
    ...own,
  };
  return { file, applied, removed, added, updated, reconnected };
}

/** What only the user's file sets: the overrides and the tool budget. */
function ownOf(load: UserServersLoad): Pick<McpConfigApplied, 'overrides' | 'toolBudgetTokens'> {
  return {
    overrides: load.overrides,
    ...(load.toolBudgetTokens === undefined ? {} : { toolBudgetTokens: load.toolBudgetTokens }),
  };
}
