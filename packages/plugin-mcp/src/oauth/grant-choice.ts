// Which OAuth a remote server's connection runs, from its `oauth` field: the stored login of an
// interactive `epoch mcp login` (OAuthConnectionAuth), or tokens the client gets by itself
// (MachineConnectionAuth: client_credentials, cross-app access).
//
// One case is decided at connect: a registered client with a secret and no `grant`. A secret is
// what a pre-registered interactive client and a client_credentials client both have, so the
// authorization server decides: when its metadata offers client_credentials and not
// authorization_code, no login could ever succeed and the client gets its own token; otherwise the
// login's verdict (a stored login, or `needs_login`) stands.
import type { Logger } from '@epoch-agent/infra';
import {
  type AuthProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { isMcpError, McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import { assertNever, type McpOAuthGrant, type RemoteServerConfig } from '../types.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { OAuthConnectionAuth } from './connection-auth.js';
import { crossAppAccessGrant } from './cross-app-access.js';
import { discoverServerInfo } from './legacy-issuer.js';
import { MachineConnectionAuth, type MachineGrant } from './machine-auth.js';
import type { TokenStore } from './token-store.js';

/** What the transport takes: the auth provider, and the fetch its requests go through. */
export type ConnectionAuth = AuthProvider & { readonly fetch: FetchLike };

export interface ConnectionAuthOptions {
  readonly store: TokenStore;
  readonly logger: Logger;
  readonly scrub: Scrubber;
  /** How long before expiry a stored login is refreshed (see OAuthConnectionAuth). */
  readonly refreshSkewMs?: number;
}

type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

export function connectionAuth(
  config: RemoteServerConfig<'sse' | 'http'>,
  options: ConnectionAuthOptions,
): ConnectionAuth {
  const { name: server, oauth } = config;
  const login = () =>
    new OAuthConnectionAuth({
      server,
      serverUrl: config.url,
      store: options.store,
      logger: options.logger,
      scrub: options.scrub,
      ...(options.refreshSkewMs === undefined ? {} : { refreshSkewMs: options.refreshSkewMs }),
    });
  const machine = (grant: MachineGrant) =>
    new MachineConnectionAuth({
      server,
      serverUrl: config.url,
      grant,
      scrub: options.scrub,
      logger: options.logger,
      ...(oauth?.scopes === undefined ? {} : { scopes: oauth.scopes }),
    });
  const grant = oauth?.grant;
  const clientId = oauth?.clientId;
  const clientSecret = oauth?.clientSecret;
  if (grant === undefined || grant.kind === 'authorization_code') {
    if (grant !== undefined || clientId === undefined || clientSecret === undefined) return login();
    return new GrantChosenAtConnect({
      server,
      logger: options.logger,
      login: login(),
      machine: machine(
        clientCredentialsGrant({ server, clientId, clientSecret, scrub: options.scrub }),
      ),
    });
  }
  if (clientId === undefined) return withoutClient(server, grant);
  return machine(machineGrant(server, grant, { clientId, clientSecret, scrub: options.scrub }));
}

function machineGrant(
  server: string,
  grant: Exclude<McpOAuthGrant, { kind: 'authorization_code' }>,
  client: { clientId: string; clientSecret: string | undefined; scrub: Scrubber },
): MachineGrant {
  const secret = client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret };
  switch (grant.kind) {
    case 'client_credentials':
      return clientCredentialsGrant({
        server,
        clientId: client.clientId,
        scrub: client.scrub,
        ...secret,
        ...(grant.privateKeyJwt === undefined ? {} : { privateKeyJwt: grant.privateKeyJwt }),
      });
    case 'cross_app_access':
      return crossAppAccessGrant({
        server,
        clientId: client.clientId,
        ...secret,
        identityProvider: grant.identityProvider,
        scrub: client.scrub,
      });
    default:
      return assertNever(grant, 'oauth grant');
  }
}

// The config loader never lets this through; a config built in code might.
function withoutClient(server: string, grant: McpOAuthGrant): ConnectionAuth {
  return {
    token: async () => undefined,
    onUnauthorized: async () => {
      throw new McpError(
        'oauth_failed',
        `MCP server "${server}": the ${grant.kind} grant needs oauth.client_id, the client registered with its authorization server; add it to the server's "oauth" field.`,
        { server },
      );
    },
    fetch,
  };
}

interface GrantChosenAtConnectOptions {
  readonly server: string;
  readonly logger: Logger;
  readonly login: ConnectionAuth;
  readonly machine: ConnectionAuth;
}

/** A registered client with a secret and no `grant`: a login, unless only client_credentials can work. */
class GrantChosenAtConnect implements ConnectionAuth {
  readonly #options: GrantChosenAtConnectOptions;
  #machine = false;

  constructor(options: GrantChosenAtConnectOptions) {
    this.#options = options;
  }

  token(): Promise<string | undefined> {
    return (this.#machine ? this.#options.machine : this.#options.login).token();
  }

  async onUnauthorized(ctx: UnauthorizedContext): Promise<void> {
    const { login, machine, server, logger } = this.#options;
    if (this.#machine) return machine.onUnauthorized?.(ctx);
    try {
      await login.onUnauthorized?.(ctx);
    } catch (error) {
      if (!isMcpError(error, 'needs_login') || !(await offersOnlyClientCredentials(ctx))) {
        throw error;
      }
      logger.info(
        `MCP server "${server}": its authorization server offers the client_credentials grant and no login, so its client gets its own tokens (set oauth.grant to say so).`,
        { server },
      );
      this.#machine = true;
      await machine.onUnauthorized?.(ctx);
    }
  }

  readonly fetch: FetchLike = (url, init) =>
    (this.#machine ? this.#options.machine : this.#options.login).fetch(url, init);
}

async function offersOnlyClientCredentials(ctx: UnauthorizedContext): Promise<boolean> {
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(ctx.response);
  try {
    const info = await discoverServerInfo(ctx.serverUrl.href, resourceMetadataUrl);
    const grants = info.authorizationServerMetadata?.grant_types_supported ?? [];
    return grants.includes('client_credentials') && !grants.includes('authorization_code');
  } catch {
    // Discovery failed: nothing says a login cannot work, so the login's verdict stands.
    return false;
  }
}
