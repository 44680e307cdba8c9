// What a person may know of a remote server's stored OAuth login, for a front end to show: whether
// there is one, with which authorization server, until when its access token holds, whether it can
// be refreshed and for which scopes. Never a token, nor the client's secret: what this returns is
// made field by field from the stored login, so a field added to it reaches no page by accident.
import { startedOrThrow } from '../connection/start-config.js';
import { isMcpError } from '../errors/mcp-error.js';
import type { McpServerConfig } from '../types.js';
import { TokenStore } from './token-store.js';

export interface McpStoredLogin {
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  /**
   * False when the authorization server refused the tokens (the client is kept, a new login is
   * needed); the fields below are then absent.
   */
  readonly hasTokens: boolean;
  /** When the access token expires (Date.now() milliseconds); absent when the server did not say. */
  readonly expiresAt?: number;
  /** A refresh token is kept: an expired access token is replaced without a login. */
  readonly refreshable?: boolean;
  /** The scopes granted, space-separated, when the authorization server said. */
  readonly scope?: string;
  /** When the tokens were received (Date.now() milliseconds). */
  readonly obtainedAt?: number;
}

export interface McpStoredLoginOptions {
  readonly config: McpServerConfig;
  /** Default: logins under `$EPOCH_HOME/oauth`. */
  readonly store?: TokenStore;
}

/** The server's most recent stored login; undefined when there is none (or for a stdio server). */
export async function storedLoginOf(
  options: McpStoredLoginOptions,
): Promise<McpStoredLogin | undefined> {
  // Kept under the URL a start expands; with a variable unset, no login can be found.
  const config = await startedOrThrow(options.config).catch((error: unknown) => {
    if (isMcpError(error)) return undefined;
    throw error;
  });
  if (config === undefined || config.transport === 'stdio') return undefined;
  const login = await (options.store ?? new TokenStore()).load(config.url);
  if (login === undefined) return undefined;
  const { tokens } = login;
  if (tokens === undefined) return { issuer: login.issuer, hasTokens: false };
  return {
    issuer: login.issuer,
    hasTokens: true,
    ...(tokens.expires_at === undefined ? {} : { expiresAt: tokens.expires_at }),
    refreshable: tokens.refresh_token !== undefined,
    ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
    obtainedAt: tokens.obtained_at,
  };
}
