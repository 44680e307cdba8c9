// OAuth for a live connection (never interactive): the bearer token of every request, taken from
// the stored login and refreshed before it expires, and what a refusal means.
//
// It is the SDK transports' minimal `AuthProvider` (token + onUnauthorized) rather than an
// `OAuthClientProvider`: with the latter the SDK would refresh on a 401 by itself, outside the
// cross-process lock, and could spend a refresh token another process already used. Here every
// refresh goes through refreshLogin(). Whatever only a person can fix — no login, a refresh token
// the authorization server refused — is an McpError `needs_login`; a wider scope the server asks
// for (403 insufficient_scope) is remembered for the next `epoch mcp login` and fails that request
// with `insufficient_scope`.
//
// Without a stored login the store is read once, not on every request (a readdir and hashing per
// request made Streamable HTTP calls measurably slower): again only after a login or logout in
// this process (the store's generation moved) or a 401 — so a login made by `epoch mcp login` in
// another process is used at the server's next 401 at the latest.
//
// The SDK's OAuth helpers and the refresh are loaded when a request first needs them, not with the
// plugin's root entry (which exports this class); by then the transport has loaded the SDK anyway.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { loginSecrets, type Scrubber } from '../secrets.js';
import { isExpired, type StoredLogin, type StoredTokens, type TokenStore } from './token-store.js';

export const DEFAULT_REFRESH_SKEW_MS = 60_000;

/** What the transport hands onUnauthorized (the SDK does not export the type by name). */
type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

export interface OAuthConnectionAuthOptions {
  /** The MCP server's name, for messages. */
  readonly server: string;
  readonly serverUrl: string;
  readonly store: TokenStore;
  /**
   * Refresh this long before the access token expires (default 60 s), but never before half of
   * its lifetime has passed: a token that lives 2 s is refreshed after 1 s, not on every request.
   */
  readonly refreshSkewMs?: number;
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** The server's redaction policy: taught the tokens of each login read or refreshed here. */
  readonly scrub: Scrubber;
}

export class OAuthConnectionAuth implements AuthProvider {
  readonly #options: OAuthConnectionAuthOptions;
  readonly #logger: Logger;
  /** The login as last read or refreshed. */
  #login: StoredLogin | undefined;
  /**
   * The store's generation when it was last read and held no usable login. Until it moves (a
   * login or logout in this process) or the server answers 401 (one in another process), there
   * is no point reading the directory again on every request.
   */
  #noneAt: number | undefined;
  /** The bearer token each response's request carried (none: undefined), for onUnauthorized. */
  readonly #sentWith = new WeakMap<Response, string | undefined>();
  /** One refresh at a time in this process; the file lock makes it one across processes. */
  #refreshing: Promise<StoredLogin> | undefined;

  constructor(options: OAuthConnectionAuthOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The access token for the next request; undefined when there is no login (the server decides). */
  async token(): Promise<string | undefined> {
    const login = await this.#current();
    const tokens = login?.tokens;
    if (tokens === undefined) return undefined;
    if (!this.#due(tokens)) return tokens.access_token;
    // Without a refresh token an expired one is sent anyway: the server's 401 then says needsLogin.
    if (tokens.refresh_token === undefined) return tokens.access_token;
    try {
      return (await this.#refresh(tokens.access_token)).tokens?.access_token;
    } catch (error) {
      // Early refresh failed for a reason a retry may fix: the token still works for now.
      if (
        error instanceof McpError &&
        error.code === 'oauth_failed' &&
        !isExpired(tokens.expires_at)
      ) {
        this.#logger.warn(`${error.message} Using the current access token until it expires.`, {
          server: this.#options.server,
        });
        return tokens.access_token;
      }
      throw error;
    }
  }

  /**
   * The server refused a request with 401. One that carried a token: refresh once (or find that
   * another process already did). One without: a login may have been stored since we looked.
   * Otherwise give up with `needs_login`.
   */
  async onUnauthorized({ response }: UnauthorizedContext): Promise<void> {
    const refused = this.#sentWith.has(response)
      ? this.#sentWith.get(response)
      : this.#login?.tokens?.access_token;
    if (refused !== undefined) {
      await this.#refresh(refused);
      return;
    }
    if ((await this.#read())?.tokens === undefined) {
      throw await this.#needsLogin('it asks for a login and none is stored for it');
    }
  }

  /**
   * The transport's fetch: a 403 `insufficient_scope` from the server is remembered (the next login
   * asks for that scope too) and fails the request with a message that says so.
   */
  readonly fetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (response.status === 401) this.#sentWith.set(response, bearerOf(init?.headers));
    if (response.status !== 403) return response;
    const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/client');
    const { error, scope } = extractWWWAuthenticateParams(response);
    if (error !== 'insufficient_scope') return response;
    await response.body?.cancel().catch(() => {});
    const wanted = printableScope(scope);
    await this.#rememberScope(wanted);
    const { server } = this.#options;
    throw new McpError(
      'insufficient_scope',
      `MCP server "${server}" refused the request: it needs ${wanted === undefined ? 'more OAuth scopes' : `the OAuth scope "${wanted}"`}, which the current login did not grant. The next login will ask for it.`,
      { server },
    );
  };

  async #current(): Promise<StoredLogin | undefined> {
    const { store, serverUrl } = this.#options;
    if (this.#login?.tokens !== undefined || this.#noneAt === store.generation(serverUrl)) {
      return this.#login;
    }
    return this.#read();
  }

