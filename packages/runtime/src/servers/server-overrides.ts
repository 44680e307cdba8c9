// The user's `overrides` in their own mcp.json: turning a plugin's, the host's or the project's
// server off, or some of its tools, by the server's full name, and allowing what their own files
// may not (`pin_tools: false`, `elicitation: "ask"`). The choice lives in the user's file because
// the plugin's directory is the plugin's (reinstalling it would lose an edit there), the host's
// servers are in its code and the project's file is shared with everyone who works on it; their
// own entries are never touched. Applied on top of what their entry says (withOverride), at start
// and at every applyMcpConfig.
import { type Diagnostic, formatPath } from '@epoch-agent/infra';
import {
  type McpElicitationSetting,
  type McpStartMode,
  suggest,
  withOverride,
} from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from './configured-server.js';
import type { RuntimeDiagnosticCode } from './server-names.js';
import type { UserServersLoad } from './user-servers.js';

/**
 * `fixed`: the host's, plugins' and the project's servers as their entries say. Returns them with
 * the user's overrides applied, each with where its override is written, and a warning for each
 * override that names no such server (a user's own server is chosen in its entry; a removed
 * plugin's override just waits).
 */
export function applyOverrides(
  fixed: readonly ConfiguredServer[],
  { overrides, servers: userServers, positions }: UserServersLoad,
): { servers: ConfiguredServer[]; diagnostics: Diagnostic[] } {
  const byName = new Map(overrides.map((override) => [override.server, override]));
  const servers = fixed.map((server): ConfiguredServer => {
    const override = byName.get(server.config.name);
    // By name, as the file writes it: an entry that did not load (its diagnostic says why) is
    // still pointed at where it is written.
    const written = positions?.overrides.get(server.config.name);
    return {
      ...server,
      ...(written === undefined ? {} : { overridePositions: written }),
      ...(override === undefined
        ? {}
        : {
            config: {
              ...server.config,
              choice: withOverride(server.config.choice, override),
              defer: override.defer ?? server.config.defer,
              ...pinToolsOf(override.pinTools ?? server.config.pinTools),
              ...elicitationOf(override.elicitation ?? server.config.elicitation),
              ...startOf(override.start ?? server.config.start),
            },
          }),
    };
  });
  const names = fixed.map(({ config }) => config.name);
  // Looked up once per override, of thousands: by name, never by a walk over every server.
  const known = new Set(names);
  const userNames = new Set(userServers.map(({ name }) => name));
  const byFolded = new Map<string, string>();
  for (const name of names) {
    const folded = name.toLowerCase();
    if (!byFolded.has(folded)) byFolded.set(folded, name);
  }
  const diagnostics = overrides
    .filter(({ server }) => !known.has(server))
    .map(({ server, at }): Diagnostic => {
      const own = userNames.has(server);
      // Names are matched exactly: one that differs only in case is said as such, not as a typo.
      const twin = byFolded.get(server.toLowerCase());
      const guess = own ? undefined : suggest(server, names);
      const code: RuntimeDiagnosticCode = own ? 'override_of_user_server' : 'unknown_override';
      return {
        severity: 'warning',
        code,
        file: at.file,
        path: formatPath(['overrides', server]),
        line: at.line,
        column: at.column,
        message: own
          ? `"overrides" entry "${server}" is ignored: "${server}" is your own server, so write its "enabled", "include_tools" or "exclude_tools" in its entry under "servers".`
          : twin !== undefined
            ? `"overrides" entry "${server}" does nothing: server names are matched exactly, and "${twin}" differs from it only in case. Write "${twin}".`
            : `"overrides" entry "${server}" names no plugin, host or project server, so it does nothing (a plugin that is not installed now, or a project epoch is not run in, keeps it for later). ${guess === undefined ? `The plugin, host and project servers are: ${someNames(names)}.` : `Did you mean "${guess}"?`}`,
      };
    });
  return { servers, diagnostics };
}

/**
 * How many of the names a warning lists: each of thousands of stray overrides listing thousands
 * of servers would be a message of millions of lines.
 */
const LISTED_NAMES = 20;

function someNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const more = names.length - LISTED_NAMES;
  return `${names.slice(0, LISTED_NAMES).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** `pinTools` as a config holds it: absent unless written. */
function pinToolsOf(pinTools: boolean | undefined): { pinTools?: boolean } {
  return pinTools === undefined ? {} : { pinTools };
}

/** `elicitation` as a config holds it: absent unless written (then its source's default). */
function elicitationOf(elicitation: McpElicitationSetting | undefined): {
  elicitation?: McpElicitationSetting;
} {
  return elicitation === undefined ? {} : { elicitation };
}

function startOf(start: McpStartMode | undefined): { start?: McpStartMode } {
  return start === undefined ? {} : { start };
}
