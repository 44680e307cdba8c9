// The JSON the connectors page and its HTTP API exchange: what GET /api/mcp and the event stream
// send, what POST /api/mcp, the on/off switches (PUT …/enabled), the entry editor (…/entry) and
// an approval (…/approve, …/revoke), the tools withheld (…/tool-changes, …/approve-tools) take and
// answer, and every error body. Types only, imported by the page as well, so the two sides cannot
// drift apart. Nothing in here carries an env or header value: statuses are free of secrets, and
// every config-derived value comes redacted. A server's question and its answer: question-types.ts.
import type {
  ChoiceChange,
  ClientName,
  ClientScope,
  JsonSchema,
  McpDefinitionLine,
  McpEpochTool,
  McpLaunch,
  McpServerOrigin,
  McpServerSource,
  McpServerStatus,
  McpShownTool,
  McpTransportKind,
  McpWithheldTool,
  RuntimeDiagnostic,
  ServerField,
  ToolParameter,
  ToolProgress,
  ToolResult,
} from '@epoch-agent/runtime';
import type { QuestionFieldProblem, QuestionView } from './question-types.js';

/**
 * One entry per source. A mapped type over McpServerSource, so a source added there without a
 * group here fails to compile: a UI that filters servers by group silently shows nothing for a
 * source it has no group for.
 */
export type McpGroups<T> = { readonly [S in McpServerSource]: T };

/** GET /api/mcp, and each `mcp` event of GET /api/events. */
export interface McpView {
  /** The user's mcp.json: the file "add server" writes and "remove" edits. */
  readonly file: string;
  /** The source of the runtime's SERVER_NAME_PATTERN: the page checks names as the server does. */
  readonly namePattern: string;
  readonly groups: McpGroups<readonly ServerView[]>;
  /** What loading the servers found, each with its file, field path and line:column. */
  readonly diagnostics: readonly RuntimeDiagnostic[];
  /**
   * Of `diagnostics`, each file nothing could be read from (it does not parse, or cannot be
   * opened): the servers shown from it are those last loaded, which are what runs.
   */
  readonly unreadable: readonly RuntimeDiagnostic[];
  /** Entries a file writes that were not loaded, each with why: shown as cards of their own. */
  readonly notLoaded: McpGroups<readonly NotLoadedView[]>;
  /** Of `diagnostics`, those about no one server (each server's are its `problems`). */
  readonly fileProblems: readonly RuntimeDiagnostic[];
  /** How much of every request the offered tools' definitions may take (tool_budget_tokens). */
  readonly toolBudgetTokens: number;
  /**
   * About how many tokens of tool definitions every request carries now: every tool offered one by
   * one, with mcp_search_tools and mcp_call_tool when some are found on demand.
   */
  readonly offeredTokens: number;
  /** The servers' questions waiting for a person, oldest first (README "Servers that ask you"). */
  readonly questions: readonly QuestionView[];
}

export interface ServerView {
  readonly name: string;
  readonly origin: McpServerOrigin;
  /** Where its entry is written; absent for a host server, which no file holds. */
  readonly at?: { readonly file: string; readonly line: number; readonly column: number };
  readonly target: ServerTarget;
  /** Its status in this process; absent when this process does not start it. */
  readonly status?: McpServerStatus;
  /** Every field as it takes effect (written, defaulted or inferred), values redacted. */
  readonly fields: readonly ServerField[];
  /** The tools the model is given from it, under the names it is given them. */
  readonly tools: readonly ToolView[];
  /**
   * Its tools the user turned off (include_tools / exclude_tools), under the names they would be
   * given: listed so they can be turned back on. Known while the server offers tools; empty when
   * it is disabled, failed or not connected.
   */
  readonly toolsOff: readonly ToolView[];
  /**
   * About how many tokens its tool list adds to every request to the model: its `tools` offered one
   * by one, not those found on demand.
   */
  readonly contextTokens: number;
  /** About how many tokens its tools found on demand would add if they were offered one by one. */
  readonly contextTokensOnDemand: number;
  /** About how many tokens `toolsOff` would add if they were turned back on. */
  readonly contextTokensOff: number;
  /** A login the page started that is not over, or the way the last one failed. */
  readonly login?: LoginView;
  /** What loading found about its entry (or its `overrides` entry): on its card. */
  readonly problems: readonly RuntimeDiagnostic[];
}

