// A remote server's OAuth login as a runtime offers it: refused for a stdio server, and followed by
// a reconnect, so that a running server uses the new tokens (or stops using the removed ones).
import {
  loginToServer,
  logoutFromServer,
  type McpLoginOptions,
  type McpLoginResult,
  type McpLogoutResult,
  type McpRegistry,
  type McpServerConfig,
  type McpStoredLogin,
  storedLoginOf,
} from '@epoch-agent/plugin-mcp';
import { RuntimeError } from '../errors.js';
import type { ConfiguredServer } from '../servers/configured-server.js';

/** The login options a front end gives; the server's config and the token store are the runtime's. */
export type RuntimeLoginOptions = Omit<McpLoginOptions, 'config' | 'store'>;

export async function loginTo(
  mcp: McpRegistry,
  server: ConfiguredServer,
  options: RuntimeLoginOptions,
): Promise<McpLoginResult> {
  const result = await loginToServer({ ...options, config: remote(server, 'login') });
  const { name } = server.config;
  // A disabled server is not started: its new tokens are used when it is turned on.
  if (mcp.configOf(name)?.choice.enabled === true) await mcp.reconnect(name);
  return result;
}

export async function logoutFrom(
  mcp: McpRegistry,
  server: ConfiguredServer,
): Promise<McpLogoutResult> {
  const result = await logoutFromServer({ config: remote(server, 'logout') });
  const { name } = server.config;
  const state = mcp.statuses().find((status) => status.name === name)?.state;
  if (result.removed > 0 && state === 'connected') await mcp.reconnect(name);
  return result;
}

/** Not async: a stdio server is refused by a throw here, not by a rejected promise. */
export function storedLoginAt(server: ConfiguredServer): Promise<McpStoredLogin | undefined> {
  return storedLoginOf({ config: remote(server, 'login') });
}

function remote({ config }: ConfiguredServer, what: 'login' | 'logout'): McpServerConfig {
  if (config.transport === 'stdio') {
    throw new RuntimeError(
      'not_remote_server',
      `MCP server "${config.name}" is a stdio server: OAuth ${what} is only for remote servers (sse / http, with a "url"). A stdio server gets its credentials from its "env".`,
      { server: config.name },
    );
  }
  return config;
}
