// ToolRegistry: every tool an agent can be given, kept in named groups that are set and removed
// whole — `builtin` for a host's own tools, `mcp:<server>` for each MCP server's (the runtime keeps
// those in step with the server). It owns the names the tools are offered under; see
// tool-name-resolution.ts for how colliding names are settled.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import { MAX_TOOL_NAME_LENGTH, MIN_TOOL_NAME_LENGTH } from '@epoch-agent/plugin-mcp';
import type { EpochTool } from '@epoch-agent/protocol';
import { RuntimeError } from './errors.js';
import {
  compareGroups,
  type ResolvedTool,
  resolveToolNames,
  type ToolNameCollision,
  type ToolNameResolution,
} from './tool-name-resolution.js';

export interface ToolRegistryOptions {
  /** Longest tool name the model provider accepts. Default 128; 64 for providers that allow 64. */
  readonly toolNameMaxLength?: number;
  /** Where a throwing change listener is reported. Default: silentLogger. */
  readonly logger?: Logger;
}

/** A group was set (added or replaced) or removed; `tools()` already reflects it. */
export interface ToolRegistryChange {
  readonly group: string;
  readonly kind: 'set' | 'removed';
}

export type ToolRegistryListener = (change: ToolRegistryChange) => void;

export class ToolRegistry {
  readonly #maxLength: number;
  readonly #namePattern: RegExp;
  readonly #logger: Logger;
  readonly #groups = new Map<string, readonly EpochTool[]>();
  readonly #listeners = new Set<ToolRegistryListener>();
  /**
   * The names as last settled; undefined after a change until someone reads them. Servers that
   * connect one after another set their groups one by one: settling every name after each would
   * cost the square of the tools.
   */
  #settled: { readonly resolution: ToolNameResolution; readonly offered: EpochTool[] } | undefined;

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
  }

  /**
   * Sets group `group` to exactly `tools`, replacing what it held. Throws `invalid_tool_name` (and
   * changes nothing) for a tool whose name a provider would refuse.
   */
  setGroup(group: string, tools: readonly EpochTool[]): void {
    for (const tool of tools) {
      if (!this.#namePattern.test(tool.name)) {
        throw new RuntimeError(
          'invalid_tool_name',
          `Tool "${tool.name}" of group "${group}" cannot be registered: model providers accept only ` +
            `names matching ^[a-zA-Z0-9_-]{1,${this.#maxLength}}$. Rename the tool.`,
          { group, tool: tool.name },
        );
      }
    }
    this.#groups.set(group, [...tools]);
    this.#changed({ group, kind: 'set' });
  }

  /** Removes a group and all its tools; a group that is not there is a no-op (and no event). */
  removeGroup(group: string): void {
    if (!this.#groups.delete(group)) return;
    this.#changed({ group, kind: 'removed' });
  }

  /** The groups, in the order that decides collisions: host groups, then `mcp:` groups, by name. */
  groups(): string[] {
    return [...this.#groups.keys()].sort(compareGroups);
  }

  /** Every tool under the name it is offered as, in group order. A snapshot. */
  tools(): EpochTool[] {
    return [...this.#names().offered];
  }

  /** Every tool with its group and the name it is offered as. */
  entries(): ResolvedTool[] {
    return [...this.#names().resolution.tools];
  }

  /** The tool offered under `name`. */
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

  #names(): { readonly resolution: ToolNameResolution; readonly offered: EpochTool[] } {
    if (this.#settled === undefined) {
      const resolution = resolveToolNames(this.#groups, this.#maxLength);
      const offered = resolution.tools.map(({ tool, name }) =>
        name === tool.name ? tool : renamed(tool, name),
      );
      this.#settled = { resolution, offered };
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
          `A tool registry listener threw: ${error instanceof Error ? error.message : String(error)}`,
          { group: change.group },
        );
      }
    }
  }
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
    execute: (args, ctx) => tool.execute(args, ctx),
  };
}
