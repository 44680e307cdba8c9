// The code examples of EMBEDDING.md (repo root), verbatim, one function per block: this file is
// typechecked with the tests (tsconfig.test.json), so an example that stops compiling fails the
// build. Not run: the examples start servers with npx. Keep the two in step.
import { homedir } from 'node:os';
import { delimiter, dirname } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type Anthropic from '@anthropic-ai/sdk';
import { McpRegistry } from '@epoch-agent/plugin-mcp';
import type { Elicit } from '@epoch-agent/protocol';
import {
  buildRuntime,
  definitionDiff,
  type ElicitationAnswer,
  type ElicitationQuestion,
  type EpochTool,
  findClientServers,
  formatDiagnostic,
  isRuntimeError,
  type McpDefinitionLine,
  type Runtime,
  startInBackground,
  type ToolContext,
  type ToolResult,
  watchMcpConfig,
} from '@epoch-agent/runtime';
import {
  executeTool,
  toAnthropicToolResult,
  toAnthropicTools,
} from '@epoch-agent/runtime/adapters';
import { metrics } from '@opentelemetry/api';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export async function buildingTheRuntime(myBuiltinTools: EpochTool[]) {
  const runtime = await buildRuntime({
    hostCapabilities: {
      namespace: 'acme',
      mcpServers: {
        search: { command: 'npx', args: ['-y', '@acme/search-mcp'], connectTimeout: 30 },
        docs: { transport: 'http', url: 'https://mcp.acme.example/docs' },
      },
    },
  });

  // The host's own tools are one more group next to the servers' `mcp:<server>` groups.
  runtime.tools.setGroup('builtin', myBuiltinTools);

  // Everything to hand to the agent loop, under the names the model will see:
  // mcp__acme__search__<tool>, mcp__acme__docs__<tool>, the plugins' and the user's servers' tools.
  const tools = runtime.tools.tools();

  for (const status of runtime.mcp.statuses()) {
    console.log(status.source, status.name, status.state); // e.g. "host acme__search connected"
  }
  for (const diagnostic of runtime.diagnostics()) {
    console.warn(`[${diagnostic.source}] ${formatDiagnostic(diagnostic)}`);
  }

  await runtime.close(); // on exit: every server closed, every process tree reaped
  return tools;
}

export async function badNamespace() {
  try {
    await buildRuntime({ hostCapabilities: { namespace: 'acme:tools', mcpServers: {} } });
  } catch (error) {
    if (isRuntimeError(error, 'invalid_host_namespace')) {
      console.error(error.message, error.data.namespace); // names the namespace and the pattern
    }
    throw error;
  }
}

export async function callWithPermission(
  tool: EpochTool,
  args: { readonly [key: string]: unknown },
  signal: AbortSignal,
  allowed: (judged: EpochTool) => Promise<boolean>,
) {
  // mcp_call_tool is judged as the deferred tool its arguments name; every other tool as itself.
  const judged = tool.delegate?.(args) ?? tool;
  if (!(await allowed(judged))) {
    return { content: [{ type: 'text' as const, text: `The user did not allow ${judged.name}.` }] };
  }
  return tool.execute(args, { signal });
}

export async function progress(
  tool: EpochTool,
  args: { readonly [key: string]: unknown },
  turn: AbortController,
  ui: { showProgress(tool: string, count: string, message: string | undefined): void },
) {
  const result = await tool.execute(args, {
    signal: turn.signal,
    onProgress: ({ progress, total, message }) =>
      ui.showProgress(
        tool.name,
        total === undefined ? `${progress}` : `${progress}/${total}`,
        message,
      ),
  });
  return result;
}

export async function events() {
  const runtime = await buildRuntime();
  runtime.mcp.onStatus((status) => {
    if (status.state === 'failed') console.warn(`${status.name}: ${status.error.message}`);
  });
  runtime.mcp.onToolsChanged((event) => {
    console.log(`${event.server} (${event.source}) changed its tools (${event.reason})`);
  });
  runtime.tools.onChange((change) => {
    // The agent loop's tool set is fixed for a turn: take runtime.tools.tools() at the next one.
    if (change.kind === 'budget') console.log(`tool budget now ${change.tokens} tokens`);
    else console.log(`${change.group}: +${change.added} -${change.removed} ~${change.changed}`);
  });
  for (const collision of runtime.tools.collisions()) console.warn(collision.message);
}

