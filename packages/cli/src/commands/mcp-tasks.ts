// `epoch mcp tasks`: the tasks this machine's epoch processes started (tools that run as tasks),
// from their records in $EPOCH_HOME/tasks: `list` (the default) reads the records and starts
// nothing; `show <id>` starts that task's server and follows the task to its result (progress
// drawn as `call` draws it; Ctrl-C stops following and cancels the task on the server, as a call's
// does); `cancel <id>` sends tasks/cancel, unless its server says the task has already ended.
// `<id>` is the task's id, or any unique start of it. A record the listing cannot remove is said on
// stderr, and the others are listed.
import { processRuns, silentLogger, terminalJson } from '@epoch-agent/infra';
import { isMcpError, type Logger, type McpTaskRecord, readTaskRecords } from '@epoch-agent/runtime';
import { fail, type Invocation, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { startToolProgress } from '../progress.js';
import { withAdvice } from '../render/advice.js';
import { shownError, shownLine } from '../render/server-text.js';
import { renderTable } from '../render/table.js';
import { renderToolResult } from '../render/tool-result.js';
import { withRuntime } from '../session.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { notRunning } from './server-status.js';
import { settled } from './settle.js';

const WORDS = 'mcp tasks';
/** The least of a task id a table shows: short enough to type; more when another id starts the same. */
const ID_SHOWN = 12;

/** `epoch mcp tasks`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [action = 'list', id, ...rest] = invocation.operands;
  if (rest.length > 0) throw new UsageError(`unexpected "${rest.join(' ')}"`);
  const records = await readTaskRecords({ logger: warnings(io) });
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`unexpected "${id}": "list" takes no task`);
    io.out(invocation.json ? `${terminalJson(records, 2)}\n` : listed(records));
    return EXIT.ok;
  }
  if (action !== 'show' && action !== 'cancel') {
    throw new UsageError(`unknown action "${action}": it is list, show <id> or cancel <id>`);
  }
  if (id === undefined) throw new UsageError(`missing <id>: "${action}" takes a task's id`);
  const record = recordOf(records, id);
  const failure = (exit: Parameters<typeof fail>[2], code: string, message: string) =>
    fail(io, invocation, exit, { code, message, server: record.server, tool: record.tool }, WORDS);
  return withRuntime(io, invocation, { connectOnly: [record.server] }, async (runtime) => {
    const configured = findServer(
      runtime.servers(),
      runtime.diagnostics(),
      record.server,
      runtime.configFile,
    );
    const [status] = await settled(runtime, [record.server]);
    io.signal.throwIfAborted();
    const down = exitOfState(status?.state ?? 'disconnected');
    if (status === undefined || down !== EXIT.ok) {
      const message = notRunning(record.server, status, configured);
      const state = status?.state ?? 'disconnected';
      return failure(down === EXIT.ok ? EXIT.unreachable : down, state, message);
    }
    const progress = startToolProgress(io, action === 'show' && !invocation.json);
    try {
      if (action === 'cancel') {
        // A task that had already ended, or that its server no longer knows, is an error (below).
        const { status } = await runtime.mcp.cancelTask(record.server, record.taskId, io.signal);
        const said = { server: record.server, taskId: record.taskId, status };
        // The id and the tool are the server's words: escaped, so they cannot set the terminal.
        const task = `task ${shownLine(record.taskId)} of ${record.server} (tool ${shownLine(record.tool)})`;
        io.out(
          invocation.json
            ? `${terminalJson(said, 2)}\n`
            : status === 'cancelled'
              ? `Cancelled ${task}.\n`
              : `Sent tasks/cancel for ${task}: its server says it is still ${status}; "epoch mcp tasks" shows when it ends.\n`,
        );
        return EXIT.ok;
      }
      const result = await runtime.mcp.taskResult(record, io.signal, (report) =>
        progress.onProgress(runtime.mcp.shownProgress(record.server, report)),
      );
      progress.stop();
      const shown = runtime.mcp.shownResult(record.server, result);
      io.out(invocation.json ? `${terminalJson(shown, 2)}\n` : renderToolResult(shown));
      if (result.isError !== true) return EXIT.ok;
      return failure(
        EXIT.failed,
        'tool_error',
        `task ${shownLine(record.taskId)} of tool "${shownLine(record.tool)}" of MCP server "${record.server}" reported an error.`,
      );
    } catch (error) {
      if (!isMcpError(error)) throw error;
      return failure(
        exitOfError(error.code),
        error.code,
        withAdvice(error.code, error.message, configured),
      );
    } finally {
      progress.stop();
    }
  });
}

/** What the listing warns of (a record past its time it could not remove), on stderr. */
function warnings(io: CliIo): Logger {
  const warn = (message: string) => io.err(`epoch ${WORDS}: warning: ${shownError(message)}\n`);
  return { ...silentLogger, warn };
}

/** The one record whose task id is `id` or starts with it; else a usage error naming them. */
function recordOf(records: readonly McpTaskRecord[], id: string): McpTaskRecord {
  const exact = records.find(({ taskId }) => taskId === id);
  if (exact !== undefined) return exact;
  const started = records.filter(({ taskId }) => taskId.startsWith(id));
  const [only] = started;
  if (started.length === 1 && only !== undefined) return only;
  if (started.length > 1) {
    throw new UsageError(
      `"${id}" starts ${started.length} tasks' ids (${started.map(({ taskId }) => shownLine(taskId)).join(', ')}): give more of it.`,
    );
  }
  throw new UsageError(
    `no task "${id}" is recorded (${records.length === 0 ? 'none is' : `"epoch mcp tasks" lists ${records.length}`}).`,
  );
}

/**
 * `id` cut where it is told apart from every other of `ids` (at least ID_SHOWN characters): servers
 * number their tasks with one long common start, and rows that look the same cannot be typed.
 */
function shownId(id: string, ids: readonly string[]): string {
  let shown = ID_SHOWN;
  for (const other of ids) {
    if (other === id) continue;
    let same = 0;
    while (same < id.length && id[same] === other[same]) same += 1;
    shown = Math.max(shown, same + 1);
  }
  return id.length > shown ? `${id.slice(0, shown)}…` : id;
}

function listed(records: readonly McpTaskRecord[]): string {
  if (records.length === 0) return 'No tasks recorded: a tool that runs as a task records one.\n';
  const ids = records.map(({ taskId }) => taskId);
  const rows = records.map((record) => [
    shownId(record.taskId, ids),
    record.server,
    record.tool,
    record.status,
    record.startedAt,
    `${record.pid}${processRuns(record.pid) ? '' : ' (gone)'}`,
  ]);
  return renderTable(['ID', 'SERVER', 'TOOL', 'STATUS', 'STARTED', 'PID'], rows);
}
