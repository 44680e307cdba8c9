// ToolRegistry: every tool an agent can be given, kept in named groups that are set and removed
// whole — `builtin` for a host's own tools, `mcp:<server>` for each MCP server's (the runtime keeps
// those in step with the server). It owns the names the tools are offered under (see
// tool-name-resolution.ts for how colliding names are settled) and which of them are offered one
// by one and which are found on demand, within the tool budget (see tool-deferral.ts).
import { type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import {
  diffTools,
  isEmptyDiff,
  MAX_TOOL_NAME_LENGTH,
  type McpRegistryOptions,
  type McpToolDeferral,
  type McpToolsDiff,
  MIN_TOOL_NAME_LENGTH,
} from '@epoch-agent/plugin-mcp';
import type { EpochTool } from '@epoch-agent/protocol';
import { RuntimeError } from '../errors.js';
import {
  CALL_TOOL_NAME,
  callTool,
  type DeferredTools,
  SEARCH_TOOL_NAME,
  searchTool,
} from './deferred-tools.js';
import { READ_RESULT_TOOL_NAME, RESULTS_GROUP } from './read-result.js';
import { DEFAULT_TOOL_BUDGET_TOKENS, deferredGroups } from './tool-deferral.js';
import {
  compareGroups,
  isMcpTool,
  MCP_GROUP_PREFIX,
  type ResolvedTool,
  resolveToolNames,
  type ToolNameCollision,
  type ToolNameResolution,
} from './tool-name-resolution.js';
import type { SearchableTool, ToolSearch } from './tool-search.js';
import { estimateToolTokens } from './tool-tokens.js';

/** The longest tool name is the MCP registry's (one setting names both); its logger gets throwing listeners. */
export interface ToolRegistryOptions
  extends Pick<McpRegistryOptions, 'logger' | 'toolNameMaxLength'> {
  /**
   * How many tokens of every request the offered tools' definitions may take (see
   * estimateToolTokens) before servers' tools are found on demand (`mcp_search_tools` /
   * `mcp_call_tool`) instead: the host knows its model's context. Default 20,000, about 10% of a
   * 200,000-token context. Through buildRuntime, the user's `tool_budget_tokens` in mcp.json wins.
   */
  readonly toolBudgetTokens?: number;
}

/** How a group's tools are offered; see McpToolDeferral. Default `false`: one by one. */
export interface ToolGroupOptions {
  readonly defer?: McpToolDeferral;
}

/**
 * A group's tools changed (`set`: it is new, or its tools or their `defer` differ; `removed`: it
 * is gone), or the tool budget changed; `tools()` already reflects it — which tools are deferred
 * too, so one group's change can move another's tools between offered and deferred. A group's
 * change says which of its tools were `added`, `removed` and `changed` (the same name, another
 * title, description, input schema, annotations or MCP identity), by the names the group gave them
 * (a collision may offer one under another name: see entries()). Setting a group to tools that
 * equal the ones it holds is no change: no event.
 */
export type ToolRegistryChange =
  | ({ readonly kind: 'set' | 'removed'; readonly group: string } & McpToolsDiff)
  | { readonly kind: 'budget'; readonly tokens: number };

export type ToolRegistryListener = (change: ToolRegistryChange) => void;

export class ToolRegistry {
  readonly #maxLength: number;
  readonly #namePattern: RegExp;
  readonly #logger: Logger;
  readonly #groups = new Map<string, readonly EpochTool[]>();
  readonly #deferral = new Map<string, McpToolDeferral>();
  readonly #listeners = new Set<ToolRegistryListener>();
  #budgetTokens: number;
  /**
   * The names and the deferral as last settled; undefined after a change until someone reads
   * them. Servers that connect one after another set their groups one by one: settling every name
   * after each would cost the square of the tools.
   */
  #settled: Settled | undefined;
  /** The two tools that stand for the deferred ones: the same objects as long as this lives. */
  readonly #searchTools: readonly EpochTool[];

  constructor(options: ToolRegistryOptions = {}) {
    const maxLength = options.toolNameMaxLength ?? MAX_TOOL_NAME_LENGTH;
    if (
      !Number.isInteger(maxLength) ||
      maxLength < MIN_TOOL_NAME_LENGTH ||
      maxLength > MAX_TOOL_NAME_LENGTH
    ) {
      throw new RangeError(
        `toolNameMaxLength must be an integer from ${MIN_TOOL_NAME_LENGTH} to ${MAX_TOOL_NAME_LENGTH}, got ${maxLength}`,
      );
    }
    this.#maxLength = maxLength;
    this.#namePattern = new RegExp(`^[a-zA-Z0-9_-]{1,${maxLength}}$`);
    this.#logger = options.logger ?? silentLogger;
    this.#budgetTokens = checkedBudget(options.toolBudgetTokens ?? DEFAULT_TOOL_BUDGET_TOKENS);
    const current = () => this.#names().deferred;
    this.#searchTools = [searchTool(current), callTool(current)];
  }

  /** The tool budget now (ToolRegistryOptions.toolBudgetTokens). */
  get toolBudgetTokens(): number {
    return this.#budgetTokens;
  }

  /** Sets the tool budget (a `budget` change event when it differs). */
  setToolBudget(tokens: number): void {
    const budget = checkedBudget(tokens);
    if (budget === this.#budgetTokens) return;
    this.#budgetTokens = budget;
    this.#changed({ kind: 'budget', tokens: budget });
  }

  /**
   * Sets group `group` to exactly `tools`, replacing what it held; a change event says how they
   * differ, and none comes when they do not (the objects are replaced all the same). Throws
   * `invalid_tool_name` (and changes nothing) for a tool whose name a provider would refuse.
   */
  setGroup(group: string, tools: readonly EpochTool[], options: ToolGroupOptions = {}): void {
    for (const tool of tools) {
      if (
        !group.startsWith(MCP_GROUP_PREFIX) &&
        group !== RESULTS_GROUP &&
        RESERVED.has(tool.name)
      ) {
        throw new RuntimeError(
          'invalid_tool_name',
          `Tool "${tool.name}" of group "${group}" cannot be registered: the runtime offers a tool of that name itself, to find and call MCP tools on demand. Rename the tool.`,
          { group, tool: tool.name },
        );
      }
      if (!this.#namePattern.test(tool.name)) {
        throw new RuntimeError(
          'invalid_tool_name',
          `Tool "${tool.name}" of group "${group}" cannot be registered: model providers accept only ` +
            `names matching ^[a-zA-Z0-9_-]{1,${this.#maxLength}}$. Rename the tool.`,
          { group, tool: tool.name },
        );
      }
    }
    const before = this.#groups.get(group);
    const defer = options.defer ?? false;
    const deferChanged = this.#deferral.get(group) !== defer;
    this.#groups.set(group, [...tools]);
    this.#deferral.set(group, defer);
    // New objects, whatever the event: names are settled on the objects tools() hands out.
    this.#settled = undefined;
    const diff = diffTools(before ?? [], tools);
    if (before !== undefined && !deferChanged && isEmptyDiff(diff)) return;
    this.#changed({ group, kind: 'set', ...diff });
  }

  /** Removes a group and all its tools; a group that is not there is a no-op (and no event). */
  removeGroup(group: string): void {
    const before = this.#groups.get(group);
    if (before === undefined) return;
    this.#groups.delete(group);
    this.#deferral.delete(group);
    this.#changed({ group, kind: 'removed', ...diffTools(before, []) });
  }

  /** The groups, in the order that decides collisions: host groups, then `mcp:` groups, by name. */
  groups(): string[] {
    return [...this.#groups.keys()].sort(compareGroups);
  }

  /**
   * What to hand the agent loop: every tool offered one by one, under the name it is offered as,
   * in group order; then, when some are deferred, `mcp_search_tools` and `mcp_call_tool`, which
   * find and run those. A snapshot.
   */
  tools(): EpochTool[] {
    return [...this.#names().offered];
  }

  /** Every registered tool, deferred ones too, with its group and the name it is called by. */
  entries(): ResolvedTool[] {
    return [...this.#names().resolution.tools];
  }

  /** The tools found on demand instead of offered, with their groups and names. */
  deferred(): ResolvedTool[] {
    return [...this.#names().deferredEntries];
  }

  /** The tool offered under `name` (mcp_search_tools and mcp_call_tool too). */
  get(name: string): EpochTool | undefined {
    return this.#names().offered.find((tool) => tool.name === name);
  }

  /** Every collision the current names settled, as diagnostics that name both sides. */
  collisions(): ToolNameCollision[] {
    return [...this.#names().resolution.collisions];
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  onChange(listener: ToolRegistryListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #names(): Settled {
    if (this.#settled === undefined) {
      const resolution = resolveToolNames(this.#groups, this.#maxLength);
      const named = resolution.tools.map(({ tool, name }) =>
        name === tool.name ? tool : renamed(tool, name),
      );
      const tokens = new Map<string, number>();
      resolution.tools.forEach(({ group, tool }) => {
        tokens.set(group, (tokens.get(group) ?? 0) + tokensOf(tool));
      });
      const deferredSet = deferredGroups(
        [...tokens].map(([group, cost]) => ({
          group,
          defer: this.#deferral.get(group) ?? false,
          tokens: cost,
        })),
        this.#budgetTokens,
        this.#searchTools.reduce((sum, tool) => sum + tokensOf(tool), 0),
      );
      const isDeferred = (index: number) => deferredSet.has(resolution.tools[index]?.group ?? '');
      const offered = named.filter((_, index) => !isDeferred(index));
      const deferredTools = named.filter((_, index) => isDeferred(index));
      const byName = new Map(deferredTools.map((tool) => [tool.name, tool]));
      const offeredNames = new Set(offered.map(({ name }) => name));
      let search: Promise<ToolSearch> | undefined;
      this.#settled = {
        resolution,
        offered: deferredTools.length === 0 ? offered : [...offered, ...this.#searchTools],
        deferredEntries: resolution.tools.filter((_, index) => isDeferred(index)),
        deferred: {
          // The index is built at the first search, and the search library loaded then: a process
          // that never searches (most never defer anything) never pays for either.
          search: async (query, options) => {
            search ??= import('./tool-search.js').then(
              ({ ToolSearch }) =>
                new ToolSearch(
                  deferredTools.map(
                    (tool): SearchableTool => ({
                      tool,
                      server: isMcpTool(tool) ? tool.server : '',
                    }),
                  ),
                ),
            );
            return (await search).search(query, options);
          },
          get: (name) => byName.get(name),
          isOffered: (name) => offeredNames.has(name),
        },
      };
    }
    return this.#settled;
  }

  #changed(change: ToolRegistryChange): void {
    this.#settled = undefined;
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.#logger.error(
          `A tool registry listener threw: ${messageOf(error)}`,
          change.kind === 'budget' ? {} : { group: change.group },
        );
      }
    }
  }
}

interface Settled {
  readonly resolution: ToolNameResolution;
  readonly offered: EpochTool[];
  readonly deferredEntries: readonly ResolvedTool[];
  readonly deferred: DeferredTools;
}

const RESERVED = new Set([SEARCH_TOOL_NAME, CALL_TOOL_NAME, READ_RESULT_TOOL_NAME]);

// A tool's estimate is asked for at every change of any group: worked out once per tool object
// (a server's tools are made once per list it gives).
const estimates = new WeakMap<EpochTool, number>();

function tokensOf(tool: EpochTool): number {
  let tokens = estimates.get(tool);
  if (tokens === undefined) {
    tokens = estimateToolTokens(tool);
    estimates.set(tool, tokens);
  }
  return tokens;
}

function checkedBudget(tokens: number): number {
  if (!Number.isSafeInteger(tokens) || tokens < 0) {
    throw new RangeError(
      `toolBudgetTokens must be a whole number of tokens, 0 or more, got ${tokens}`,
    );
  }
  return tokens;
}

// The same tool under another name. Its fields are read from the original (a class instance's
// getters included) and calls go to it, so nothing but the name differs.
function renamed(tool: EpochTool, name: string): EpochTool {
  return {
    ...tool,
    name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
    ...(tool.delegate === undefined ? {} : { delegate: (args) => tool.delegate?.(args) }),
    execute: (args, ctx) => tool.execute(args, ctx),
  };
}
