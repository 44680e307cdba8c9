// The project's servers: its `.epoch/mcp.json` (project-file.ts finds it), read like the user's
// file, names as written, source `project`. They come last: the file is written by whoever wrote
// the repository, so a name the host, a plugin or the user already holds stays theirs, and the
// project's entry is left out with a diagnostic saying so. Only the user's own file chooses about
// other servers and sets the tool budget: a project's `overrides` and `tool_budget_tokens` are
// warnings, and ignored.
import { type Diagnostic, formatPath } from '@epoch-agent/infra';
import type { ConfiguredServer } from './configured-server.js';
import { refuseElicitationAsk } from './elicitation-refusal.js';
import { refusePinOptOut } from './pin-opt-out.js';
import type { HeldNames, RuntimeDiagnosticCode } from './server-names.js';
import { loadUserServers, type UserServersLoad } from './user-servers.js';

/** The project file as read: the user file's shape, with no `overrides` or budget of its own. */
export type ProjectServersLoad = Omit<UserServersLoad, 'overrides' | 'toolBudgetTokens'>;

/** `held`: the host's, plugins' and the user's names, and the host's namespace. */
export async function loadProjectServers(
  file: string,
  held: HeldNames,
  signal?: AbortSignal,
): Promise<ProjectServersLoad> {
  const { overrides, toolBudgetTokens, ...read } = await loadUserServers(file, held, signal);
  const whose = "the project's";
  const pinned = refusePinOptOut(read.servers, read.positions, file, whose);
  const declining = refuseElicitationAsk(pinned.servers, read.positions, {
    file,
    whose,
    fullName: (name) => name,
  });
  const load = { ...read, servers: declining.servers };
  const ignored: Diagnostic[] = [...pinned.diagnostics, ...declining.diagnostics];
  const [override] = overrides;
  if (override !== undefined) {
    ignored.push(
      onlyYours(file, 'overrides', override.at, 'turns servers or tools of other sources off'),
    );
  }
  if (toolBudgetTokens !== undefined) {
    ignored.push(
      onlyYours(file, 'tool_budget_tokens', { line: 1, column: 1 }, 'sets the tool budget'),
    );
  }
  return { ...load, diagnostics: [...load.diagnostics, ...ignored] };
}

/** The project file's servers as the runtime lists them: each with its file and its place in it. */
export function configuredProjectServers({
  file,
  servers,
  positions,
}: ProjectServersLoad): ConfiguredServer[] {
  const origin = { source: 'project', file } as const;
  return servers.map((config) => {
    const written = positions?.servers.get(config.name);
    return { config, origin, ...(written === undefined ? {} : { positions: written }) };
  });
}

function onlyYours(
  file: string,
  field: string,
  at: { readonly line: number; readonly column: number },
  what: string,
): Diagnostic {
  return {
    severity: 'warning',
    code: 'project_file_field' satisfies RuntimeDiagnosticCode,
    file,
    path: formatPath([field]),
    line: at.line,
    column: at.column,
    message: `"${field}" in the project's ${file} is ignored: only your own mcp.json ${what}. Write it there if you want it.`,
  };
}
