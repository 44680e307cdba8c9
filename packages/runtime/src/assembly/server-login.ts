// A remote server's OAuth login as a runtime offers it: refused for a stdio server, its connections
// made as the runtime's are (the host's headers helper asked, a `headers_helper` run only once
// approved), and followed by a reconnect, so that a running server uses the new tokens (or stops
// using the removed ones).
import {
  loginToServer,
  logoutFromServer,
  McpError,
  type McpHeadersHelper,
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
import type { ServerApprovals } from './approvals.js';

/**
 * The login options a front end gives; the server's config, the token store and the headers
 * helper are the runtime's.
 */
export type RuntimeLoginOptions = Omit<McpLoginOptions, 'config' | 'store' | 'headersHelper'>;

export interface ServerLoginsOptions {
  readonly mcp: McpRegistry;
  readonly approvals: ServerApprovals;
  /** The host's `registry.headersHelper`: a login's connections ask it as the others do. */
  readonly headersHelper: McpHeadersHelper | undefined;
}

/** The logins and logouts of a runtime's remote servers. */
export class ServerLogins {
  readonly #options: ServerLoginsOptions;

  constructor(options: ServerLoginsOptions) {
    this.#options = options;
  }

  async login(server: ConfiguredServer, options: RuntimeLoginOptions): Promise<McpLoginResult> {
    const { mcp, approvals, headersHelper } = this.#options;
    const config = remote(server, 'login');
    await helperApproved(approvals, server);
    const result = await loginToServer({ ...options, config, headersHelper });
    // A disabled server is not started: its new tokens are used when it is turned on.
    if (mcp.configOf(config.name)?.choice.enabled === true) await mcp.reconnect(config.name);
    return result;
  }

  async logout(server: ConfiguredServer): Promise<McpLogoutResult> {
    const { mcp } = this.#options;
    const result = await logoutFromServer({ config: remote(server, 'logout') });
    const { name } = server.config;
    const state = mcp.statuses().find((status) => status.name === name)?.state;
    if (result.removed > 0 && state === 'connected') await mcp.reconnect(name);
    return result;
  }

  /** Not async: a stdio server is refused by a throw here, not by a rejected promise. */
  storedLogin(server: ConfiguredServer): Promise<McpStoredLogin | undefined> {
    return storedLoginOf({ config: remote(server, 'login') });
  }
}

/**
 * A login's connections run the entry's `headers_helper`, a program, as the server's own do: so
 * only once what the server runs is approved (README "Trust"), the helper's words among it.
 */
async function helperApproved(approvals: ServerApprovals, server: ConfiguredServer): Promise<void> {
  const { config, origin } = server;
  if (config.transport === 'stdio' || config.headersHelper === undefined) return;
  if ((await approvals.reasonFor(origin.source, config)) === undefined) return;
  throw new McpError(
    'needs_approval',
    `MCP server "${config.name}" waits for approval of what it would run, so it was not logged in to: the login would run its headers helper, which is part of what is approved.`,
    { server: config.name },
  );
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
