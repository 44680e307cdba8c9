// The SSE and Streamable HTTP transports of a remote server: the SDK's, with OAuth on every
// request, the headers a helper gives (headers-helper.ts), a check of the answers in every body
// (answer-bodies.ts) and, for Streamable HTTP, a goodbye (end-session.ts) and an answer for broken
// request streams. Loaded by createTransport the first time a remote server connects.
import {
  type AuthProvider,
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { connectionAuth } from '../oauth/grant-choice.js';
import { TokenStore } from '../oauth/token-store.js';
import type { RemoteServerConfig } from '../types.js';
import { checkingAnswers, revivingMarks } from './answer-bodies.js';
import { endSession } from './end-session.js';
import type { CreateTransportOptions, McpTransportHandle } from './handle.js';
import { headersSource } from './headers-helper.js';
import { type RedirectRecorder, recordRedirects } from './redirects.js';
import { answerBrokenStreams } from './request-streams.js';

export function remoteTransport(
  config: RemoteServerConfig<'sse' | 'http'>,
  options: CreateTransportOptions,
): McpTransportHandle {
  const { fetch, ...rest } = remoteOptions(config, options);
  const helper = headersSource({ config, scrub: options.scrub, host: options.headersHelper });
  const redirects = recordRedirects(helper === undefined ? fetch : helper.fetch(fetch));
  // An answer not valid MCP fails its request at once (answer-bodies.ts).
  const sdkOptions = { ...rest, fetch: checkingAnswers(redirects.fetch) };
  if (config.transport === 'sse') {
    const sse = revivingMarks(new SSEClientTransport(new URL(config.url), sdkOptions));
    return remoteHandle(sse, redirects);
  }
  const transport = revivingMarks(
    answerBrokenStreams(new StreamableHTTPClientTransport(new URL(config.url), sdkOptions)),
  );
  const site = { server: config.name, logger: options.logger, scrub: options.scrub };
  return remoteHandle(transport, redirects, () => endSession(transport, site));
}

// `requestInit.headers` is what both SDK transports put on every request they make: the SSE GET
// stream and its POSTs, and Streamable HTTP's POST, GET and DELETE alike. Every remote server gets
// OAuth: a server that wants a login says so with a 401, whether or not mcp.json has `oauth`. Its
// token, once there is one, wins over an `Authorization` in `headers`. Which OAuth (a stored
// login, or tokens of the client's own grant) is grant-choice.ts's decision.
function remoteOptions(
  config: RemoteServerConfig<'sse' | 'http'>,
  { logger, scrub, oauth = {} }: CreateTransportOptions,
): { requestInit: RequestInit; authProvider: AuthProvider; fetch: FetchLike } {
  // The server's own setting wins over the host's default.
  const skew = config.oauth?.refreshSkewMs ?? oauth.refreshSkewMs;
  const auth = connectionAuth(config, {
    store: oauth.store ?? new TokenStore({ logger }),
    logger,
    scrub,
    ...(skew === undefined ? {} : { refreshSkewMs: skew }),
  });
  return { requestInit: { headers: { ...config.headers } }, authProvider: auth, fetch: auth.fetch };
}

/** `leave`: what to tell the server before the transport closes (Streamable HTTP: end-session.ts). */
function remoteHandle(
  transport: Transport,
  redirects: RedirectRecorder,
  leave: () => Promise<void> = async () => {},
): McpTransportHandle {
  let closing = false;
  return {
    transport,
    stderrTail: () => '',
    lastRedirect: redirects.last,
    close: async () => {
      // The second close: at once, which also aborts a goodbye still waiting for its answer.
      if (closing) return transport.close();
      closing = true;
      // A dropped legacy SSE stream is reported (onerror) before EventSource arms its 3 s
      // reconnect timer. A close made from that report, in the same tick, would find no timer to
      // clear, and the timer would hold the process open. One microtask later it is armed.
      await Promise.resolve();
      await leave();
      await transport.close();
    },
  };
}