  async #read(): Promise<StoredLogin | undefined> {
    const { store, serverUrl } = this.#options;
    // Taken before reading: a login saved meanwhile moves it past this, and is read next time.
    const generation = store.generation(serverUrl);
    this.#login = this.#learn(await store.load(serverUrl));
    this.#noneAt = this.#login?.tokens === undefined ? generation : undefined;
    return this.#login;
  }

  #due(tokens: StoredTokens): boolean {
    if (tokens.expires_at === undefined) return false;
    const lifetime = tokens.expires_at - tokens.obtained_at;
    const skew = Math.min(this.#options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS, lifetime / 2);
    return tokens.expires_at - Date.now() <= skew;
  }

  #refresh(stale: string): Promise<StoredLogin> {
    this.#refreshing ??= this.#refreshOnce(stale).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refreshOnce(stale: string): Promise<StoredLogin> {
    const login = this.#login ?? (await this.#read());
    if (login === undefined) throw await this.#needsLogin('no login is stored for it');
    const { server, store } = this.#options;
    const { refreshLogin } = await import('./refresh.js');
    const outcome = await refreshLogin({ server, store }, login, stale);
    if (outcome.kind === 'needs_login') {
      this.#login = undefined;
      throw await this.#needsLogin(outcome.reason);
    }
    this.#login = this.#learn(outcome.login);
    return outcome.login;
  }

  #learn<T extends StoredLogin | undefined>(login: T): T {
    if (login !== undefined) this.#options.scrub.learn(loginSecrets(login));
    return login;
  }

  async #rememberScope(scope: string | undefined): Promise<void> {
    const login = await this.#current();
    if (login === undefined || scope === undefined) return;
    const { store } = this.#options;
    const { computeScopeUnion } = await import('@modelcontextprotocol/client');
    await store.withLock(login.serverUrl, login.issuer, async () => {
      const current = await store.load(login.serverUrl, login.issuer);
      if (current === undefined) return;
      const requiredScope = computeScopeUnion(current.requiredScope, scope) ?? scope;
      if (requiredScope !== current.requiredScope) await store.save({ ...current, requiredScope });
    });
  }

  async #needsLogin(reason: string): Promise<McpError> {
    const { server } = this.#options;
    const { UnauthorizedError } = await import('@modelcontextprotocol/client');
    // The cause is the SDK's own "unauthorized", so code that recognizes a refused login by the
    // SDK's error types sees this one as one too.
    return new McpError(
      'needs_login',
      `MCP server "${server}" needs a login: ${reason}. Log in to it, then reconnect it.`,
      { server, cause: new UnauthorizedError(reason) },
    );
  }
}

function bearerOf(headers: RequestInit['headers']): string | undefined {
  const value = new Headers(headers).get('authorization');
  return value?.startsWith('Bearer ') ? value.slice('Bearer '.length) : undefined;
}

/** RFC 6749 scope tokens only: a server's challenge goes into a message, so nothing else passes. */
function printableScope(scope: string | undefined): string | undefined {
  const tokens = scope?.split(' ').filter((t) => /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/.test(t));
  return tokens === undefined || tokens.length === 0 ? undefined : tokens.join(' ');
}
