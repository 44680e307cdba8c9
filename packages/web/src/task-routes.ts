// The tasks this machine's epoch processes recorded (README "Tools that run as tasks"), for the
// page's Tasks list, through the registry's own surface (taskRecords, taskResult, cancelTask):
//
//   GET  /api/tasks                      every record, oldest first (TaskList)
//   POST /api/tasks/:server/:task/result the task followed to its result: a finished one's at once
//                                        (ToolCallAnswer; as it runs with Accept: x-ndjson)
//   POST /api/tasks/:server/:task/cancel tasks/cancel (TaskCancelled: the status it left; a task
//                                        that had ended is 409 `task_ended`)
//
// Only a recorded task is followed or cancelled: the page is not a way to send a server task
// requests of its own making (404 `unknown_task`). A server that is down, unknown or refuses, or
// that no longer knows the task (410 `task_gone`: its record is removed), is the registry's
// refusal, answered by the app's error handler (or as the last line of an answer as it runs). The
// request's signal is the following's: a page that goes away stops following (a task
// is not cancelled by that: Cancel is its own action).
import { processRuns } from '@epoch-agent/infra';
import type { McpTaskRecord, Runtime } from '@epoch-agent/runtime';
import { type Context, Hono } from 'hono';
import { type ApiError, apiError, sendApiError as send } from './api-errors.js';
import type { ToolCallAnswer } from './api-types.js';
import { answerAsItRuns, asksAsItRuns } from './as-it-runs.js';
import type {
  TaskCancelled,
  TaskErrorCode,
  TaskList,
  TaskStarter,
  TaskView,
} from './task-types.js';

/** The routes, to be mounted at /api/tasks. */
export function taskRoutes(runtime: Runtime): Hono {
  const routes = new Hono();

  routes.get('/', async (c) => {
    const answer: TaskList = { tasks: (await runtime.mcp.taskRecords()).map(taskView) };
    return c.json(answer);
  });

  routes.post('/:server/:task/result', async (c) => {
    const record = await recorded(runtime, c);
    if ('body' in record) return send(c, record);
    const signal = c.req.raw.signal;
    if (asksAsItRuns(c)) {
      return answerAsItRuns(c, runtime, record.server, (onProgress) =>
        runtime.mcp.taskResult(record, signal, onProgress),
      );
    }
    const result = await runtime.mcp.taskResult(record, signal);
    const answer: ToolCallAnswer = { result: runtime.mcp.shownResult(record.server, result) };
    return c.json(answer);
  });

  routes.post('/:server/:task/cancel', async (c) => {
    const record = await recorded(runtime, c);
    if ('body' in record) return send(c, record);
    const { status } = await runtime.mcp.cancelTask(record.server, record.taskId, c.req.raw.signal);
    const answer: TaskCancelled = { status };
    return c.json(answer);
  });

  return routes;
}

/** The record the request's :server and :task name, or the refusal naming both. */
async function recorded(runtime: Runtime, c: Context): Promise<McpTaskRecord | ApiError> {
  const server = c.req.param('server') ?? '';
  const taskId = c.req.param('task') ?? '';
  const records = await runtime.mcp.taskRecords();
  const record = records.find((r) => r.server === server && r.taskId === taskId);
  if (record !== undefined) return record;
  const code: TaskErrorCode = 'unknown_task';
  return apiError(
    404,
    code,
    `No task "${taskId}" of MCP server "${server}" is recorded in $EPOCH_HOME/tasks (${records.length === 0 ? 'none is' : `${records.length} ${records.length === 1 ? 'is' : 'are'}`}): reload the list of tasks, and pick one of it.`,
  );
}

function taskView(record: McpTaskRecord): TaskView {
  const { server, tool, taskId, era, startedAt, status, updatedAt } = record;
  return { server, tool, taskId, era, startedAt, status, updatedAt, startedBy: starter(record) };
}

function starter({ pid }: McpTaskRecord): TaskStarter {
  if (pid === process.pid) return { kind: 'this' };
  return processRuns(pid) ? { kind: 'running', pid } : { kind: 'gone', pid };
}
