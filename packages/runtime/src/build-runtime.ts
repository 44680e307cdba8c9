// buildRuntime: the assembly an agent process runs on. It gathers MCP servers from their three
// sources — the embedding host (`host`), installed plugins (`plugin`), the user's mcp.json
// (`user`) — connects them in one McpRegistry with the source set here and nowhere else, and
// keeps their tools, next to the host's own, in one ToolRegistry.
//
// A server name is held by the first source that brings it, in the order host, plugin, user: the
// host's code and installed plugins do not change under a user's edit, and a user server named
// like one of theirs is left out with a diagnostic instead of making the whole start fail.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import { McpRegistry, type McpServerConfig, type McpServerSource } from '@epoch-agent/plugin-mcp';
import { applyUserMcpConfig, type McpConfigApplied } from './apply-mcp-config.js';
import { type HostCapabilities, loadHostServers } from './host-servers.js';
import { syncMcpToolGroups } from './mcp-tool-groups.js';
import { loadPluginServers } from './plugin-servers.js';
import { fromSource, type RuntimeDiagnostic } from './server-names.js';
import { ToolRegistry } from './tool-registry.js';
import { loadUserServers } from './user-servers.js';

export interface BuildRuntimeOptions {
  /** What an embedding host brings: its namespace and its MCP servers. */
  readonly hostCapabilities?: HostCapabilities;
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Longest tool name the model provider accepts. Default 128; 64 for providers that allow 64. */
  readonly toolNameMaxLength?: number;
}

/**
 * Validates the host's capabilities (throwing RuntimeError `invalid_host_namespace` /
 * `invalid_host_server_name` before anything starts), reads the plugins' and the user's mcp.json,
 * and connects every server; resolves when each one has a tool list (live or cached) or a failure
 * status, as McpRegistry.connectAll does. A server that fails or a file with mistakes never makes
 * this reject: see `runtime.mcp.statuses()` and `runtime.diagnostics()`.
 */
export async function buildRuntime(options: BuildRuntimeOptions = {}): Promise<Runtime> {
  const host =
    options.hostCapabilities === undefined
      ? { servers: [], diagnostics: [] }
      : loadHostServers(options.hostCapabilities);
  const logger = options.logger ?? silentLogger;
  const nameLength =
    options.toolNameMaxLength === undefined ? {} : { toolNameMaxLength: options.toolNameMaxLength };
  const tools = new ToolRegistry({ logger, ...nameLength });
  const mcp = new McpRegistry({ logger, ...nameLength });

  const taken = new Map<string, McpServerSource>();
  const take = (servers: readonly McpServerConfig[], source: McpServerSource) => {
    for (const { name } of servers) taken.set(name, source);
  };
  take(host.servers, 'host');
  const plugin = await loadPluginServers(taken);
  take(plugin.servers, 'plugin');
  const user = await loadUserServers(taken);

  const runtime = new Runtime({
    mcp,
    tools,
    diagnostics: {
      host: fromSource('host', host.diagnostics),
      plugin: fromSource('plugin', plugin.diagnostics),
      user: fromSource('user', user.diagnostics),
    },
  });
  await Promise.all([
    mcp.connectAll(host.servers, 'host'),
    mcp.connectAll(plugin.servers, 'plugin'),
    mcp.connectAll(user.servers, 'user'),
  ]);
  return runtime;
}

interface RuntimeParts {
  readonly mcp: McpRegistry;
  readonly tools: ToolRegistry;
  readonly diagnostics: Record<McpServerSource, readonly RuntimeDiagnostic[]>;
}

/** Built by buildRuntime only. */
export class Runtime {
  /** Every MCP server of the process: statuses, events (onStatus, onToolsChanged), prompts. */
  readonly mcp: McpRegistry;
  /** Every tool an agent can be given: the host's groups and one `mcp:<server>` group per server. */
  readonly tools: ToolRegistry;
  readonly #diagnostics: Record<McpServerSource, readonly RuntimeDiagnostic[]>;
  readonly #stopSync: () => void;
  /** applyMcpConfig calls run one after another: two at once would both connect the same server. */
  #applying: Promise<unknown> = Promise.resolve();

  constructor(parts: RuntimeParts) {
    this.mcp = parts.mcp;
    this.tools = parts.tools;
    this.#diagnostics = { ...parts.diagnostics };
    this.#stopSync = syncMcpToolGroups(this.mcp, this.tools);
  }

  /**
   * What loading the servers found, host's first, then plugins', then the user file's (as last
   * read: applyMcpConfig replaces them). Each says its source, file, field path and what to do.
   */
  diagnostics(): RuntimeDiagnostic[] {
    return [...this.#diagnostics.host, ...this.#diagnostics.plugin, ...this.#diagnostics.user];
  }

  /**
   * Re-reads the user's mcp.json and applies it to the user's servers only (see
   * apply-mcp-config.ts): the summary says what was added, removed, reconnected and left alone.
   */
  applyMcpConfig(): Promise<McpConfigApplied> {
    const run = this.#applying.then(async () => {
      const applied = await applyUserMcpConfig(this.mcp);
      this.#diagnostics.user = applied.diagnostics;
      return applied;
    });
    this.#applying = run.catch(() => undefined);
    return run;
  }

  /** Disconnects every server (their schema caches stay for the next start) and empties their groups. */
  async close(): Promise<void> {
    await this.#applying;
    await this.mcp.disconnectAll();
    this.#stopSync();
  }
}
