// Authorization-server discovery for MCP servers of the 2025-03-26 authorization spec, whose
// authorization server metadata names an issuer the RFC 8414 §3.3 check cannot match.
//
// Such a server has no protected-resource metadata (RFC 9728 came with 2025-06-18). That spec
// makes the MCP server's origin the "authorization base URL": the client discards the URL's path
// and reads `<origin>/.well-known/oauth-authorization-server`. The SDK therefore expects the
// issuer `<origin>/`. But a server whose authorization endpoints live under a path publishes its
// real issuer there, e.g. `<origin>/oauth` — and the strict check refuses it, so no login to such a
// server could ever succeed.
//
// The check exists against mix-up: metadata fetched from one place that claims to be another
// authorization server. Here the document comes from the MCP server's own origin, which that spec
// made the authority for its authorization server anyway, so an issuer on that same origin claims
// nothing the origin could not already claim. That, and only that, is accepted: only when the
// server has no protected-resource metadata (with one, its `authorization_servers` is what the
// issuer must match, strictly), and only an issuer of the same origin. Everywhere else the SDK's
// check stands. (The conformance suite's own mock was later changed to publish `<origin>` itself,
// https://github.com/modelcontextprotocol/conformance/issues/359; servers in the wild need not
// have been.)
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  discoverOAuthServerInfo,
  type FetchLike,
  IssuerMismatchError,
  type OAuthDiscoveryState,
  type OAuthServerInfo,
} from '@modelcontextprotocol/client';

/** The SDK's discovery, with the 2025-03-26 rule below; OAuth requests by plain fetch. */
export async function discoverServerInfo(
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
): Promise<OAuthServerInfo> {
  const where = resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl };
  try {
    return await discoverOAuthServerInfo(serverUrl, { ...where, fetchFn: fetch });
  } catch (error) {
    const legacy = await legacyIssuerDiscovery(error, serverUrl, resourceMetadataUrl, fetch);
    if (legacy === undefined) throw error;
    return legacy;
  }
}

/**
 * After discovery failed with `error`: the discovery to use instead when the server is a
 * 2025-03-26 one whose metadata names an issuer on its own origin; otherwise undefined (the
 * error stands).
 */
export async function legacyIssuerDiscovery(
  error: unknown,
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<OAuthDiscoveryState | undefined> {
  const base = new URL('/', serverUrl);
  if (!(error instanceof IssuerMismatchError) || error.kind !== 'metadata') return undefined;
  if (error.expected !== base.href) return undefined;
  if (await hasResourceMetadata(serverUrl, resourceMetadataUrl, fetchFn)) return undefined;
  const metadata = await discoverAuthorizationServerMetadata(base.href, {
    fetchFn,
    skipIssuerValidation: true,
  });
  if (metadata === undefined || !sameOrigin(metadata.issuer, base)) return undefined;
  return { authorizationServerUrl: base.href, authorizationServerMetadata: metadata };
}

async function hasResourceMetadata(
  serverUrl: string,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<boolean> {
  try {
    await discoverOAuthProtectedResourceMetadata(
      serverUrl,
      resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl },
      fetchFn,
    );
    return true;
  } catch (error) {
    // A network failure is not an answer: nothing is relaxed on it.
    if (error instanceof TypeError) return true;
    return false;
  }
}

function sameOrigin(issuer: string, base: URL): boolean {
  try {
    return new URL(issuer).origin === base.origin;
  } catch {
    return false;
  }
}
