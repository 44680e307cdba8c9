// The two connections a login makes to the MCP server, each the way the agent connects (our SDK
// Client options, so the same protocol revision; the configured headers and its helper's; connect,
// then tools/list): one without a token, whose first 401 challenge says what to ask the
// authorization server for, and one with the login just stored, which says whether the server
// takes it. And, when it does not, whether the server has moved to another authorization server
// meanwhile.
import type { Logger } from '@epoch-agent/infra';
import {
  Client,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { CLIENT_INFO, clientOptions } from '../connection/client-options.js';
import { isAuthFailure } from '../errors/connect.js';
import { mcpErrorIn } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import { headersSource } from '../transport/headers-helper.js';
import type { McpHeadersHelper } from '../transport/headers-helper-rules.js';
import { remoteTransport } from '../transport/remote.js';
import type { RemoteServerConfig } from '../types.js';
import type { StoredLogin, TokenStore } from './token-store.js';

type Remote = RemoteServerConfig<'sse' | 'http'>;

/** What the server's 401 said, when it said it. */
export interface Challenge {
  readonly scope?: string;
  readonly resourceMetadataUrl?: URL;
}

/**
 * How the server meets a client without a token: it challenges it (a failure other than a 401
 * tells the login nothing, and counts as a challenge that names nothing), or it lets it in.
 */
export type WithoutToken =
  | { readonly kind: 'challenged'; readonly challenge: Challenge }
  | { readonly kind: 'open'; readonly toolCount: number };

/** What both connections are made with besides the config, as the agent's connections are. */
export interface CheckOptions {
  /** The server's redaction policy: it learns what the headers helper gives. */
  readonly scrub: Scrubber;
  /** The host's headers helper, for a server whose entry has no `headers_helper`. */
  readonly headersHelper: McpHeadersHelper | undefined;
  readonly signal: AbortSignal;
}

/**
 * The server's challenge to a client without a token. Not only the first request's: a server may
 * let the handshake through and refuse tools/list, and only that refusal names the scope.
 */
export async function challengeOf(
  config: Remote,
  fetchFn: FetchLike,
  { scrub, headersHelper, signal }: CheckOptions,
): Promise<WithoutToken> {
  let challenge: Challenge | undefined;
  // The last 401 the server sent, though the helper's fetch made it an error: see the catch.
  let refusal: Challenge | undefined;
  const sent: FetchLike = async (url, init) => {
    const response = await fetchFn(url, init);
    if (response.status === 401) refusal = challengeIn(response);
    return response;
  };
  // Every request with the headers a connection of the server sends, no token: the configured
  // ones and its helper's (the entry's command or the host's function, as a connection asks it).
  // A server its helper lets in needs no login. The challenge is a 401 the helper's one more try
  // did not turn into an answer.
  const helper = headersSource({ config, scrub, host: headersHelper });
  const withHelper = helper === undefined ? sent : helper.fetch(sent);
  const recording: FetchLike = async (url, init) => {
    const response = await withHelper(url, init);
    if (response.status === 401) challenge ??= challengeIn(response);
    return response;
  };
  // The SDK's transports without an auth provider.
  const options = { requestInit: { headers: { ...config.headers } }, fetch: recording };
  const url = new URL(config.url);
  const transport =
    config.transport === 'sse'
      ? new SSEClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  const client = new Client(CLIENT_INFO, clientOptions(config));
  try {
    const toolCount = await connectAndList(client, transport, config, signal);
    if (challenge === undefined) return { kind: 'open', toolCount };
  } catch (error) {
    // A 401 ends the attempt, and is the answer. Without one, a refusal of ours (a redirect to
    // another origin, a headers helper that gave no headers) is the login's end; any other
    // failure tells the login nothing, and the discovery that follows says what is wrong.
    const ours = mcpErrorIn(error);
    // The helper's own Authorization refused twice fails a connection (headers-helper.ts), and is
    // still a 401 to a login, which its token answers: a login's token wins over that one.
    if (ours?.code === 'needs_login') challenge ??= refusal;
    if (challenge === undefined && ours !== undefined) throw ours;
  } finally {
    await client.close().catch(() => {});
  }
  return { kind: 'challenged', challenge: challenge ?? {} };
}

export type Verified =
  | { readonly kind: 'ok'; readonly toolCount: number }
  /** A request needed a wider scope (403 insufficient_scope); all the login must ask for now. */
  | { readonly kind: 'step_up'; readonly scope: string | undefined }
  /** The server refused the new login (401): its authorization server may have changed. */
  | { readonly kind: 'refused' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Connects with the stored login exactly as the agent will, and lists the tools. */
export async function verify(
  config: Remote,
  { store, logger }: { store: TokenStore; logger: Logger },
  { scrub, headersHelper, signal }: CheckOptions,
): Promise<Verified> {
  const handle = remoteTransport(config, { logger, scrub, headersHelper, oauth: { store } });
  const client = new Client(CLIENT_INFO, clientOptions(config));
  try {
    const toolCount = await connectAndList(client, handle.transport, config, signal);
    return { kind: 'ok', toolCount };
  } catch (error) {
    if (mcpErrorIn(error, 'insufficient_scope') !== undefined) {
      return { kind: 'step_up', scope: (await store.load(config.url))?.requiredScope };
    }
    if (isAuthFailure(error)) return { kind: 'refused' };
    return { kind: 'failed', error };
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * Whether the server's protected-resource metadata (found by its latest `challenge`) names no
 * longer the authorization server that issued `login`: then its refusal of that login is a move,
 * not a fault. Without the metadata there is nothing to tell a move by.
 */
export async function movedAway(
  config: Remote,
  challenge: Challenge,
  login: StoredLogin,
  fetchFn: FetchLike,
): Promise<boolean> {
  const where = challenge.resourceMetadataUrl;
  const metadata = await discoverOAuthProtectedResourceMetadata(
    config.url,
    where === undefined ? {} : { resourceMetadataUrl: where },
    fetchFn,
  ).catch(() => undefined);
  const named = metadata?.authorization_servers?.map(normalized) ?? [];
  return named.length > 0 && !named.includes(normalized(login.authorizationServerUrl));
}

function normalized(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

/** The number of tools the server lists on a connection opened as the agent opens one. */
async function connectAndList(
  client: Client,
  transport: Transport,
  config: Remote,
  signal: AbortSignal,
): Promise<number> {
  await client.connect(transport, { timeout: config.connectTimeoutMs, signal });
  if (!client.getServerCapabilities()?.tools) return 0;
  return (await client.listTools(undefined, { timeout: config.timeoutMs, signal })).tools.length;
}

function challengeIn(response: Response): Challenge {
  const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  return {
    ...(scope === undefined ? {} : { scope }),
    ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
  };
}
