// The code leg of an interactive login's round: the authorization response's issuer checked, and
// its authorization code exchanged for tokens, once.
import {
  type FetchLike,
  fetchToken,
  validateAuthorizationResponseIssuer,
} from '@modelcontextprotocol/client';
import type { LoginProvider } from './provider.js';

/**
 * RFC 9207: the authorization response's `iss` is checked before anything else of it is believed,
 * its `error` included; a response that fails is another authorization server's answer (a mix-up)
 * and throws the SDK's IssuerMismatchError. (The exchange checks it again: the SDK's always does.)
 */
export function checkResponseIssuer(provider: LoginProvider, iss: string | null): void {
  const metadata = provider.discoveryState()?.authorizationServerMetadata;
  validateAuthorizationResponseIssuer({
    iss: iss ?? undefined,
    expectedIssuer: metadata?.issuer,
    issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
  });
}

/**
 * The code leg of a round, sent once. Not by the SDK's auth(): on `invalid_grant` it would send the
 * same code again, and print the authorization server's words (which may quote the code and the
 * verifier) to the console. What auth() checked in the first leg — the authorization server, its
 * metadata, the resource — is the discovery the provider saved then.
 */
export async function exchangeCode(
  provider: LoginProvider,
  code: string,
  iss: string | null,
  fetchFn: FetchLike,
): Promise<void> {
  const discovery = provider.discoveryState();
  if (discovery === undefined) throw new Error('the callback came before discovery');
  const metadata = discovery.authorizationServerMetadata;
  const issuer = metadata?.issuer ?? discovery.authorizationServerUrl;
  const tokens = await fetchToken(provider, discovery.authorizationServerUrl, {
    authorizationCode: code,
    fetchFn,
    ...(metadata === undefined ? {} : { metadata }),
    // As the metadata spells it: a URL's href would add a `/` to a pathless resource indicator.
    ...(provider.resource === undefined ? {} : { resource: provider.resource }),
    ...(iss === null ? {} : { iss }),
  });
  await provider.saveTokens({ ...tokens, issuer }, { issuer });
}
