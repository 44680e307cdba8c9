// @epoch-agent/protocol: the contracts every epoch package speaks. Types only, no runtime code.

/** JSON Schema as it travels to a model provider; kept open because providers accept any draft. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * Hints a tool gives the permission system. Their meaning is MCP's (`ToolAnnotations` in the MCP
 * spec): hints, never guarantees, and absent means "unknown", not false.
 */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What the agent loop hands every tool call. */
export interface ToolContext {
  /** Aborted when the user stops the turn; a tool must stop its work and tell whoever does it. */
  readonly signal: AbortSignal;
  /**
   * Called with each progress report the tool's work sends while the call runs (MCP's
   * `notifications/progress`); a report also keeps a long call alive past its request timeout.
   */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** One progress report of a running tool call. */
export interface ToolProgress {
  /** How far it is; grows with every report. */
  readonly progress: number;
  /** What `progress` counts up to, when the tool knows. */
  readonly total?: number;
  /** What it is doing now, in the tool's words. */
  readonly message?: string;
}

/**
 * MCP's annotations of a content block: who it is for and how much it matters. `audience` decides
 * where a block goes (see ToolResult.forUser); `priority` (0 to 1, 1 the most important) and
 * `lastModified` (an ISO 8601 time) are kept for the host, which may order or age what it shows.
 */
export interface ToolContentAnnotations {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

export type ToolContent = (
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string }
  | {
      readonly type: 'resource';
      readonly resource: {
        readonly uri: string;
        readonly mimeType?: string;
        readonly text?: string;
        readonly blob?: string;
      };
    }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly mimeType?: string;
      readonly description?: string;
    }
) & { readonly annotations?: ToolContentAnnotations };

export interface ToolResult {
  /**
   * What the model gets: one copy of the result (an MCP tool's text or its structured content,
   * never both), without the blocks meant for the user only.
   */
  readonly content: readonly ToolContent[];
  /**
   * Machine-readable result, when the tool declares an output schema: for the host's code. The
   * model already has it in `content` when it matters, so a host never sends both.
   */
  readonly structuredContent?: { readonly [key: string]: unknown };
  /**
   * The blocks the tool meant for the user and not the model (an `audience` without
   * "assistant"): for the host to show, never to send to a model. Absent when there are none.
   */
  readonly forUser?: readonly ToolContent[];
  /** The tool ran and reports failure; the model reads `content` to learn why. */
  readonly isError?: boolean;
}

/**
 * Who configured an MCP tool's server: the embedding host, an installed plugin, the project the
 * agent runs in (its `.epoch/mcp.json`), or the user.
 */
export type McpToolSource = 'host' | 'plugin' | 'project' | 'user';

export interface EpochTool {
  /** The name sent to the model provider: must match `^[a-zA-Z0-9_-]{1,128}$`. */
  readonly name: string;
  /**
   * An MCP tool's: who configured its server, set by the assembly and never read from a file or a
   * server. A permission rule keys on this and `server`, not on the name's prefix. Absent on a
   * host's own tools.
   */
  readonly source?: McpToolSource;
  /** An MCP tool's: its server's name (`<namespace>__<server>` for a host's). */
  readonly server?: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations: ToolAnnotations;
  /**
   * An MCP tool's: whether its annotations (and title) may be believed — its server is the host's,
   * or this definition is the one a person approved (pinned). A permission rule must not relax for
   * a tool whose annotations are untrusted. Absent on a host's own tools.
   */
  readonly annotationsTrusted?: boolean;
  /**
   * Only for a tool that runs another one in its place (the runtime's `mcp_call_tool`, which runs
   * a tool the model found by searching): the tool a call with these arguments runs, so that a
   * permission system judges that tool — its name, title and annotations — and never this one.
   * Undefined when the arguments name no tool: then the call runs nothing and answers with an
   * error.
   */
  delegate?(args: { readonly [key: string]: unknown }): EpochTool | undefined;
  execute(args: { readonly [key: string]: unknown }, ctx: ToolContext): Promise<ToolResult>;
}
