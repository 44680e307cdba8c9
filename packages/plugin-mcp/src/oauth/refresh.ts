// Refreshing a stored login: one refresh at a time per login, across processes. Under the login's
// lock the file is read again first — if another process already refreshed, its tokens are used
// and the refresh token is not spent a second time (with rotation, a reused refresh token can make
// the authorization server revoke the whole grant).
//
// Credentials are deleted only when the authorization server says they are no good: invalid_grant
// drops the tokens (the client registration stays), invalid_client / unauthorized_client the whole
// login. A network error or a 5xx keeps everything and is an `oauth_failed` a retry may fix.
import { bounded, messageOf, secretRedactor } from '@epoch-agent/infra';
import {
  type FetchLike,
  OAuthError,
  OAuthErrorCode,
  refreshAuthorization,
} from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { loginSecrets } from '../secrets.js';
import { oauthFetch } from './oauth-fetch.js';
import { isExpired, type StoredLogin, type TokenStore, toStoredTokens } from './token-store.js';

export type RefreshOutcome =
  /** Usable tokens: refreshed here, or found already refreshed by another process. */
  | { readonly kind: 'fresh'; readonly login: StoredLogin }
  /** Only an interactive login helps; `reason` says why, for the message. */
  | { readonly kind: 'needs_login'; readonly reason: string };

export interface RefreshSite {
  /** The MCP server's name, for messages. */
  readonly server: string;
  readonly store: TokenStore;
  readonly fetchFn?: FetchLike;
}

/**
 * Replaces the tokens of `login` whose access token `stale` is expiring or was refused. Throws
 * `oauth_failed` when the authorization server could not say yes or no (network, 5xx).
 */
export function refreshLogin(
  site: RefreshSite,
  login: StoredLogin,
  stale: string,
): Promise<RefreshOutcome> {
  const { store } = site;
  return store.withLock(login.serverUrl, login.issuer, async () => {
    const current = await store.load(login.serverUrl, login.issuer);
    if (current?.tokens === undefined) {
      return needsLogin(
        'its stored login is gone (logged out, or refused by the authorization server)',
      );
    }
    const { tokens } = current;
    if (tokens.access_token !== stale && !isExpired(tokens.expires_at)) {
      return { kind: 'fresh', login: current };
    }
    if (tokens.refresh_token === undefined) {
      return needsLogin('its access token expired and the login has no refresh token');
    }
    try {
      const next = await refreshAuthorization(current.authorizationServerUrl, {
        ...(current.authorizationServerMetadata === undefined
          ? {}
          : { metadata: current.authorizationServerMetadata }),
        clientInformation: current.client,
        refreshToken: tokens.refresh_token,
        ...(current.resource === undefined ? {} : { resource: current.resource }),
        fetchFn: oauthFetch({
          server: site.server,
          ...(site.fetchFn === undefined ? {} : { fetchFn: site.fetchFn }),
        }),
      });
      const refreshed: StoredLogin = { ...current, tokens: toStoredTokens(next) };
      await store.save(refreshed);
      return { kind: 'fresh', login: refreshed };
    } catch (error) {
      if (error instanceof OAuthError && error.code === OAuthErrorCode.InvalidGrant) {
        await store.forgetTokens(current);
        return needsLogin(
          'the authorization server refused its refresh token (invalid_grant: revoked or expired)',
        );
      }
      if (
        error instanceof OAuthError &&
        (error.code === OAuthErrorCode.InvalidClient ||
          error.code === OAuthErrorCode.UnauthorizedClient)
      ) {
        await store.forget(current);
        return needsLogin(`the authorization server no longer accepts its client (${error.code})`);
      }
      throw new McpError(
        'oauth_failed',
        `MCP server "${site.server}": refreshing its OAuth access token failed: ${describe(error, current)}. The stored login is kept; the next request tries again.`,
        { server: site.server },
      );
    }
  });
}

function needsLogin(reason: string): RefreshOutcome {
  return { kind: 'needs_login', reason };
}

/** The authorization server's words, any credential of the login they echo blanked, bounded. */
function describe(error: unknown, login: StoredLogin): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const text = typeof cause === 'string' ? `${messageOf(error)} (${cause})` : messageOf(error);
  return bounded(secretRedactor(loginSecrets(login))(text));
}