export async function applying() {
  const runtime = await buildRuntime();
  // ... the user edited mcp.json (by hand, or through the connectors page) ...
  const applied = await runtime.applyMcpConfig();
  console.log(
    applied.added,
    applied.removed,
    applied.reconnected,
    applied.choiceChanged,
    applied.unchanged,
  );
  for (const diagnostic of applied.diagnostics) console.warn(formatDiagnostic(diagnostic));
}

export async function choosing() {
  const runtime = await buildRuntime();
  const set = await runtime.setServerChoice('github', {
    kind: 'tools',
    tools: ['delete_repo'],
    enabled: false,
  });
  console.log(
    `${set.file}:${set.line}`,
    set.changes.map(({ text }) => text),
  ); // ['added "delete_repo" to "exclude_tools"']
  await runtime.setServerChoice('acme__search', { kind: 'server', enabled: false }); // into "overrides"
}

export async function editing() {
  const runtime = await buildRuntime();
  const added = await runtime.addServer({
    name: 'files',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    env: { LOG_LEVEL: 'warn' },
  });
  console.log(
    `added to ${added.file}; write these by hand if needed: ${added.setByHand.join(', ')}`,
  );
  console.log(runtime.mcp.statuses().find(({ name }) => name === 'files')?.state); // "connected"

  await runtime.removeServer('files'); // the file is back to its bytes before the add
}

export async function roots() {
  let workspaces = ['/home/me/project'];
  const rooted = await buildRuntime({ registry: { roots: () => workspaces } });
  // The user opened a second folder: every connected server is told (notifications/roots/list_changed),
  // and asks again.
  workspaces = [...workspaces, '/home/me/notes'];
  await rooted.mcp.notifyRootsChanged();
  await rooted.close();
}

export async function headersFromTheHost(myTokenCache: {
  get(options: { refresh: boolean; signal: AbortSignal }): Promise<string>;
}) {
  const runtime = await buildRuntime({
    registry: {
      // Asked before a remote server's first request, again after a 401 or 403, and every five
      // minutes; a server whose entry has "headers_helper" runs that command instead.
      headersHelper: async ({ server, reason, signal }) => {
        if (server !== 'acme__docs') return undefined; // no headers for the others
        const token = await myTokenCache.get({ refresh: reason === 'refused', signal });
        return { Authorization: `Bearer ${token}` };
      },
    },
  });
  await runtime.close();
}

export async function importing() {
  const runtime = await buildRuntime();
  const places = { home: homedir(), project: process.cwd(), platform: process.platform };
  const found = (await findClientServers(places)).flatMap((read) => (read.ok ? read.servers : []));
  const imported = await runtime.importServers(found, { dryRun: true }); // writes nothing
  for (const server of imported.servers)
    console.log(server.name, server.outcome.kind, server.notes);
}

export function shippedNode() {
  // The directory that holds the node (and npx) the host ships with; here the host itself runs on
  // that Node. An Electron-style host points at the node binary it bundles instead.
  const shippedNodeDir = dirname(process.execPath);
  process.env.PATH = `${shippedNodeDir}${delimiter}${process.env.PATH ?? ''}`;
}

// The request's `tools`.
export function anthropicTools(runtime: Runtime): Anthropic.Messages.ToolUnion[] {
  return toAnthropicTools(runtime.tools.tools());
}

