// GET /api/mcp: every server the runtime knows, grouped by source, with its status, its tools under
// the names the model is given, what they cost in context, and where its entry is written; and the
// diagnostics of loading them. Config-derived values come from the runtime's serverFields, which
// redacts them; statuses are free of secrets by contract.
import {
  type ConfiguredServer,
  type McpEpochTool,
  mcpGroup,
  type Runtime,
  SERVER_NAME_PATTERN,
  type ServerField,
  serverFields,
} from '@epoch-agent/runtime';
import type { McpGroups, McpView, ServerTarget, ServerView } from './api-types.js';
import type { PageLogins } from './page-logins.js';
import { toolView } from './tool-view.js';

export async function mcpView(runtime: Runtime, logins: PageLogins): Promise<McpView> {
  const statuses = new Map(runtime.mcp.statuses().map((status) => [status.name, status]));
  const entries = runtime.tools.entries();
  const groups: McpGroups<ServerView[]> = { user: [], host: [], plugin: [] };
  const servers = await Promise.all(
    runtime.servers().map(async (server): Promise<ServerView> => {
      const { name } = server.config;
      const { at, fields } = await serverFields(server, runtime.configFile);
      const group = mcpGroup(name);
      // The runtime keeps exactly this server's McpEpochTools in its `mcp:<server>` group.
      const tools = entries
        .filter((entry) => entry.group === group)
        .map((entry) => toolView(entry.name, entry.tool as McpEpochTool));
      const status = statuses.get(name);
      const login = logins.view(name);
      return {
        name,
        origin: server.origin,
        ...(at === undefined ? {} : { at }),
        target: target(server, fields),
        ...(status === undefined ? {} : { status }),
        fields,
        tools,
        contextTokens: tools.reduce((sum, tool) => sum + tool.contextTokens, 0),
        ...(login === undefined ? {} : { login }),
      };
    }),
  );
  for (const server of servers) groups[server.origin.source].push(server);
  return {
    file: runtime.configFile,
    namePattern: SERVER_NAME_PATTERN.source,
    groups,
    diagnostics: runtime.diagnostics(),
  };
}

/** The command and its arguments, or the URL: the redacted values serverFields gives. */
function target({ config }: ConfiguredServer, fields: readonly ServerField[]): ServerTarget {
  const value = (field: string) => fields.find((f) => f.field === field)?.value;
  if (config.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: String(value('command')),
      args: (value('args') as readonly string[] | undefined) ?? [],
    };
  }
  return { transport: config.transport, url: String(value('url')) };
}
