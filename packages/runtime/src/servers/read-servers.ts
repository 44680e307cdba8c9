// Which MCP servers a process has and where each one comes from, read and not connected: the
// host's (buildRuntime's hostCapabilities), installed plugins', the user's mcp.json and the
// project's `.epoch/mcp.json`. buildRuntime connects what this reads; a front end that only shows
// or edits configuration (`epoch mcp list`, `get`, `login`) reads through it too, so every front
// end sees the same servers under the same names as the agent does.
//
// A server name is held by the first source that brings it, in the order host, plugin, user,
// project: the host's code and installed plugins do not change under a user's edit, the user's
// file is the user's own, and the project's file is written by whoever wrote the repository, so a
// project entry never replaces a server the user has (or takes a name to look like it). A server
// named like one an earlier source holds is left out with a diagnostic instead of making the whole
// start fail. The user's `overrides` choose about every server that is not in the user's file: the
// host's, plugins' and the project's.
import { resolve } from 'node:path';
import { type Diagnostic, mcpConfigPath } from '@epoch-agent/infra';
import type { McpServerSource } from '@epoch-agent/plugin-mcp';
import type { ConfiguredServer } from './configured-server.js';
import { type HostCapabilities, loadHostServers } from './host-servers.js';
import { loadPluginServers } from './plugin-servers.js';
import { findProjectConfig } from './project-file.js';
import { configuredProjectServers, loadProjectServers } from './project-servers.js';
import { fromSource, type RuntimeDiagnostic, type RuntimeDiagnosticCode } from './server-names.js';
import { applyOverrides } from './server-overrides.js';
import { configuredUserServers, loadUserServers } from './user-servers.js';

export interface ReadMcpServersOptions {
  /** What an embedding host brings: its namespace and its MCP servers. */
  readonly hostCapabilities?: HostCapabilities;
  /** The user's mcp.json. Default: `mcpConfigPath()` (EPOCH_HOME, EPOCH_PROFILE). */
  readonly configFile?: string;
  /**
   * Where the project's `.epoch/mcp.json` is looked for: this directory, then its ancestors up to
   * a repository root or the user's home (see project-file.ts). Default: `process.cwd()`. `null`:
   * no project servers at all.
   */
  readonly projectDir?: string | null;
  /** Stops reading a file of thousands of entries (Ctrl-C, SIGTERM): it rejects with the reason. */
  readonly signal?: AbortSignal | undefined;
}

export interface McpServersRead {
  /** The user's mcp.json, absolute. */
  readonly configFile: string;
  /** Where the project file was looked for from (absolute); undefined with `projectDir: null`. */
  readonly projectDir: string | undefined;
  /** The project's `.epoch/mcp.json` that applies there (absolute); undefined when none does. */
  readonly projectFile: string | undefined;
  /**
   * Host servers first, then plugins' (by plugin name), then the user's, then the project's (each
   * in file order); all but the user's with the user's `overrides` applied.
   */
  readonly servers: readonly ConfiguredServer[];
  /** The host's and plugins' servers as their own entries say, before the user's overrides. */
  readonly entries: readonly ConfiguredServer[];
  /** The user's `tool_budget_tokens`; absent when the file does not say. */
  readonly toolBudgetTokens?: number;
  /** The loads' diagnostics, by source. */
  readonly diagnostics: {
    readonly [S in McpServerSource]: readonly RuntimeDiagnostic[];
  };
}

/**
 * Reads every source. Throws RuntimeError `invalid_host_namespace` / `invalid_host_server_name`
 * for a host's mistake; a file's mistakes are diagnostics and never throw.
 */
export async function readMcpServers(options: ReadMcpServersOptions = {}): Promise<McpServersRead> {
  const { hostCapabilities } = options;
  const host =
    hostCapabilities === undefined
      ? { servers: [], diagnostics: [] }
      : loadHostServers(hostCapabilities);
  const taken = new Map<string, McpServerSource>();
  const held = { taken, namespace: hostCapabilities?.namespace };
  for (const { name } of host.servers) taken.set(name, 'host');
  const { signal } = options;
  const plugin = await loadPluginServers(held, signal);
  for (const { config } of plugin.servers) taken.set(config.name, 'plugin');
  const user = await loadUserServers(resolve(options.configFile ?? mcpConfigPath()), held, signal);
  for (const config of user.servers) taken.set(config.name, 'user');
  const projectDir = options.projectDir === null ? undefined : resolve(options.projectDir ?? '.');
  const projectFile =
    projectDir === undefined
      ? undefined
      : await findProjectConfig(projectDir, { userFile: user.file });
  // The user's names unknown, a project entry could take one: the project waits for the fix.
  const project =
    projectFile === undefined || user.unreadable
      ? undefined
      : await loadProjectServers(projectFile, held, signal);

  const namespace = hostCapabilities?.namespace ?? '';
  const entries: ConfiguredServer[] = [
    ...host.servers.map((config) => ({
      config,
      origin: { source: 'host' as const, namespace },
    })),
    ...plugin.servers.map(({ config, file, plugin: name, positions }) => ({
      config,
      origin: { source: 'plugin' as const, plugin: name, file },
      ...(positions === undefined ? {} : { positions }),
    })),
  ];
  const projectServers = project === undefined ? [] : configuredProjectServers(project);
  const overridden = applyOverrides([...entries, ...projectServers], user);
  const fromProject = (server: ConfiguredServer) => server.origin.source === 'project';
  return {
    configFile: user.file,
    projectDir,
    projectFile,
    servers: [
      ...overridden.servers.filter((server) => !fromProject(server)),
      ...configuredUserServers(user),
      ...overridden.servers.filter(fromProject),
    ],
    entries,
    ...(user.toolBudgetTokens === undefined ? {} : { toolBudgetTokens: user.toolBudgetTokens }),
    diagnostics: {
      host: fromSource('host', host.diagnostics),
      plugin: fromSource('plugin', plugin.diagnostics),
      user: fromSource('user', [...user.diagnostics, ...overridden.diagnostics]),
      project: fromSource(
        'project',
        projectFile !== undefined && user.unreadable
          ? [notRead(projectFile, user.file)]
          : (project?.diagnostics ?? []),
      ),
    },
  };
}

function notRead(file: string, userFile: string): Diagnostic {
  return {
    severity: 'warning',
    code: 'project_not_read' satisfies RuntimeDiagnosticCode,
    file,
    path: '',
    line: 1,
    column: 1,
    message: `The project's servers in ${file} are not loaded while ${userFile} cannot be read: a project server may not take the name of one of yours, and which names are yours is unknown. Fix your file first.`,
  };
}