/** An entry of a file that was not loaded: named as written, with where and why. */
export interface NotLoadedView {
  /** Its key in the file. */
  readonly name: string;
  readonly source: McpServerSource;
  /** Where the first of its problems is. */
  readonly at: { readonly file: string; readonly line: number; readonly column: number };
  /** Why it was not loaded (an error among them), and any warning about it. */
  readonly problems: readonly RuntimeDiagnostic[];
}

/** What a server runs or reaches, as written, secrets redacted. */
export type ServerTarget =
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly transport: Exclude<McpTransportKind, 'stdio'>; readonly url: string };

export interface ToolView {
  /** The name the model is given (`mcp__<server>__<tool>`, as the tool registry resolved it). */
  readonly name: string;
  /** Its name on the server (`list_resources` / `read_resource` for the resource pair). */
  readonly serverName: string;
  readonly title?: string;
  readonly description: string;
  readonly annotations: McpEpochTool['annotations'];
  readonly parameters: readonly ParameterView[];
  /**
   * The model finds it on demand (mcp_search_tools) instead of being offered it in every request:
   * the offered tools are over the tool budget.
   */
  readonly onDemand: boolean;
  /** About how many tokens its definition (name, description, input schema) costs. */
  readonly contextTokens: number;
  /** It runs as a task (a 2025-11-25 tool whose taskSupport is `required`): a long call, followed. */
  readonly task: boolean;
}

/**
 * A parameter as the runtime reads it: its type as a person reads it (`string`, `number[]`,
 * `"a" | "b"`, `object`), and for one defined by `$ref` the refs followed, or what is wrong with them.
 */
export type ParameterView = ToolParameter;

export type LoginView =
  /** Waiting for the browser; `authorizationUrl` is where the current round wants it. */
  | { readonly state: 'pending'; readonly authorizationUrl?: string }
  | { readonly state: 'failed'; readonly message: string };

/** POST /api/mcp: the "add server" form. */
export interface AddServerRequest {
  readonly name: string;
  readonly transport: McpTransportKind;
  /** stdio: the program. */
  readonly command?: string;
  /** stdio: its arguments. */
  readonly args?: readonly string[];
  /** sse / http: the server's URL. */
  readonly url?: string;
  /** stdio: environment variables of its process. Values go into the file and nowhere else. */
  readonly env?: Readonly<Record<string, string>>;
}

export type AddServerField = keyof AddServerRequest;

/** 201 from POST /api/mcp. */
export interface AddServerResponse {
  /** The file written. */
  readonly file: string;
  /** The new server's status as the file is applied: `connecting`; the live view tells the rest. */
  readonly status?: McpServerStatus;
  /** Fields of this server the form cannot set, to be written by hand in `file`. */
  readonly setByHand: readonly string[];
}

/**
 * PUT /api/mcp/:name/enabled (the server) and PUT /api/mcp/:name/tools/:tool/enabled (one of its
 * tools, by its name on the server): turn it on or off in the user's mcp.json.
 */
export interface ChoiceRequest {
  readonly enabled: boolean;
  /**
   * Whether the page showed it on when the switch was used. A user server's entry already as asked
   * yet not as shown changed since (by hand, or on another page): 409 `changed_since`, nothing
   * written.
   */
  readonly shown?: boolean;
}

/** 200 from either PUT …/enabled: what was written where, and the server as it is now. */
export interface ChoiceSet {
  /** The file edited: the user's mcp.json, for a plugin's or host's server too (`overrides`). */
  readonly file: string;
  /** The 1-based line of the first change (of the choice already so, when nothing changed). */
  readonly line: number;
  /** What was changed, or found already so, each with its line. */
  readonly changes: readonly ChoiceChange[];
  /** Whether the file was written; false when the choice was already so. */
  readonly changed: boolean;
  /**
   * The server after the change was applied: stopped, or started (`connecting`: the live view
   * tells the rest), its tools gone or back.
   */
  readonly server: ServerView;
}

/**
 * POST /api/mcp/:name/approve: the launch the page showed (the status's `launch`), so what is
 * approved is what the person saw: a launch changed since is refused (409 `launch_changed`).
 */
export interface ApproveRequest {
  readonly launch: McpLaunch;
}

