// A login's request that got no answer at all: the connection was refused, the host name does not
// resolve, the TLS certificate was not accepted, it timed out. fetch says only `fetch failed` and
// keeps the reason in its `cause`; this says which server, which URL, what happened and what to
// do, decided on the socket's and TLS's error codes, never on message text.
import { redactUrl } from '@epoch-agent/infra';
import { networkFailure } from '../errors/http.js';
import { McpError } from '../errors/mcp-error.js';

// Node's codes for a certificate it did not accept.
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What to do about each kind of failure; by code, the default for the rest. */
const ADVICE: Readonly<Record<string, string>> = {
  ECONNREFUSED:
    'Check that the server (or its authorization server) is running at that address and that its "url" is right',
  ENOTFOUND: 'Check the host name in its "url", and the network',
  EAI_AGAIN: 'Check the network and its DNS, then try again',
  UND_ERR_CONNECT_TIMEOUT: 'Check the network and any proxy between, then try again',
  ETIMEDOUT: 'Check the network and any proxy between, then try again',
};
const TLS_ADVICE =
  'Check that its "url" names the right host; a certificate of your own is trusted with NODE_EXTRA_CA_CERTS';
const DEFAULT_ADVICE = 'Check the network, then try again';

/**
 * The McpError `oauth_failed` for a request of `server`'s login to `url` that failed below HTTP;
 * undefined for any other failure (an abort, an answer of any kind).
 */
export function unreachable(server: string, url: URL, error: unknown): McpError | undefined {
  const code = errorCode(error);
  const network = networkFailure(error);
  const tls = code !== undefined && TLS_CODES.has(code);
  if (network === undefined && !tls) return undefined;
  const what = network?.text ?? `its TLS certificate was not accepted (${code})`;
  const advice = tls
    ? TLS_ADVICE
    : ((code === undefined ? undefined : ADVICE[code]) ?? DEFAULT_ADVICE);
  return new McpError(
    'oauth_failed',
    `Login to MCP server "${server}" failed: ${redactUrl(url.href)} could not be reached: ${what}. ${advice}, then log in again.`,
    { server, cause: error },
  );
}

/** The first error code in `error`'s chain of causes (fetch wraps the socket's). */
function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const { code } = e as NodeJS.ErrnoException;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
