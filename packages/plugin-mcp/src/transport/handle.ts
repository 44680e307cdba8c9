// What a transport is to the client, whichever kind: the handle each kind comes back as, and the
// options every kind is made with. Its own module so that a kind's module, loaded on demand by
// createTransport, names them without importing the module that loads it.
import type { Logger } from '@epoch-agent/infra';
import type { Transport } from '@modelcontextprotocol/client';
import type { TokenStore } from '../oauth/token-store.js';
import type { Scrubber } from '../secrets.js';
import type { McpServerExit } from '../types.js';
import type { McpHeadersHelper } from './headers-helper-rules.js';
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
  /** stdio: each line the server writes to stderr, secrets blanked, besides the logger's. */
  readonly onStderrLine?: (line: string) => void;
  /** Remote: the host's headers helper, for a server whose entry has no `headers_helper`. */
  readonly headersHelper?: McpHeadersHelper | undefined;
  /** OAuth of remote servers. Default: logins under `$EPOCH_HOME/oauth`, refreshed 60 s early. */
  readonly oauth?: TransportOAuthOptions;
}

export interface TransportOAuthOptions {
  readonly store?: TokenStore;
  /** How long before expiry an access token is refreshed (see OAuthConnectionAuth). */
  readonly refreshSkewMs?: number;
}
