// The transport for one server config: our process-group stdio transport, or the SDK's SSE and
// Streamable HTTP transports. Each comes back with the two things the client needs beyond the SDK
// Transport: how to end it for good, and what the server last wrote to stderr.
//
// Each kind is loaded the first time a server of that kind connects: the stdio transport from the
// Node-only `./stdio` entry (child processes, the reaper), the remote ones with the SDK's HTTP
// transports and OAuth (remote.ts). A program that never connects loads neither.
import type { Logger } from '@epoch-agent/infra';
import type { Transport } from '@modelcontextprotocol/client';
import type { TokenStore } from '../oauth/token-store.js';
import type { Scrubber } from '../secrets.js';
import {
  assertNever,
  type McpServerConfig,
  type McpServerExit,
  type StdioServerConfig,
} from '../types.js';
import type { Redirect } from './redirects.js';
import type { StdioTransportOptions } from './stdio.js';

export interface McpTransportHandle {
  readonly transport: Transport;
  /**
   * stdio: spawns the server before the connection that will use it exists (the SDK still
   * loading); what it writes waits in the pipe until the connection starts the transport. Its
   * rejection is the transport's start()'s, which the connection meets.
   */
  startAhead?(): Promise<void>;
  /** The server's last stderr lines (stdio); always empty for remote servers. */
  stderrTail(): string;
  /** stdio: how the server's process ended, if it ended by itself. */
  exit?(): McpServerExit | undefined;
  /** Remote: the redirect the server's last answer was, if it was one (the SDK names only its status). */
  lastRedirect?(): Redirect | undefined;
  /**
   * Ends the connection for good. stdio: closeTransportAndReap (stdin EOF, grace, SIGTERM to the
   * group, grace, SIGKILL of whatever of the tree is left); a second call skips the grace periods.
   * Remote: closes the transport (its SSE stream and requests in flight); Streamable HTTP first
   * ends its session with a DELETE, waiting for the answer at most END_SESSION_TIMEOUT_MS. A
   * second call closes at once.
   */
  close(): Promise<void>;
}

export interface CreateTransportOptions extends Pick<StdioTransportOptions, 'reap'> {
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
}

export interface TransportOAuthOptions {
  readonly store?: TokenStore;
  /** How long before expiry an access token is refreshed (see OAuthConnectionAuth). */
  readonly refreshSkewMs?: number;
}

/** Makes the transport of one server; an injected factory may answer at once or asynchronously. */
export type McpTransportFactory = (
  config: McpServerConfig,
  options: CreateTransportOptions,
) => McpTransportHandle | Promise<McpTransportHandle>;

// Each kind's module, once asked for: import() of a module already loaded still costs a trip
// through the module loader, about a tenth of a millisecond before every spawn.
let stdioModule: Promise<typeof import('../stdio.js')> | undefined;
let remoteModule: Promise<typeof import('./remote.js')> | undefined;
let swept = false;

export const createTransport: McpTransportFactory = async (config, options) => {
  switch (config.transport) {
    case 'stdio':
      return stdioHandle(config, options);
    case 'sse':
    case 'http': {
      remoteModule ??= import('./remote.js');
      const { remoteTransport } = await remoteModule;
      return remoteTransport(config, options);
    }
    default:
      return assertNever(config, 'transport');
  }
};

async function stdioHandle(
  config: StdioServerConfig,
  { logger, scrub, reap = {} }: CreateTransportOptions,
): Promise<McpTransportHandle> {
  stdioModule ??= import('../stdio.js');
  const { StdioTransport, closeTransportAndReap, sweepLeftovers } = await stdioModule;
  // Once per process, at its first stdio server, behind it: what a process of ours that died
  // without closing its servers left running is reaped (leftovers.ts).
  if (!swept) {
    swept = true;
    void sweepLeftovers({ logger, reap });
  }
  const transport = new StdioTransport({
    server: config,
    scrub,
    reap,
    logger,
    onStderrLine: (line) =>
      logger.debug(`MCP server "${config.name}" stderr: ${line}`, { server: config.name }),
  });
  return {
    transport,
    startAhead: () => transport.startAhead(),
    stderrTail: () => transport.stderrTail(),
    exit: () => transport.exit(),
    close: () => closeTransportAndReap(transport),
  };
}
