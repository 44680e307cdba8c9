// The transport for one server config: our process-group stdio transport, or the SDK's SSE and
// Streamable HTTP transports. Each comes back with the two things the client needs beyond the SDK
// Transport: how to end it for good, and what the server last wrote to stderr.
import type { Logger } from '@epoch-agent/infra';
import {
  type AuthProvider,
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { connectionAuth } from '../oauth/grant-choice.js';
import { TokenStore } from '../oauth/token-store.js';
import type { Scrubber } from '../secrets.js';
import {
  assertNever,
  type McpServerConfig,
  type RemoteServerConfig,
  type StdioServerConfig,
} from '../types.js';
import { endSession } from './end-session.js';
import { closeTransportAndReap, type ReapOptions } from './reap.js';
import { answerBrokenStreams } from './request-streams.js';
import { StdioTransport } from './stdio.js';

export interface McpTransportHandle {
  readonly transport: Transport;
  /** The server's last stderr lines (stdio); always empty for remote servers. */
  stderrTail(): string;
  /**
   * Ends the connection for good. stdio: closeTransportAndReap (stdin EOF, grace, SIGTERM to the
   * group, grace, SIGKILL of whatever of the tree is left); a second call skips the grace periods.
   * Remote: closes the transport (its SSE stream and requests in flight); Streamable HTTP first
   * ends its session with a DELETE, waiting for the answer at most END_SESSION_TIMEOUT_MS. A
   * second call closes at once.
   */
  close(): Promise<void>;
}

export interface CreateTransportOptions {
  /** Receives the server's stderr lines (debug level, secrets blanked). */
  readonly logger: Logger;
  /**
   * The server's redaction policy (serverRedactor): blanks its secrets out of its stderr before
   * any of it is kept, and learns the tokens its OAuth obtains, so messages about it blank those
   * too. The client passes its own, so that every text about the server meets the same policy.
   */
  readonly scrub: Scrubber;
  /** OAuth of remote servers. Default: logins under `$EPOCH_HOME/oauth`, refreshed 60 s early. */
  readonly oauth?: TransportOAuthOptions;
  /** The grace periods of closing a stdio server (reap.ts has the defaults and why). */
  readonly reap?: ReapOptions;
}

export interface TransportOAuthOptions {
  readonly store?: TokenStore;
  /** How long before expiry an access token is refreshed (see OAuthConnectionAuth). */
  readonly refreshSkewMs?: number;
}

export type McpTransportFactory = (
  config: McpServerConfig,
  options: CreateTransportOptions,
) => McpTransportHandle;

export const createTransport: McpTransportFactory = (config, options) => {
  switch (config.transport) {
    case 'stdio':
      return stdioHandle(config, options);
    case 'sse':
      return remoteHandle(
        new SSEClientTransport(new URL(config.url), remoteOptions(config, options)),
      );
    case 'http': {
      const transport = answerBrokenStreams(
        new StreamableHTTPClientTransport(new URL(config.url), remoteOptions(config, options)),
      );
      const site = { server: config.name, logger: options.logger, scrub: options.scrub };
      return remoteHandle(transport, () => endSession(transport, site));
    }
    default:
      return assertNever(config, 'transport');
  }
};

function stdioHandle(
  config: StdioServerConfig,
  { logger, scrub, reap = {} }: CreateTransportOptions,
): McpTransportHandle {
  const transport = new StdioTransport({
    server: config,
    scrub,
    reap,
    onStderrLine: (line) =>
      logger.debug(`MCP server "${config.name}" stderr: ${line}`, { server: config.name }),
  });
  return {
    transport,
    stderrTail: () => transport.stderrTail(),
    close: () => closeTransportAndReap(transport),
  };
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
  leave: () => Promise<void> = async () => {},
): McpTransportHandle {
  let closing = false;
  return {
    transport,
    stderrTail: () => '',
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
