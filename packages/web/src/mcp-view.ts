// GET /api/mcp: every server the runtime knows, grouped by source, with its status, its tools under
// the names the model is given (those found on demand marked) and those the user turned off, what
// they cost in context, where its entry is written and what loading found about it; the entries
// not loaded and the files not read; the diagnostics of loading them; and the
// tool budget with what every request carries now; and the servers' questions waiting for a person. Config-derived values come from the
// runtime's serverFields, which redacts them; statuses are free of secrets by contract.
import {
  type ConfiguredServer,
  estimateToolTokens,
  type McpEpochTool,
  type McpServerStatus,
  mcpGroup,
  type ResolvedTool,
  type Runtime,
  type RuntimeDiagnostic,
  SERVER_NAME_PATTERN,
  type ServerField,
  serverFields,
} from '@epoch-agent/runtime';
import type { McpGroups, McpView, ServerTarget, ServerView, ToolView } from './api-types.js';
import { type DiagnosticPlaces, placeDiagnostics } from './diagnostic-places.js';
import type { PageLogins } from './page-logins.js';
import type { PendingQuestions } from './questions.js';
import { toolView } from './tool-view.js';

export function mcpView(
  runtime: Runtime,
  logins: PageLogins,
  questions: PendingQuestions,
): McpView {
  const known = knownNow(runtime);
  const groups: McpGroups<ServerView[]> = { user: [], project: [], host: [], plugin: [] };
  for (const server of runtime.servers()) {
    groups[server.origin.source].push(viewOf(runtime, logins, server, known));
  }
  return {
    file: runtime.configFile,
    namePattern: SERVER_NAME_PATTERN.source,
    groups,
    diagnostics: known.diagnostics,
    unreadable: known.places.unreadable,
    notLoaded: known.places.notLoaded,
    fileProblems: known.places.fileLevel,
    toolBudgetTokens: runtime.tools.toolBudgetTokens,
    offeredTokens: runtime.tools.tools().reduce((sum, tool) => sum + estimateToolTokens(tool), 0),
    questions: questions.views(),
  };
}

/** One server as GET /api/mcp shows it; undefined when the runtime has no server of that name. */
export function serverView(
  runtime: Runtime,
  logins: PageLogins,
  name: string,
): ServerView | undefined {
  const server = runtime.server(name);
  return server === undefined ? undefined : viewOf(runtime, logins, server, knownNow(runtime));
}

/** What every server's view reads, taken once per view: with thousands of servers, not per server. */
interface KnownNow {
  readonly statuses: ReadonlyMap<string, McpServerStatus>;
  readonly entries: readonly ResolvedTool[];
  /** The names of the tools found on demand. */
  readonly deferred: ReadonlySet<string>;
  readonly diagnostics: readonly RuntimeDiagnostic[];
  /** Where each of `diagnostics` is shown. */
  readonly places: DiagnosticPlaces;
}

function knownNow(runtime: Runtime): KnownNow {
  const diagnostics = runtime.diagnostics();
  return {
    statuses: new Map(runtime.mcp.statuses().map((status) => [status.name, status])),
    entries: runtime.tools.entries(),
    deferred: new Set(runtime.tools.deferred().map(({ name }) => name)),
    diagnostics,
    places: placeDiagnostics(runtime.servers(), diagnostics, runtime.configFile),
  };
}

function viewOf(
  runtime: Runtime,
  logins: PageLogins,
  server: ConfiguredServer,
  { statuses, entries, deferred, places }: KnownNow,
): ServerView {
  const { name } = server.config;
  const written = serverFields(server, runtime.configFile);
  const { at } = written;
  // The command line through the server's own redaction policy too, which blanks a secret of its
  // (an env value, a key learned at start) wherever it appears: the card never shows in an
  // argument what the server's stderr shows as <redacted>.
  const shown = (text: string) => runtime.mcp.shownText(name, text);
  const fields = written.fields.map((field) => shownField(field, shown));
  const group = mcpGroup(name);
  // The runtime keeps exactly this server's McpEpochTools in its `mcp:<server>` group.
  const tools = entries
    .filter((entry) => entry.group === group)
    .map((entry) => toolView(entry.name, entry.tool as McpEpochTool, deferred.has(entry.name)));
  // Never in the tool registry, so under the name the plugin made for them.
  const toolsOff = runtime.mcp.toolsOffOf(name).map((tool) => toolView(tool.name, tool, false));
  const status = statuses.get(name);
  const login = logins.view(name);
  return {
    name,
    origin: server.origin,
    ...(at === undefined ? {} : { at }),
    target: target(server, fields),
    ...(status === undefined ? {} : { status }),
    fields,
    tools,
    toolsOff,
    contextTokens: tokensOf(tools.filter(({ onDemand }) => !onDemand)),
    contextTokensOnDemand: tokensOf(tools.filter(({ onDemand }) => onDemand)),
    contextTokensOff: tokensOf(toolsOff),
    ...(login === undefined ? {} : { login }),
    problems: places.byServer.get(name) ?? [],
  };
}

function tokensOf(tools: readonly ToolView[]): number {
  return tools.reduce((sum, tool) => sum + tool.contextTokens, 0);
}

/** `field` with its command line's words through `shown` (the others are redacted already). */
function shownField(field: ServerField, shown: (text: string) => string): ServerField {
  if (field.field === 'command' && typeof field.value === 'string') {
    return { ...field, value: shown(field.value) };
  }
  if (field.field === 'args' && Array.isArray(field.value)) {
    return {
      ...field,
      value: field.value.map((arg) => (typeof arg === 'string' ? shown(arg) : arg)),
    };
  }
  return field;
}

/** The command and its arguments, or the URL: the redacted values serverFields gives. */
function target({ config }: ConfiguredServer, fields: readonly ServerField[]): ServerTarget {
  const value = (field: string) => fields.find((f) => f.field === field)?.value;
  if (config.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: String(value('command')),
      args: (value('args') as readonly string[] | undefined) ?? [],
    };
  }
  return { transport: config.transport, url: String(value('url')) };
}
