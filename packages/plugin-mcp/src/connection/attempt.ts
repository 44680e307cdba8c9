// What one attempt at a connection is given and what it comes to, as it passes each layer (the
// server's life, the slot, the start, the link's open). Free of the SDK: the layers that run before
// it has loaded name these too.
import type { McpServerSchema } from '../cache.js';
import type { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import type { McpTransportHandle } from '../transport/handle.js';
import type {
  McpElicitationSetting,
  McpServerConfig,
  McpServerExit,
  McpServerSource,
} from '../types.js';
import type { Connection } from './link.js';
import type { ConnectionSettings } from './options.js';
import type { ServerOutput } from './server-output.js';

/** What one attempt needs to know. */
export interface AttemptParts {
  readonly config: McpServerConfig;
  /** Who configured it: its questions name it. */
  readonly source: McpServerSource;
  /** Its elicitation setting as it is now, read at each question. */
  readonly elicitation: () => McpElicitationSetting;
  /** The client's, its logger already passing the server's redaction policy. */
  readonly settings: ConnectionSettings;
  readonly scrub: Scrubber;
  /** Aborting it ends the attempt: close() was called. */
  readonly signal: AbortSignal;
  /** The server sent notifications/tools/list_changed on this connection (debounced). */
  readonly onToolsChanged: (connection: Connection) => void;
  /** What the schema cache holds for this config: its era verdict and, while fresh, its tools. */
  readonly remembered?: McpServerSchema | undefined;
  /** Where its stderr lines and log messages are kept for a person to read. */
  readonly output: ServerOutput;
}

/** A stdio server spawned while the SDK loaded: the attempt's first transport, and its start. */
export interface StartedAhead {
  readonly handle: McpTransportHandle;
  /** Date.now() when it began: connect_timeout counts from here. */
  readonly at: number;
}

export type AttemptOutcome =
  | { readonly ok: true; readonly connection: Connection }
  | {
      readonly ok: false;
      /** `needs_login`, `connect_timeout`, `command_not_found`, ...; `connection_closed` when
       * the signal ended the attempt. */
      readonly error: McpError;
      /** The server's last stderr lines (stdio), secrets blanked by its transport. */
      readonly stderrTail: string;
      /** stdio: how the server's process ended, if it ended by itself. */
      readonly exit?: McpServerExit;
    };

/** A new transport for one attempt of `parts` (not started). */
export function transportOf({
  config,
  settings,
  scrub,
  output,
}: AttemptParts): McpTransportHandle | Promise<McpTransportHandle> {
  return settings.createTransport(config, {
    logger: settings.logger,
    scrub,
    reap: settings.reap,
    headersHelper: settings.headersHelper,
    onStderrLine: (line) => output.stderr(line),
  });
}