/** 200 from POST /api/mcp/:name/approve: the server's status after it was started. */
export interface ApprovedAnswer {
  readonly status: McpServerStatus;
}

/** 200 from POST /api/mcp/:name/revoke: its approvals removed. */
export interface RevokedAnswer {
  /** Its status after it: `needsApproval` when it needs an approval to run. */
  readonly status?: McpServerStatus;
  /**
   * False when it needs none and runs on: the host's servers, and the entries of the user's file
   * that were there when `epoch web` started (the user's own).
   */
  readonly needsApproval: boolean;
}

/**
 * GET /api/mcp/:name/tool-changes: the server's tools withheld now, because their definitions
 * changed or they are new since its tools were approved (README "Pinned tools").
 */
export interface ToolChanges {
  readonly server: string;
  readonly withheld: readonly WithheldToolView[];
}

export interface WithheldToolView {
  /** Its name on the server. */
  readonly name: string;
  /** `new`: never approved; `changed`: its definition is not the approved one. */
  readonly reason: McpWithheldTool['reason'];
  /** Names this definition (McpWithheldTool.hash): what ApproveToolsRequest gives back for it. */
  readonly hash: string;
  /** The approved definition and this one as indented JSON, line by line (all added when new). */
  readonly lines: readonly McpDefinitionLine[];
}

/**
 * POST /api/mcp/:name/approve-tools: `tools`, each a tool shown (its name and hash as GET
 * …/tool-changes gave them), approves those in the definitions shown: one the server changed again
 * since is refused (409 `tools_changed`) and nothing is approved. Absent: every withheld tool as
 * it is now (a script's call).
 */
export interface ApproveToolsRequest {
  readonly tools?: readonly McpShownTool[];
}

/** 200 from POST …/approve-tools: the server's status, the tools approved offered. */
export interface ToolsApproved {
  readonly status: McpServerStatus;
}

/** 200 from POST /api/mcp/:name/login. */
export interface LoginStarted {
  /**
   * Where the page sends the browser; the login comes back to the page when it is done. Absent
   * when the login ended without needing the browser.
   */
  readonly authorizationUrl?: string;
}

/**
 * GET /api/mcp/:name/tools/:tool/schema: one tool's schemas whole, as its server sent them (the
 * live view carries only its parameters: full schemas on every change would cost every page).
 */
export interface ToolSchemas {
  readonly inputSchema: JsonSchema;
  /** Absent when the tool declares none. */
  readonly outputSchema?: JsonSchema;
}

/** POST /api/mcp/:name/tools/:tool/call: the page's "Try". */
export interface ToolCallRequest {
  /** One JSON object; absent is `{}`. */
  readonly arguments?: { readonly [key: string]: unknown };
  /** The page's own id for this call, which a question asked during it carries (QuestionView.call). */
  readonly call?: string;
}

/**
 * 200 from POST …/call: the result as the model is given it (held to the server's
 * max_output_tokens). A result with `isError` is a 200 too: the tool ran and reported a failure.
 */
export interface ToolCallAnswer {
  readonly result: ToolResult;
}

/**
 * POST …/call asked with `Accept: application/x-ndjson`: 200 and one JSON object per line while the
 * call runs — a `progress` line with the server's latest report, a few times a second at most and
 * only when it changed, then one `result` or `error` (what
 * would have been the status and the body of a refusal, had the answer not begun yet).
 */
export type ToolCallLine =
  | { readonly progress: ToolProgress }
  | ToolCallAnswer
  | ({ readonly status: number } & ApiErrorBody);

/**
 * GET /api/mcp/:name/entry: a user server's entry as written in the file, for the editor and "copy".
 * Its secrets (env and header values, credential arguments, URL tokens, comments about them) are
 * placeholders such as `"<secret: env.API_KEY>"`; one sent back unchanged keeps the file's value.
 */
export interface ServerEntry {
  readonly file: string;
  /** The 1-based line of the entry's key. */
  readonly line: number;
  /** The entry's object as written (comments, aliases, order), secrets as placeholders. */
  readonly text: string;
  /** How many secrets are placeholders in `text`. */
  readonly hidden: number;
  /** `{"<name>": {…}}` as plain JSON, secrets as placeholders: what "copy" puts on the clipboard. */
  readonly json: string;
  /**
   * The version of the entry as written now (it tells nothing of its secrets): the `basedOn` of a
   * PUT of the entry and of DELETE /api/mcp/:name.
   */
  readonly version: string;
}

