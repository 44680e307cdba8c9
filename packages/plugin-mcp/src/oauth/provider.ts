// The SDK `OAuthClientProvider` of an interactive login (`epoch mcp login`). The SDK's auth()
// drives it and does the protocol: protected-resource and authorization-server discovery, dynamic
// client registration or a Client ID Metadata Document URL as the client id (preferred where the
// authorization server takes one), PKCE S256, the RFC 8707 `resource`, the scope choice
// (challenge, then `scopes_supported`, plus `offline_access` where the authorization server lists
// it). This side supplies what is ours: the redirect URI of the loopback callback, a fresh `state`
// per round (checked by the callback server), the configured client, and saving the result —
// client, tokens and discovery in one file per issuer — once the code is exchanged (with the RFC
// 9207 issuer check, code-exchange.ts). One authorization server's client is never offered to
// another.
//
// It never refreshes (tokens() is empty): a login always asks the authorization server anew.
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthConfig } from '../types.js';
import { checkLoginEndpoints } from './login-endpoints.js';
import { type StoredLogin, type TokenStore, toStoredTokens } from './token-store.js';

const MAX_CLIENT_ID_LENGTH = 2048;

export interface LoginProviderOptions {
  /** The MCP server's name, for errors. */
  readonly server: string;
  /** The MCP server's URL: the protected resource. */
  readonly serverUrl: string;
  readonly oauth: McpOAuthConfig | undefined;
  readonly store: TokenStore;
  /** Send the user to this URL (print it, open a browser). */
  readonly onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** The login's end (Ctrl-C, its deadline, its caller): once aborted, nothing more is saved. */
  readonly signal: AbortSignal;
}

export class LoginProvider implements OAuthClientProvider {
  readonly #options: LoginProviderOptions;
  #redirectUrl = '';
  #state = '';
  #codeVerifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #resource: string | undefined;
  #scope: string | undefined;
  /** Registered (or chosen) in this login; saved with the tokens. */
  #client: StoredOAuthClientInformation | undefined;
  /** The authorization server said the stored client is no good (invalid_client). */
  #storedClientRefused = false;
  #saved: StoredLogin | undefined;
  /** The client id where the authorization server takes metadata-document clients. */
  readonly clientMetadataUrl?: string;

  constructor(options: LoginProviderOptions) {
    this.#options = options;
    const url = options.oauth?.clientMetadataUrl;
    if (url !== undefined) this.clientMetadataUrl = url;
  }

  /**
   * Starts an authorization round: where the callback goes, the state it must carry back, and
   * the scope it asks for (undefined: the SDK's choice). Discovery starts over: a round after one
   * the server refused follows its new challenge, which may name another authorization server.
   */
  beginRound(redirectUrl: string, state: string, scope: string | undefined): void {
    this.#redirectUrl = redirectUrl;
    this.#state = state;
    this.#scope = scope;
    this.#codeVerifier = undefined;
    this.#discovery = undefined;
  }

  /** The login saved by the last code exchange. */
  get saved(): StoredLogin | undefined {
    return this.#saved;
  }

  /** The RFC 8707 resource indicator the first leg chose, for the code exchange. */
  get resource(): string | undefined {
    return this.#resource;
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { oauth } = this.#options;
    return {
      client_name: 'epoch-agent',
      // Said, not left to a guess from the redirect URI: the code comes back to a loopback
      // listener on the user's machine, a native application's (RFC 8252), and an authorization
      // server that takes OpenID registration assumes `web` and refuses such a URI otherwise.
      application_type: 'native',
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method:
        oauth?.clientSecret === undefined ? 'none' : 'client_secret_basic',
      ...(oauth?.scopes === undefined ? {} : { scope: oauth.scopes.join(' ') }),
    };
  }

  state(): string {
    return this.#state;
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const { oauth, store, serverUrl } = this.#options;
    // A configured client belongs to whichever authorization server the MCP server names.
    if (oauth?.clientId !== undefined) {
      return {
        client_id: oauth.clientId,
        ...(oauth.clientSecret === undefined ? {} : { client_secret: oauth.clientSecret }),
        ...(ctx === undefined ? {} : { issuer: ctx.issuer }),
      };
    }
    if (ctx === undefined) return this.#client;
    // A client belongs to the authorization server that issued it: one registered earlier in this
    // login with another (the server has since named a new one) is not offered to this one.
    if (this.#client?.issuer === ctx.issuer) return this.#client;
    if (this.#storedClientRefused) return undefined;
    // A client registered by an earlier login is reused when it fits this round's redirect URI.
    const client = (await store.load(serverUrl, ctx.issuer))?.client;
    if (client === undefined) return undefined;
    const fits =
      client.client_id === this.clientMetadataUrl ||
      ('redirect_uris' in client && client.redirect_uris.includes(this.#redirectUrl));
    return fits ? { ...client, issuer: ctx.issuer } : undefined;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    // It goes into the authorization URL: one of a megabyte makes a URL no browser opens.
    if (client.client_id.length > MAX_CLIENT_ID_LENGTH) {
      throw new Error(
        `the authorization server registered a client_id of ${client.client_id.length} characters; at most ${MAX_CLIENT_ID_LENGTH} are accepted`,
      );
    }
    this.#client = client;
  }

  tokens(): undefined {
    return undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const discovery = this.#discovery;
    const client = await this.clientInformation(ctx);
    if (ctx === undefined || discovery === undefined || client === undefined) {
      throw new Error('the SDK saved tokens before discovery and client registration');
    }
    const { issuer: _stamp, ...clientInfo } = client;
    const login: StoredLogin = {
      serverUrl: this.#options.serverUrl,
      issuer: ctx.issuer,
      client: clientInfo,
      tokens: toStoredTokens(tokens),
      authorizationServerUrl: discovery.authorizationServerUrl,
      ...(discovery.authorizationServerMetadata === undefined
        ? {}
        : { authorizationServerMetadata: discovery.authorizationServerMetadata }),
      ...(discovery.resourceMetadata === undefined
        ? {}
        : { resourceMetadata: discovery.resourceMetadata }),
      ...(this.#resource === undefined ? {} : { resource: this.#resource }),
      ...(this.#scope === undefined ? {} : { requiredScope: this.#scope }),
    };
    const { store, signal } = this.#options;
    // Under the lock: a connection refreshing the previous login must not write over this one.
    // A login stopped while the code exchange was answering stores nothing: it was given up.
    await store.withLock(login.serverUrl, login.issuer, () => {
      signal.throwIfAborted();
      return store.save(login);
    });
    this.#saved = login;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    await this.#options.onAuthorizationUrl(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('no PKCE code verifier in this round');
    return this.#codeVerifier;
  }

  /** Refuses endpoints no one may be sent to (login-endpoints.ts) before anything uses them. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    checkLoginEndpoints(this.#options.server, state);
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  saveResourceUrl(resource: string): void {
    this.#resource = resource;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') {
      this.#client = undefined;
      this.#storedClientRefused = true;
    }
    if (scope === 'all' || scope === 'verifier') this.#codeVerifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }
}
