// loginToServer, logoutFromServer and storedLoginOf as the plugin's root entry offers them: each
// loads the OAuth code (login.ts, logout.ts, and with them the SDK's) when a login or logout starts,
// a stored login when one is read, not when the plugin is imported. `epoch mcp list`, and every program that never logs in, pays nothing for it.
import type { McpLoginOptions, McpLoginResult } from './login.js';
import type { McpLogoutOptions, McpLogoutResult } from './logout.js';
import type { McpStoredLogin, McpStoredLoginOptions } from './stored-login.js';

/**
 * An interactive OAuth login to a remote server: the authorization code flow in the user's
 * browser, with step-ups for a wider scope; the login is stored and checked with a connection.
 */
export async function loginToServer(options: McpLoginOptions): Promise<McpLoginResult> {
  const login = await import('./login.js');
  return login.loginToServer(options);
}

/** Deletes a remote server's stored logins and asks the authorization server to revoke them. */
export async function logoutFromServer(options: McpLogoutOptions): Promise<McpLogoutResult> {
  const logout = await import('./logout.js');
  return logout.logoutFromServer(options);
}

/** What may be shown of a remote server's stored login (never a token); undefined when none. */
export async function storedLoginOf(
  options: McpStoredLoginOptions,
): Promise<McpStoredLogin | undefined> {
  const stored = await import('./stored-login.js');
  return stored.storedLoginOf(options);
}