/** PUT /api/mcp/:name/entry: the entry's text as `ServerEntry.text` gave it, edited. */
export interface ServerEntryRequest {
  readonly text: string;
  /**
   * The `version` of the ServerEntry that was edited: refused with 409 `changed_since` (nothing
   * written) when the entry in the file is not that text any more.
   */
  readonly basedOn: string;
}

/** 200 from PUT /api/mcp/:name/entry. */
export interface ServerEntryWritten {
  readonly file: string;
  /** Whether the file was written; false when the entry came back as it was. */
  readonly changed: boolean;
  /** The server after the file was applied: reconnecting when its config changed. */
  readonly server: ServerView;
}

/**
 * POST /api/mcp/json: a server added from pasted JSON — an entry as `epoch mcp add-json` takes it,
 * or one server wrapped as `{"<name>": {…}}` or `{"mcpServers": {"<name>": {…}}}`. `name`, when
 * given, wins over the JSON's; left empty, the JSON's is used. Answered as POST /api/mcp
 * (AddServerResponse).
 */
export interface PasteAddRequest {
  readonly name: string;
  readonly json: string;
}

/** Every 4xx and 5xx answer of the API. */
export interface ApiErrorBody {
  readonly error: {
    /** Decide on this, never on `message`. */
    readonly code: string;
    /** For a person: names the server, file or field, and what to do. */
    readonly message: string;
    /** POST /api/mcp: what is wrong with each field of the form (`json`: POST /api/mcp/json). */
    readonly fields?: Partial<Record<AddServerField | 'json', string>>;
    /** POST …/questions/:id: what is wrong with each field of the answer (never its value). */
    readonly fieldProblems?: readonly QuestionFieldProblem[];
    /** Where the file is wrong, when that is why. */
    readonly diagnostics?: readonly {
      readonly file: string;
      readonly path: string;
      readonly line: number;
      readonly column: number;
      readonly message: string;
    }[];
  };
}

/** One server of another client's file, as "Import from…" shows it: never a value of env or headers. */
export interface ImportServerView {
  /** Says which server POST /api/import means (with its client's file and scope). */
  readonly original: string;
  /** The name it gets in the user's file (a new one when its own is taken). */
  readonly name: string;
  /**
   * `new`: its name is free; `taken`: `clashWith` has it, so it is imported as `name`; `imported`:
   * `sameAs` runs exactly this already (the same launch key), so it is not offered again under
   * another name; `refused`: it would not load (`message` says why) and cannot be imported.
   */
  readonly state: 'new' | 'taken' | 'imported' | 'refused';
  readonly clashWith?: string;
  readonly sameAs?: string;
  readonly message?: string;
  /** What did not map, or was written differently. */
  readonly notes: readonly string[];
  /** The keys of its env and headers; their values are hidden. */
  readonly env: readonly string[];
  readonly headers: readonly string[];
  /** Its entry as it would be written, each secret a placeholder. */
  readonly entry: string;
  /** What it would run, as the approval dialog shows it; absent when it would not load. */
  readonly launch?: McpLaunch;
}

/** One file of one client. */
export interface ImportFileView {
  readonly client: ClientName;
  /** As a person names the client: `Claude Desktop`. */
  readonly label: string;
  readonly path: string;
  readonly scope: ClientScope;
  /** Why nothing could be read from it (it does not parse). */
  readonly problem?: string;
  readonly servers: readonly ImportServerView[];
}

/** GET /api/import: what the other clients on this machine have. */
export interface ImportView {
  /** The user's mcp.json, which the import writes. */
  readonly file: string;
  readonly files: readonly ImportFileView[];
}

/** One server chosen in POST /api/import: its file, scope and name in that file. */
export interface ImportChoice {
  readonly client: ClientName;
  readonly path: string;
  readonly scope: ClientScope;
  readonly original: string;
}

/** POST /api/import. */
export interface ImportRequest {
  readonly servers: readonly ImportChoice[];
}

/** The answer of POST /api/import: what became of each chosen server. */
export interface ImportDone {
  readonly file: string;
  readonly servers: readonly {
    readonly original: string;
    readonly name: string;
    readonly label: string;
    readonly added: boolean;
    /** Why it was not added. */
    readonly message?: string;
  }[];
}