// The next user message: a tool_result block for each tool_use of the model's answer.
export async function answerToolUses(
  runtime: Runtime,
  response: Anthropic.Messages.Message,
  signal: AbortSignal,
): Promise<Anthropic.Messages.MessageParam> {
  const results: Anthropic.Messages.ToolResultBlockParam[] = [];
  for (const block of response.content) {
    if (block.type !== 'tool_use') continue;
    const tool = runtime.tools.get(block.name);
    const args = block.input as { readonly [key: string]: unknown };
    const result =
      tool === undefined
        ? {
            content: [{ type: 'text' as const, text: `There is no tool ${block.name}.` }],
            isError: true,
          }
        : await executeTool(tool, args, { signal }); // an McpError becomes an error result
    results.push(toAnthropicToolResult(block.id, result));
  }
  return { role: 'user', content: results };
}

export function watchingMcpJson(runtime: Runtime, rebuildAgentTools: () => void) {
  // Every save of the user's mcp.json (by hand, by `epoch mcp add`, by the connectors page) is
  // applied once the editor is done writing; the agent's tools are rebuilt after it.
  const stopWatching = watchMcpConfig(runtime, {
    onApplied: (applied) => {
      for (const diagnostic of applied.diagnostics) console.warn(formatDiagnostic(diagnostic));
      rebuildAgentTools();
    },
  });
  // ... on exit: stopWatching() before runtime.close()
  return stopWatching;
}

export function messagesAHostShows(runtime: Runtime, showLoginButton: (server: string) => void) {
  runtime.mcp.onStatus((status) => {
    if (status.state === 'needsLogin') showLoginButton(status.name); // runtime.login(name, ...)
    if (status.state === 'failed' && status.error.code === 'connect_timeout') {
      console.warn(`${status.error.message} (the host's connectTimeout for it is too short?)`);
    }
  });
}

export async function prompts(runtime: Runtime) {
  for (const { server, name, prompt } of await runtime.mcp.listPrompts()) {
    console.log(`/${name}`, prompt.title ?? prompt.name); // e.g. "/mcp__everything__args-prompt"
    if (prompt.name === 'args-prompt') {
      const got = await runtime.mcp.getPrompt(server, prompt.name, { city: 'Lyon' });
      for (const message of got.messages) console.log(message.role, message.content);
    }
  }
}

// Every MCP tool carries who configured its server (`host` | `plugin` | `user`, set by the
// runtime, never read from a file or a server) and the server's name; a host's own tools carry
// neither. The fields survive a collision rename and are on the tool mcp_call_tool delegates to.
export const trusted = (tool: EpochTool): boolean => tool.source === 'host';

export async function serversThatNeedApproval(askTheUser: (question: string) => Promise<boolean>) {
  const runtime = await buildRuntime({
    // `request.launch` is what the person is shown; resolve true to approve (it is recorded, and
    // the server starts), false to leave it in `needsApproval`.
    approve: async ({ server, source, launch, reason }) => {
      const what = launch.command?.join(' ') ?? launch.url ?? '';
      const warning = launch.downloads ? ` (downloads ${launch.downloads.what})` : '';
      return askTheUser(
        `${source} server "${server}" (${reason}) runs: ${what}${warning}. Start it?`,
      );
    },
  });

  // Later, from the host's own settings screen:
  await runtime.approveServer('weather__forecast'); // recorded, then started: its status
  const { status, needsApproval } = await runtime.revokeServer('weather__forecast');
  // needsApproval: false for the host's servers and the user's entries from the start, which run on.
  return { status, needsApproval };
}

