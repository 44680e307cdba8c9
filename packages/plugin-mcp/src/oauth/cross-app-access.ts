// Enterprise-managed authorization (cross-app access, SEP-990): the user signed in to their
// company's identity provider once; this agent turns that sign-in into access to an MCP server
// without a login of its own. Two steps per token:
//   1. RFC 8693 token exchange at the identity provider: the user's ID token for an ID-JAG (an
//      identity assertion authorization grant) addressed to the MCP server's authorization server
//      (`audience`, its issuer) for the MCP server (`resource`).
//   2. RFC 7523 JWT bearer grant at that authorization server: the ID-JAG for an access token, by
//      the client of `client_id` (authenticated with its secret, as the server supports).
// The ID token is read at every exchange, so a file that something renews keeps this working.
import { bounded, credentials, messageOf } from '@epoch-agent/infra';
import {
  discoverAuthorizationServerMetadata,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import type { McpIdentityProvider } from '../types.js';
import { readSecret } from './client-credentials.js';
import type { GrantTarget, MachineGrant } from './machine-auth.js';
import { oauthFetch } from './oauth-fetch.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface CrossAppAccessOptions {
  /** The MCP server's name, for messages. */
  readonly server: string;
  /** The client at the MCP server's authorization server. */
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly identityProvider: McpIdentityProvider;
  /** Blanks the server's secrets out of what the identity provider says; taught the ID token. */
  readonly scrub: Scrubber;
}

export function crossAppAccessGrant(options: CrossAppAccessOptions): MachineGrant {
  const { clientId, clientSecret } = options;
  return {
    name: 'cross_app_access',
    grantType: JWT_BEARER,
    client: {
      client_id: clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
    },
    tokenRequest: async (target) =>
      new URLSearchParams({
        grant_type: JWT_BEARER,
        assertion: await identityAssertion(options, target),
        ...(target.scope ? { scope: target.scope } : {}),
      }),
  };
}

/** Step 1: the ID-JAG for this authorization server and resource. */
async function identityAssertion(
  options: CrossAppAccessOptions,
  target: GrantTarget,
): Promise<string> {
  const { server, identityProvider: idp, scrub } = options;
  const idToken = await readSecret(server, 'idp_id_token', idp.idToken);
  scrub.learn(credentials([idToken]));
  try {
    const { jwtAuthGrant } = await requestJwtAuthorizationGrant({
      tokenEndpoint: idp.tokenEndpoint ?? (await discoveredTokenEndpoint(idp)),
      audience: target.issuer,
      resource: target.resource,
      idToken,
      clientId: idp.clientId,
      ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
      ...(target.scope === undefined ? {} : { scope: target.scope }),
      fetchFn: oauthFetch({ server }),
    });
    scrub.learn(credentials([jwtAuthGrant]));
    return jwtAuthGrant;
  } catch (error) {
    throw new McpError(
      'oauth_failed',
      `MCP server "${server}": the identity provider did not exchange the ID token for an ID-JAG (${bounded(scrub(messageOf(error)))}). If the ID token expired, renew it (oauth.idp_id_token); otherwise check the idp_* fields of "${server}". Then reconnect it.`,
      { server, cause: error },
    );
  }
}

async function discoveredTokenEndpoint(idp: McpIdentityProvider): Promise<string> {
  const { issuer } = idp;
  if (issuer === undefined)
    throw new Error('neither oauth.idp_token_endpoint nor oauth.idp_issuer is set');
  const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: fetch });
  if (metadata?.token_endpoint === undefined) {
    throw new Error(
      `no token endpoint found in the metadata of ${issuer}; set oauth.idp_token_endpoint`,
    );
  }
  return metadata.token_endpoint;
}
