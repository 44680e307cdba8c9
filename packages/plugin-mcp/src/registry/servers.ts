// What every part of the registry shares: its servers (one Entry each, in the order they were
// added), the settings it was made with, and its listeners. One small owner, so that a server's
// life, what it offers, its status and the requests to it can each be a module of their own.

import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import { McpSchemaCache, type McpServerSchema } from '../cache.js';
import { DEFAULT_MAX_OUTPUT_TOKENS, MAX_OUTPUT_TOKENS_LIMIT } from '../config/output-tokens.js';
import type { McpClient } from '../connection/client.js';
import { type ConnectionSettings, connectionSettings } from '../connection/options.js';
import type { ServerOutput } from '../connection/server-output.js';
import { McpError } from '../errors/mcp-error.js';
import { Listeners } from '../listeners.js';
import type { McpEpochTool } from '../tools/epoch-tools.js';
import { MAX_TOOL_NAME_LENGTH } from '../tools/names.js';
import { defaultToolResultsDir } from '../tools/result-files.js';
import { McpSavedResults } from '../tools/saved-results.js';
import type {
  McpApprovalReason,
  McpServerConfig,
  McpServerSource,
  McpServerStatus,
  McpWithheldTool,
} from '../types.js';
import type {
  McpPinnedTools,
  McpRegistryOptions,
  McpToolPinStore,
  McpToolsChangedEvent,
} from './types.js';

/** A server's schema and its tools, made once per schema and choice. */
export interface Offer {
  /** The config it was made for: a reconfigured server offers its old one until it answers. */
  readonly config: McpServerConfig;
  readonly schema: McpServerSchema;
  /** Every tool of the schema, named over all of them: turning one off renames no other. */
  readonly tools: readonly McpEpochTool[];
  /** The ones the server's choice offers the model, none of them withheld. */
  readonly offered: readonly McpEpochTool[];
  /** The schema's tools that are not the definitions a person approved (see registry/pins.ts). */
  readonly withheld: readonly McpWithheldTool[];
}

export interface Entry {
  /** Replaced by update() only, with the same connection. */
  config: McpServerConfig;
  readonly source: McpServerSource;
  /**
   * Set while the server waits for a person's approval (see McpRegistry.hold): it has no client
   * then, whether enabled or not, and its tools are not offered, not even from the cache.
   */
  held: McpApprovalReason | undefined;
  /**
   * None while the server is disabled or held: what has no client cannot start a process or a
   * socket.
   */
  client: McpClient | undefined;
  /**
   * What `tools()` offers for this server: from the cached schema until the server answers, then
   * from its live one. The base of the next tools-changed diff.
   */
  offer: Offer | undefined;
  /**
   * Its tool pins, read by each start and reconnect and replaced by an approval; undefined: none
   * in its present launch (its next live list is pinned), or the registry keeps no pins.
   */
  pins: McpPinnedTools | undefined;
  /** The client was connected at its previous state change: a new list now came by list_changed. */
  connected: boolean;
  /** The status listeners were last given for it: one that would say the same again is not sent. */
  lastStatus: McpServerStatus | undefined;
  /**
   * A reconfigure in progress: the old client closing, then the new one connecting. A request
   * waits for it, as it would for any connect, rather than meet a client not started yet.
   */
  replacing: Promise<void> | undefined;
  /** Its recent stderr lines and log messages: kept across its clients (a reconnect, a reconfigure). */
  readonly output: ServerOutput;
}

/** One registry's servers and settings, resolved once from its options. */
export class Servers {
  readonly logger: Logger;
  /** What each client is made with. */
  readonly connection: ConnectionSettings;
  readonly toolNameMaxLength: number;
  readonly cache: McpSchemaCache | undefined;
  /** See McpRegistryOptions.offerCachedTools. */
  readonly offerCached: boolean;
  /** Where tool definitions are pinned; undefined: nothing is pinned or withheld. */
  readonly pins: McpToolPinStore | undefined;
  /** Pin writes in flight: disconnectAll waits for them, as for the cache's. */
  readonly pinWrites = new Set<Promise<void>>();
  /** First lists' pins the store refused, by server and launch (registry/pins.ts). */
  readonly unwrittenPins = new Map<string, McpPinnedTools>();
  /** The approveTools calls, one after another (see registry/tool-approval.ts). */
  toolApprovals: Promise<unknown> = Promise.resolve();
  readonly maxOutputTokens: number;
  /** Read when the registry is made, like the schema cache's: EPOCH_HOME then. */
  readonly toolResultsDir = defaultToolResultsDir();
  /** The cut results this registry saved, by id: what a model may read on. */
  readonly savedResults: McpSavedResults;
  readonly entries = new Map<string, Entry>();
  readonly statusListeners: Listeners<McpServerStatus>;
  readonly toolsListeners: Listeners<McpToolsChangedEvent>;

  constructor(options: McpRegistryOptions) {
    this.connection = connectionSettings(options);
    const { logger } = this.connection;
    this.logger = logger;
    this.toolNameMaxLength = options.toolNameMaxLength ?? MAX_TOOL_NAME_LENGTH;
    const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    if (
      !Number.isSafeInteger(maxOutputTokens) ||
      maxOutputTokens < 1 ||
      maxOutputTokens > MAX_OUTPUT_TOKENS_LIMIT
    ) {
      throw new RangeError(
        `maxOutputTokens must be an integer from 1 to ${MAX_OUTPUT_TOKENS_LIMIT}, got ${maxOutputTokens}`,
      );
    }
    this.maxOutputTokens = maxOutputTokens;
    this.cache =
      options.schemaCache === null
        ? undefined
        : (options.schemaCache ?? new McpSchemaCache({ logger }));
    this.offerCached = options.offerCachedTools ?? true;
    this.pins = options.toolPins;
    this.savedResults = new McpSavedResults(
      options.resultReader === undefined ? {} : { reader: options.resultReader },
    );
    this.statusListeners = new Listeners((error, status) =>
      logger.error(`An MCP status listener threw: ${messageOf(error)}`, { server: status.name }),
    );
    this.toolsListeners = new Listeners((error, event) =>
      logger.error(`An MCP tools-changed listener threw: ${messageOf(error)}`, {
        server: event.server,
      }),
    );
  }

  /** The entry of that name; McpError `unknown_server` when none is registered. */
  named(server: string): Entry {
    const entry = this.entries.get(server);
    if (entry === undefined) throw this.unknown(server);
    return entry;
  }

  unknown(server: string): McpError {
    const known = [...this.entries.keys()].map((name) => `"${name}"`).join(', ') || 'none';
    return new McpError(
      'unknown_server',
      `No MCP server "${server}" is registered (registered: ${known}).`,
      { server },
    );
  }

  /** Why a request to a server without a client fails: it is held, or turned off. */
  notStarted(entry: Entry): McpError {
    const server = entry.config.name;
    if (entry.held === undefined || !entry.config.choice.enabled) return this.disabled(server);
    return new McpError(
      'needs_approval',
      `MCP server "${server}" waits for approval of what it would run, so it is not started.`,
      { server },
    );
  }

  disabled(server: string): McpError {
    return new McpError(
      'server_disabled',
      `MCP server "${server}" is turned off ("enabled": false), so it is not started.`,
      { server },
    );
  }
}