/** A host's chat window, tab or conversation: where a question is shown to its person. */
interface ChatSession {
  readonly turnSignal: AbortSignal;
  showQuestion(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer>;
}

export async function aServerAsksTheUser(
  session: ChatSession,
  focusedSession: () => ChatSession | undefined,
  tool: EpochTool,
  input: { readonly [key: string]: unknown },
) {
  // Which session (window, tab, chat) each running tool call belongs to, by the very ToolContext
  // object the host passes to `execute`: the question carries it back.
  const sessionOf = new WeakMap<ToolContext, ChatSession>();

  const runtime = await buildRuntime({
    elicit: async (question, signal) => {
      const context = question.during?.context;
      // Not a tool call (a resource read, a prompt), or a 2025 server asking while several of its
      // requests ran (`question.running`): the session the person is looking at.
      const session = context === undefined ? focusedSession() : sessionOf.get(context);
      if (session === undefined) return { action: 'cancel' }; // nobody to show it to
      // Closed when `signal` aborts: the call was stopped, the server went away, or the 10 minutes
      // a question may wait have passed. The server was answered `cancel` by then.
      return session.showQuestion(question, signal);
    },
  });

  // A tool call of one session's turn: its context remembered for the question it may bring.
  const context: ToolContext = { signal: session.turnSignal };
  sessionOf.set(context, session);
  const result = await executeTool(tool, input, context);
  return { runtime, result };
}

export async function pinnedTools(
  runtime: Runtime,
  showChange: (
    server: string,
    tool: string,
    reason: 'new' | 'changed',
    lines: McpDefinitionLine[],
  ) => void,
) {
  runtime.mcp.onToolsChanged(({ server, withheld }) => {
    for (const tool of withheld) {
      // `before` is the approved definition (absent for a new tool), `after` what the server says now.
      const lines = definitionDiff(tool.before, tool.after);
      showChange(server, tool.name, tool.reason, lines); // each line `same`, `removed` or `added`
    }
  });

  // The person said yes to what they were shown: those tools in those definitions (one the server
  // changed again since is refused, `tools_changed`), or all of its tools as they are now.
  await runtime.approveTools('weather', runtime.mcp.withheldOf('weather'));
  await runtime.approveTools('weather');

  // A permission rule must not relax for a tool whose annotations nobody vouches for.
  const mayAutoRun = (tool: EpochTool) =>
    tool.annotationsTrusted === true && tool.annotations.readOnlyHint === true;
  return mayAutoRun;
}

export function questionsOnABareRegistry() {
  // A person at this terminal answers yes/no questions; any other question is not shown here.
  const elicit: Elicit = async (question, signal) => {
    if (question.mode !== 'form' || question.fields.some((field) => field.kind !== 'boolean')) {
      return { action: 'cancel' };
    }
    const where =
      question.during === undefined ? '' : ` (${question.during.kind} ${question.during.name})`;
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const said = await terminal.question(
        `${question.server}${where} asks: ${question.message} [y/N] `,
        { signal },
      );
      if (!/^y(es)?$/i.test(said.trim())) return { action: 'decline' };
      return {
        action: 'accept',
        content: Object.fromEntries(question.fields.map((field) => [field.name, true])),
      };
    } finally {
      terminal.close();
    }
  };
  const registry = new McpRegistry({ elicit });
  return registry;
}

export async function tracing(spanExporter: SpanExporter, metricExporter: PushMetricExporter) {
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(spanExporter)] }).register();
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

  const runtime = await buildRuntime({ registry: { tracing: { outerToolSpan: true } } });
  return runtime;
}

interface BackgroundUi {
  status(tool: string, message: string): void;
  show(tool: string, result: ToolResult): void;
  failed(tool: string, message: string): void;
  onStop(stop: () => void): void;
}

export async function longCallsInTheBackground(
  runtime: Runtime,
  session: { signal: AbortSignal },
  ui: BackgroundUi,
) {
  const research = runtime.tools.tools().find(({ name }) => name === 'mcp__lab__deep_research');
  if (research !== undefined) {
    // Started at once; the agent loop goes on with its turn meanwhile.
    const call = startInBackground(
      research,
      { topic: 'tides' },
      {
        signal: session.signal, // the session's end (or the user's Stop) cancels it on the server
        onProgress: ({ message }) => ui.status(research.name, message ?? call.state),
      },
    );
    ui.onStop(() => call.cancel('the user stopped it'));
    // Later, when the agent wants it (or the UI shows it as it comes):
    call.result.then(
      (result) => ui.show(research.name, result),
      (error: unknown) => ui.failed(research.name, String(error)),
    );
  }

  // A new process of the host: the tasks an earlier one started, each fetched or cancelled.
  for (const record of await runtime.mcp.taskRecords()) {
    if (record.status === 'working') ui.status(record.tool, `task ${record.taskId} still runs`);
    if (record.status === 'completed') ui.show(record.tool, await runtime.mcp.taskResult(record));
  }
}
