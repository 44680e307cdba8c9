// The names servers get from where they came from, and the patterns those names are held to.
//
// A server name goes verbatim into tool names (`mcp__<server>__<tool>`), and tool names are sent to
// model providers, which refuse anything outside `^[a-zA-Z0-9_-]{1,128}$` with a hard 400 for the
// whole request (a `:` did exactly that). A user's own mcp.json keeps its names as written (they are
// sanitized into tool names, and the user sees what they wrote); names the assembly builds for host
// and plugin servers are held to that character set from the start, so they reach the provider
// unchanged. Two underscores join the parts: `:` would be refused.
import { type Diagnostic, formatPath, type Position } from '@epoch-agent/infra';
import type { McpKeyPositions, McpServerConfig, McpServerSource } from '@epoch-agent/plugin-mcp';
import { serverPrefix } from '@epoch-agent/plugin-mcp/config';

/**
 * A server name the runtime writes (a new entry of the user's file) or builds on (a host's or
 * plugin's server key). Stricter than a hand-written file: the name goes verbatim into tool names
 * (`mcp__<server>__<tool>`) that are sent to model providers, and they refuse anything else.
 */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** An embedding host's namespace: the prefix of its servers' names, checked by buildRuntime. */
export const HOST_NAMESPACE_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * An installed plugin's name, which is also its directory under `$EPOCH_HOME/plugins/`. Lowercase,
 * so the name is the same directory on case-insensitive file systems; starting with a letter or
 * digit, so it is neither hidden (`.`) nor read as an option (`-`); no `_`, so
 * `<plugin>__<server>` splits back into its parts at the first `__` and no two plugins can build
 * the same server name.
 */
export const PLUGIN_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** `<namespace or plugin>__<server>`. */
export function scopedServerName(prefix: string, server: string): string {
  return `${prefix}__${server}`;
}

/** Every `code` of a diagnostic the runtime adds to the config loader's own. */
export type RuntimeDiagnosticCode =
  | 'invalid_plugin_name'
  | 'invalid_server_name'
  | 'server_name_taken'
  /** A server name that differs from one an earlier source holds only in case. */
  | 'name_case_conflict'
  /** A plugin or user server whose tools would be named under the host's `mcp__<namespace>__`. */
  | 'host_prefix_reserved'
  | 'unreadable_plugins_dir'
  /** An `overrides` entry of the user's mcp.json naming no plugin or host server. */
  | 'unknown_override'
  /** An `overrides` entry naming one of the user's own servers (chosen in its own entry). */
  | 'override_of_user_server'
  /** `overrides` in a plugin's mcp.json: only the user's file chooses. */
  | 'plugin_overrides'
  /** `overrides` or `tool_budget_tokens` in a project's file: only the user's file sets them. */
  | 'project_file_field'
  /** The project's file left unread: the user's cannot be read, so the user's names are unknown. */
  | 'project_not_read'
  /** `pin_tools: false` in a project's or plugin's file: only the user or the host turns it off. */
  | 'pin_tools_refused'
  /** `elicitation: "ask"` in a project's or plugin's file: only the user lets a server ask them. */
  | 'elicitation_refused'
  /** A name in include_tools / exclude_tools that none of the connected server's tools has. */
  | 'unknown_tool';

/** A diagnostic of loading servers, with the source whose load found it. */
export type RuntimeDiagnostic = Diagnostic & { readonly source: McpServerSource };

export function fromSource(
  source: McpServerSource,
  diagnostics: readonly Diagnostic[],
): RuntimeDiagnostic[] {
  return diagnostics.map((diagnostic) => ({ ...diagnostic, source }));
}

/** A server read from a file, by its key there, the config it becomes and where it is written. */
export interface KeyedServer {
  readonly key: string;
  readonly config: McpServerConfig;
  readonly positions: McpKeyPositions | undefined;
}

/** Where a diagnostic about an entry's name points: its key, or 1:1 when that is not known. */
export function keyAt(positions: McpKeyPositions | undefined): Position {
  return positions?.key ?? { line: 1, column: 1 };
}

/** The names earlier sources hold, and the host's namespace, whose tool prefix no other may take. */
export interface HeldNames {
  readonly taken: ReadonlyMap<string, McpServerSource>;
  /** hostCapabilities.namespace; undefined when no host gave one. */
  readonly namespace: string | undefined;
}

/**
 * Whether a server of this name would have tools that look like the host's: names starting with
 * `mcp__<namespace>__` (any case), which is what a permission rule keyed on the prefix trusts. So
 * not only `<namespace>__x` but the namespace itself (`mcp__acme__<tool>`) and what sanitizes
 * into it (`acme.`, `acme_`).
 */
export function takesHostPrefix(name: string, namespace: string | undefined): boolean {
  if (namespace === undefined) return false;
  return serverPrefix(name).toLowerCase().startsWith(serverPrefix(namespace).toLowerCase());
}

/**
 * Leaves out servers whose name an earlier source already holds (a user server named like a host
 * server, a plugin named like the host's namespace), or holds but for case (`Everything` next to a
 * plugin's `everything`: two near-identical tool prefixes for the model): the earlier one keeps
 * running, and the one left out is an error diagnostic at its key. connectAll would refuse the
 * whole batch otherwise. A server whose tools would look like the host's (takesHostPrefix) is left
 * out the same way, though no server holds its name yet: the prefix is the host's. `plugin`: the
 * plugin whose file this is, which may be the one to rename.
 */
export function withoutTakenNames(
  servers: readonly KeyedServer[],
  file: string,
  { taken, namespace }: HeldNames,
  plugin?: string,
): { servers: KeyedServer[]; diagnostics: Diagnostic[] } {
  const folded = new Map([...taken.keys()].map((name) => [name.toLowerCase(), name]));
  const kept: KeyedServer[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const server of servers) {
    const { key, config, positions } = server;
    const holder = folded.get(config.name.toLowerCase());
    const owner = holder === undefined ? undefined : taken.get(holder);
    const where = { file, path: formatPath(['servers', key]), ...keyAt(positions) };
    if (holder === undefined || owner === undefined) {
      if (namespace === undefined || !takesHostPrefix(config.name, namespace)) {
        kept.push(server);
        continue;
      }
      const rename =
        plugin?.toLowerCase() === namespace.toLowerCase()
          ? `Install plugin "${plugin}" under another name`
          : `Rename "${key}" in ${file} so that its tool names do not start with "${serverPrefix(namespace)}"`;
      diagnostics.push({
        severity: 'error',
        code: 'host_prefix_reserved' satisfies RuntimeDiagnosticCode,
        ...where,
        message: `MCP server "${config.name}" is not connected: its tools would be named "${serverPrefix(config.name)}…", under "${serverPrefix(namespace)}", the prefix reserved for the host's own servers (namespace "${namespace}"), so they would pass for the host's tools. ${rename}.`,
      });
      continue;
    }
    diagnostics.push(
      holder === config.name
        ? {
            severity: 'error',
            code: 'server_name_taken' satisfies RuntimeDiagnosticCode,
            ...where,
            message: `MCP server "${config.name}" is not connected: a ${owner} server already has that name and keeps it. Rename "${key}" in ${file}.`,
          }
        : {
            severity: 'error',
            code: 'name_case_conflict' satisfies RuntimeDiagnosticCode,
            ...where,
            message: `MCP server "${config.name}" is not connected: its name differs from the ${owner} server "${holder}" only in case, which would give the model two near-identical tool prefixes; "${holder}" keeps its name. Rename "${key}" in ${file}.`,
          },
    );
  }
  return { servers: kept, diagnostics };
}
