// What a host names when it uses McpRegistry: the options it is made with, its two events and
// their listeners, a prompt with the server that offers it, and the store its tool pins are kept in.

import type { Prompt } from '@modelcontextprotocol/client';
import type { McpSchemaCache } from '../cache.js';
import type { McpConnectionOptions } from '../connection/options.js';
import type { McpToolDefinition } from '../tools/definition.js';
import type { McpToolsDiff } from '../tools/diff.js';
import type {
  McpApprovalReason,
  McpServerSource,
  McpServerStatus,
  McpWithheldTool,
} from '../types.js';

/** The servers of a connectAll that wait for approval instead of starting, and why, by name. */
export type McpApprovalHolds = ReadonlyMap<string, McpApprovalReason>;

/** Every client's McpConnectionOptions, and what the registry itself needs. */
export interface McpRegistryOptions extends McpConnectionOptions {
  /** Longest tool name the model provider accepts. Default 128 (MAX_TOOL_NAME_LENGTH). */
  readonly toolNameMaxLength?: number;
  /**
   * Where tool lists are remembered between runs. Default: a cache under `$EPOCH_HOME` (see
   * McpSchemaCache), logging to `logger`. `null`: no cache, so connectAll waits for every server
   * — what a diagnostic that must see real connections (`epoch mcp status`) wants.
   */
  readonly schemaCache?: McpSchemaCache | null;
  /**
   * false: a cached tool list is never offered, so connectAll waits for every server and starts
   * those started on demand too (a diagnostic that must see real connections: `epoch mcp status`),
   * while the cache still gives each connect the protocol era its server was met with, so a
   * server that ignores the era probe does not cost its timeout again. Default true.
   */
  readonly offerCachedTools?: boolean;
  /**
   * The most tokens one tool result may put into the model's context, for a server whose entry
   * sets no `max_output_tokens`. Default 25,000. A longer result is cut, and kept whole under
   * `$EPOCH_HOME/tool-results`.
   */
  readonly maxOutputTokens?: number;
  /**
   * Where each server's tool definitions are pinned (README, "Pinned tools"): a server's first
   * live list is pinned, and a later tool that is new or differs from its pin is withheld until
   * approveTools. Absent: nothing is pinned or withheld, and only a host's servers' annotations
   * are trusted.
   */
  readonly toolPins?: McpToolPinStore;
  /**
   * The tool a host offers the model to read the rest of a cut result with (the runtime's
   * `mcp_read_result`, over McpRegistry.savedResults): each cut note then names it and the
   * result's id. Absent: the note says which file holds the whole result, for the host.
   */
  readonly resultReader?: string;
}

/** Called with a server's new status whenever its state changes. */
export type McpStatusListener = (status: McpServerStatus) => void;

/**
 * A server's tools are no longer the ones `tools()` offered for it before: `tools()` already
 * returns the new ones, and the schema cache holds them.
 *
 * The registry does not swap the tools of an agent that is already running: an agent loop takes
 * its tool set as a constructor argument and cannot change it in flight. The host decides what to
 * do — tell the user, rebuild the agent with `tools()` at the next turn, or restart.
 */
export interface McpToolsChangedEvent extends McpToolsDiff {
  readonly server: string;
  readonly source: McpServerSource;
  /**
   * `connect`: the list the server gave when it (re)connected differs from the one offered before
   * (the cached one, the one from before `reconnect()`, or the old config's before
   * `reconfigure()`).
   * `list_changed`: the server sent notifications/tools/list_changed and was asked again.
   * `choice`: the user turned the server or some of its tools on or off (update), or held it for
   * approval or released it (hold, release).
   * `approval`: a person approved withheld tools (approveTools).
   */
  readonly reason: 'connect' | 'list_changed' | 'choice' | 'approval';
  /**
   * The server's tools withheld now (all of them, not only this change's): new, or changed since
   * approved. An event is sent when the offered tools differ or the withheld ones do.
   */
  readonly withheld: readonly McpWithheldTool[];
}

export type McpToolsChangedListener = (event: McpToolsChangedEvent) => void;

/** A prompt and the server that offers it. */
export interface McpServerPrompt {
  readonly server: string;
  /**
   * `mcp__<server>__<prompt>`, made by the rules of tool names (tools/names.ts): the name a host
   * shows it under (a slash command), never the same for two prompts of one server. `getPrompt`
   * takes the server and `prompt.name`, the server's own name for it.
   */
  readonly name: string;
  readonly prompt: Prompt;
}

/** The server a store's pins are of. */
export interface McpPinnedServer {
  readonly source: McpServerSource;
  readonly name: string;
  /** launchKey(config) of the form it runs in now. */
  readonly launch: string;
}

export interface McpPinnedTool {
  readonly hash: string;
  readonly definition: McpToolDefinition;
}

/** By the server's own tool name. */
export type McpPinnedTools = ReadonlyMap<string, McpPinnedTool>;

/** Where a registry keeps its pins (the runtime's: one 0600 file per server beside approvals.json). */
export interface McpToolPinStore {
  /**
   * The server's pins. undefined: none in this launch (never pinned, or pinned under another launch):
   * its next live list is pinned. An unreadable or corrupt file is an EMPTY map (every tool withheld
   * until approved: the safe side), never undefined.
   */
  read(server: McpPinnedServer): Promise<McpPinnedTools | undefined>;
  /** Replaces the server's pins (with its launch). Rejects when it cannot be written. */
  write(server: McpPinnedServer, tools: McpPinnedTools): Promise<void>;
}
