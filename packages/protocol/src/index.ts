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

// ---------------------------------------------------------------------------------------------
// A server's question for the person (MCP elicitation). The rules these types carry are the
// README's "Servers that ask you": a question goes to a person, never to the model and never
// answered by a program on the person's behalf; it names the server that asks and the request it
// belongs to every time; a secret field's value is never echoed, logged, stored or shown to the
// model; a URL is opened only after an explicit yes.
// ---------------------------------------------------------------------------------------------

/**
 * Asks the person a server's question and resolves with what they answered. Given by the host (or
 * the front end: a terminal, the page) when someone can be asked; absent, nobody is asked, the
 * client does not declare that it can ask, and a server that asks anyway is answered `cancel`.
 * `signal` is aborted when the question no longer matters (the request it belongs to ended, the
 * question's time limit passed): stop asking and resolve or reject, either is ignored then.
 */
export type Elicit = (
  question: ElicitationQuestion,
  signal: AbortSignal,
) => Promise<ElicitationAnswer>;

/** One question, in one of MCP's two modes: a flat form to fill in, or a page to visit. */
export type ElicitationQuestion = ElicitationForm | ElicitationUrl;

interface ElicitationCommon {
  /** The server that asks: its name as configured, and who configured it. */
  readonly server: string;
  readonly source: McpToolSource;
  /**
   * The request the question belongs to. Undefined when the server asked outside any request, or
   * (a 2025-era server, whose question carries no link to a request) while several of its requests
   * were running: then `running` says how many.
   */
  readonly during: ElicitationDuring | undefined;
  readonly running?: number;
  /** The server's words, as it sent them but for control, bidi and invisible characters. */
  readonly message: string;
}

/** Fill in these fields. */
export interface ElicitationForm extends ElicitationCommon {
  readonly mode: 'form';
  readonly fields: readonly ElicitationField[];
}

/**
 * Visit this page (a sign-in, a payment, anything the client must not see). Only https, or http
 * to a loopback address; the client opens nothing itself and sends nothing with it: the person
 * is shown `origin` whole and says yes (`accept`) before a front end opens `url`.
 */
export interface ElicitationUrl extends ElicitationCommon {
  readonly mode: 'url';
  readonly url: string;
  /** The URL's scheme, host and port, as a person must read it before saying yes. */
  readonly origin: string;
}

/** The request a question belongs to, as far as the client can tell. */
export interface ElicitationDuring {
  /** What the request does: a tool call, a resource read or a prompt get. */
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool's or prompt's name on the server, or the resource's URI. */
  readonly name: string;
  /**
   * A tool call's ToolContext: the very object the host passed to `execute`, so a host that runs
   * several sessions can tell whose call asks. Absent for a request that was not a tool call.
   */
  readonly context?: ToolContext;
  /**
   * Over a 2025-era connection a server's question carries no link to a request: true when the
   * client found it by elimination (this was the server's only request in flight). A 2026-era
   * question comes inside its request's answer, so there it is always false.
   */
  readonly inferred: boolean;
}

/** One field of a form: a flat value, as MCP allows in an elicitation (no objects, no nesting). */
export type ElicitationField =
  | ElicitationTextField
  | ElicitationNumberField
  | ElicitationBooleanField
  | ElicitationChoiceField
  | ElicitationChoicesField;

interface ElicitationFieldCommon {
  /** The key the answer goes under. */
  readonly name: string;
  /** What to call it (the schema's title, else the key). */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface ElicitationTextField extends ElicitationFieldCommon {
  readonly kind: 'text';
  /**
   * A password, token, key or other secret (by its format, or its name, label or description):
   * typed masked, never echoed, logged, stored or shown to the model.
   */
  readonly secret: boolean;
  readonly format?: 'email' | 'uri' | 'date' | 'date-time';
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Never set on a secret field: a secret is never shown, a default one included. */
  readonly default?: string;
}

export interface ElicitationNumberField extends ElicitationFieldCommon {
  readonly kind: 'number';
  readonly integer: boolean;
  /** A PIN, a one-time code (by its name or label): typed masked, as a text secret is. */
  readonly secret: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  /** Never set on a secret field. */
  readonly default?: number;
}

export interface ElicitationBooleanField extends ElicitationFieldCommon {
  readonly kind: 'boolean';
  readonly default?: boolean;
}

/** One of a list (`value` is sent, `label` is shown). */
export interface ElicitationChoiceField extends ElicitationFieldCommon {
  readonly kind: 'choice';
  readonly options: readonly ElicitationOption[];
  readonly default?: string;
}

/** Any of a list. */
export interface ElicitationChoicesField extends ElicitationFieldCommon {
  readonly kind: 'choices';
  readonly options: readonly ElicitationOption[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: readonly string[];
}

export interface ElicitationOption {
  readonly value: string;
  readonly label: string;
}

/** A value a form's field takes. */
export type ElicitationValue = string | number | boolean | readonly string[];

/**
 * What the person said.
 * - `accept`: they filled the form in (`content`: the fields given; an omitted optional field gets
 *   its default) or agreed to visit the URL (no content).
 * - `decline`: they said no. Also what a server whose setting is `"elicitation": "decline"` gets:
 *   the user said no in advance.
 * - `cancel`: nobody answered: they dismissed it or stopped the call, its time limit passed, or
 *   there was nobody to ask.
 */
export type ElicitationAnswer =
  | {
      readonly action: 'accept';
      readonly content?: { readonly [name: string]: ElicitationValue };
    }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };
