// OAuth for a connection that gets its own tokens, with no person and no login: the
// client_credentials grant (client-credentials.ts) and enterprise-managed cross-app access
// (cross-app-access.ts). A token is fetched when the server first answers 401 — during connect —
// and fetched again, the same way, once it has expired or the server refuses it: these grants have
// nothing to refresh with, and need nothing. Tokens live in this process only; nothing is stored.
//
// The steps are the SDK's: discovery (protected-resource metadata, then the authorization
// server's, with the RFC 8414 issuer check and the 2025-03-26 rule of legacy-issuer.ts), the RFC
// 8707 resource checked against the server, and fetchToken() — the client authentication the
// authorization server supports, with the grant parameters from the grant here. They are called
// one by one rather than through auth(), whose recovery from a refused client (discard the stored
// credentials, warn on the console, try again) fits credentials it stored, not ones from mcp.json.
// OAuth requests use oauth-fetch.ts, never the transport's fetch: the server's `headers` from
// mcp.json are for the MCP server, not for authorization servers or identity providers.
import { bounded, type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import {
  type AddClientAuthentication,
  type AuthProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
  fetchToken,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  OAuthError,
  type OAuthServerInfo,
  resourceUrlFromServerUrl,
  type StoredOAuthClientInformation,
  selectResourceURL,
} from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { type Scrubber, tokenSecrets } from '../secrets.js';
import { sentence } from '../text.js';
import { discoverServerInfo } from './legacy-issuer.js';
import { oauthFetch } from './oauth-fetch.js';
import { isExpired, type StoredTokens, toStoredTokens } from './token-store.js';

/** What the token request is for: the authorization server and the MCP server as a resource. */
export interface GrantTarget {
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  /** The RFC 8707 resource indicator of the MCP server. */
  readonly resource: string;
  readonly scope: string | undefined;
}

/** One machine grant: who the client is, and the grant parameters of its token request. */
export interface MachineGrant {
  /** The grant as mcp.json names it (`client_credentials`, `cross_app_access`), for messages. */
  readonly name: string;
  readonly grantType: string;
  /** The client at the MCP server's authorization server; with a secret, the SDK sends it. */
  readonly client: { readonly client_id: string; readonly client_secret?: string };
  /** For a client that signs its requests (private_key_jwt) instead of sending a secret. */
  readonly addClientAuthentication?: AddClientAuthentication;
  tokenRequest(target: GrantTarget): Promise<URLSearchParams>;
}

export interface MachineConnectionAuthOptions {
  /** The MCP server's name, for messages. */
  readonly server: string;
  readonly serverUrl: string;
  readonly grant: MachineGrant;
  /** oauth.scopes from mcp.json: asked for instead of what the server's challenge names. */
  readonly scopes?: readonly string[];
  /** Blanks the server's secrets out of what the authorization server says; taught its tokens. */
  readonly scrub: Scrubber;
  /** Default: silentLogger. */
  readonly logger?: Logger;
}

export class MachineConnectionAuth implements AuthProvider {
  readonly #options: MachineConnectionAuthOptions;
  readonly #provider: MachineProvider;
  /** Found once per connection: a new connection (a reconnect) discovers anew. */
  #discovery: OAuthServerInfo | undefined;
  #tokens: StoredTokens | undefined;
  /** One token request at a time; callers that come meanwhile share its result. */
  #fetching: Promise<void> | undefined;

  constructor(options: MachineConnectionAuthOptions) {
    this.#options = options;
    this.#provider = new MachineProvider(options.grant);
  }

  /** The access token for the next request; an expired one is replaced before it is sent. */
  async token(): Promise<string | undefined> {
    // Before the first 401 there is nothing to fetch with: discovery starts from its challenge.
    if (this.#tokens !== undefined && isExpired(this.#tokens.expires_at)) {
      await this.#fetch({});
    }
    return this.#tokens?.access_token;
  }

  /** The transport's fetch: nothing to add to a request beyond the token. */
  readonly fetch: FetchLike = (url, init) => fetch(url, init);

  /** The server refused the request (no token yet, or one it no longer takes): fetch a new one. */
  async onUnauthorized({ response }: { readonly response: Response }): Promise<void> {
    await this.#fetch(extractWWWAuthenticateParams(response));
  }

  #fetch(challenge: Challenge): Promise<void> {
    this.#fetching ??= this.#fetchOnce(challenge).finally(() => {
      this.#fetching = undefined;
    });
    return this.#fetching;
  }

  async #fetchOnce(challenge: Challenge): Promise<void> {
    const { server, serverUrl, grant, scopes } = this.#options;
    this.#tokens = undefined;
    try {
      this.#discovery ??= await discoverServerInfo(serverUrl, challenge.resourceMetadataUrl);
      const { authorizationServerUrl, authorizationServerMetadata, resourceMetadata } =
        this.#discovery;
      // Throws when the protected-resource metadata names another server than this one.
      const resource = await selectResourceURL(serverUrl, this.#provider, resourceMetadata);
      this.#provider.target = {
        issuer: authorizationServerMetadata?.issuer ?? String(authorizationServerUrl),
        // A server without protected-resource metadata (2025-03-26) is named by its own URL.
        resource: (resource ?? resourceUrlFromServerUrl(serverUrl)).href,
      };
      // The MCP spec's order: what mcp.json says, the server's challenge, what the server supports.
      const scope =
        scopes?.join(' ') ?? challenge.scope ?? resourceMetadata?.scopes_supported?.join(' ');
      const tokens = await fetchToken(this.#provider, authorizationServerUrl, {
        fetchFn: oauthFetch({ server }),
        ...(authorizationServerMetadata === undefined
          ? {}
          : { metadata: authorizationServerMetadata }),
        ...(resource === undefined ? {} : { resource }),
        ...(scope === undefined ? {} : { scope }),
      });
      this.#tokens = toStoredTokens(tokens);
      this.#options.scrub.learn(tokenSecrets(tokens));
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw new McpError('oauth_failed', this.#failure(error), { server, cause: error });
    }
    (this.#options.logger ?? silentLogger).debug(
      `MCP server "${server}": got an access token by the ${grant.name} grant.`,
      { server },
    );
  }

  #failure(error: unknown): string {
    const { server, grant, scrub } = this.#options;
    const what = `MCP server "${server}": getting an access token by the ${grant.name} grant failed`;
    // The authorization server answered, and said no: only a change to mcp.json helps.
    if (error instanceof OAuthError) {
      return `${what}: the authorization server refused it (${error.code}: ${bounded(scrub(error.message))}). Check the "oauth" field of "${server}" (client_id and its credential, scopes), then reconnect it.`;
    }
    return `${what}: ${sentence(bounded(scrub(messageOf(error))))} Reconnecting tries again.`;
  }
}

