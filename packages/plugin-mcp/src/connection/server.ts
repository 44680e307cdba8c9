// What the parts of one McpClient (its face, its life, its request path) share: one small object
// the client makes, through which each reads and changes the server, rather than one class's
// private fields.
import type { McpServerSchema } from '../cache.js';
import type { Scrubber } from '../secrets.js';
import type { McpElicitationSetting, McpServerConfig } from '../types.js';
import type { ConnectionSettings } from './options.js';
import type { SerialQueue } from './serial-queue.js';
import type { ConnectionSlot } from './slot.js';
import type { ServerState } from './state.js';

export interface Server {
  readonly config: McpServerConfig;
  /** Resolved once; its logger passes the server's redaction policy. */
  readonly settings: ConnectionSettings;
  /** The server's redaction policy: its config's secrets and every one learned since. */
  readonly scrub: Scrubber;
  /** Its state, changed there only. */
  readonly state: ServerState;
  /** Its connections: the live one, an attempt at the next, old ones draining. */
  readonly slot: ConnectionSlot;
  /** Its calls, one at a time unless the config says `supports_parallel`. */
  readonly queue: SerialQueue;
  /**
   * Where the next connect starts: the schema cache's entry for this config, then what each
   * connection learned (its era verdict, and its tool list while the server says it stays fresh).
   */
  remembered: McpServerSchema | undefined;
  /**
   * Whether its questions go to a person: its setting, or its source's default. Not part of a
   * connection: an edit of it takes effect at the next question (McpClient.useElicitation).
   */
  elicitation: McpElicitationSetting;
}
