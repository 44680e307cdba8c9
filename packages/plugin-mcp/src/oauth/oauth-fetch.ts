// The fetch of every OAuth request of ours: the login's first unauthenticated request (it carries
// the configured `headers`), discovery, registration, the code exchange, refreshes and revocation.
// They carry secrets — headers, tokens, client secrets, codes, PKCE verifiers — so a redirect is
// followed only within the origin the request was sent to, and only where it keeps the method
// (GET, or 307/308): fetch's own `redirect: 'follow'` would hand the body and headers to any host
// the server names. A redirect to another origin is refused with `redirect_refused`, nothing sent.
// An answer is read up to MAX_BODY_BYTES: metadata, a registration or tokens are a few KiB, and a
// hostile server's endless or huge answer must not be buffered (nor its 1 MB client_id used).
import type { FetchLike } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As many as a real authorization server needs (a trailing slash, a path moved), no more. */
const MAX_REDIRECTS = 5;
const MAX_BODY_BYTES = 64 * 1024;

export interface OAuthFetchOptions {
  /** The MCP server the requests are for, for the error. */
  readonly server: string;
  /** What does the requests. Default: the global fetch. */
  readonly fetchFn?: FetchLike;
}

export function oauthFetch({ server, fetchFn = fetch }: OAuthFetchOptions): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    let current = new URL(String(url));
    for (let followed = 0; ; followed++) {
      // Whatever the caller asked for (the SDK asks for 'manual' and follows by its own rule).
      const response = await fetchFn(current, { ...init, redirect: 'manual' });
      const target = redirectTarget(current, response);
      if (target === undefined || followed === MAX_REDIRECTS) return bounded(current, response);
      const keepsMethod = method === 'GET' || response.status === 307 || response.status === 308;
      if (!keepsMethod) return bounded(current, response);
      await response.body?.cancel().catch(() => {});
      if (!withinOrigin(current, target)) {
        throw new McpError(
          'redirect_refused',
          `MCP server "${server}": ${current.origin}${current.pathname} redirected an OAuth request to another origin (${target.origin}); nothing was sent there, because the request carries credentials. Tell the server's operator; if ${target.origin} is where the MCP server really is, use that URL as the server's "url".`,
          { server },
        );
      }
      current = target;
    }
  };
}

/** `response` whose body fails to read past MAX_BODY_BYTES. */
function bounded(url: URL, response: Response): Response {
  const { body } = response;
  // A 204 or 304 may not have a body at all, not even an empty one.
  if (body === null || [204, 205, 304].includes(response.status)) return response;
  const tooLarge = () =>
    new Error(
      `${url.origin}${url.pathname} answered with more than ${MAX_BODY_BYTES / 1024} KiB, far more than an OAuth answer needs; it was not read`,
    );
  let read = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      read += chunk.byteLength;
      if (read > MAX_BODY_BYTES) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(body.pipeThrough(limit), { status, statusText, headers });
}

function redirectTarget(from: URL, response: Response): URL | undefined {
  const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
  if (location === null) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

/** The same origin and user info, or the https form of an http URL on the default ports. */
function withinOrigin(from: URL, to: URL): boolean {
  if (to.username !== from.username || to.password !== from.password) return false;
  if (to.origin === from.origin) return true;
  return (
    from.protocol === 'http:' &&
    to.protocol === 'https:' &&
    from.hostname === to.hostname &&
    from.port === '' &&
    to.port === ''
  );
}