interface Challenge {
  readonly resourceMetadataUrl?: URL | undefined;
  readonly scope?: string | undefined;
}

/** The SDK's view of a machine client, for fetchToken(): who it is and its grant parameters. */
class MachineProvider implements OAuthClientProvider {
  readonly #grant: MachineGrant;
  /** Set before each token request: the authorization server and resource it is for. */
  target: Omit<GrantTarget, 'scope'> | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(grant: MachineGrant) {
    this.#grant = grant;
    if (grant.addClientAuthentication !== undefined) {
      this.addClientAuthentication = grant.addClientAuthentication;
    }
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'epoch-agent', redirect_uris: [], grant_types: [this.#grant.grantType] };
  }

  /** A configured client goes to the authorization server the MCP server names, as a login's does. */
  clientInformation(): StoredOAuthClientInformation {
    return { ...this.#grant.client };
  }

  tokens(): undefined {
    return undefined;
  }

  saveTokens(): void {}

  redirectToAuthorization(): never {
    throw new Error(`the ${this.#grant.name} grant has no authorization step`);
  }

  saveCodeVerifier(): void {}

  codeVerifier(): never {
    throw new Error(`the ${this.#grant.name} grant has no authorization code`);
  }

  prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const { target } = this;
    if (target === undefined) throw new Error('a token request before discovery');
    return this.#grant.tokenRequest({ ...target, scope });
  }
}
