// The JSON of a remote server's stored OAuth login as the page reads it (oauth-routes.ts): types
// only, imported by the page as well. Never a token: the runtime's McpStoredLogin carries none.
import type { McpLogoutResult, McpStoredLogin } from '@epoch-agent/runtime';

/** GET /api/mcp/:name/oauth */
export interface OAuthStatus {
  /** The server's most recent stored login; absent when it has none. */
  readonly login?: McpStoredLogin;
}

/** 200 from POST /api/mcp/:name/logout: what was deleted, and whether the tokens were revoked. */
export type LoggedOut = McpLogoutResult;
