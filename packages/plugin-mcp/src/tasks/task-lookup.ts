// What a server says of one of its tasks asked for again by its id (the record of an earlier call):
// its state, or that it no longer knows it (`task_gone`: past the task's retention, or the server
// restarted); and a cancel that says what the server did. Both revisions refuse an id they do not
// know with -32602. 2025-11-25 answers tasks/cancel with the task as the cancel left it, and
// refuses one that has already ended with -32602 too; 2026-07-28 acknowledges any known task with
// an empty answer, ended or not. So the task is looked at first (one that has ended is not sent a
// cancel: it is `ended`), and after an empty acknowledgement it is looked at again.
import {
  ProtocolError,
  ProtocolErrorCode,
  type RequestOptions,
} from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { TaskCalls } from './task-run.js';
import { isTerminal, type TaskState } from './task-wire.js';

/** What tasks/cancel came to. */
export interface TaskCancel {
  /** The task as its server says the cancel left it (or, `ended`, found it). */
  readonly task: TaskState;
  /** It had completed or failed (or was cancelled already) before the cancel: nothing was cancelled. */
  readonly ended: boolean;
}

/** Which server's task, for the words of `task_gone`. */
export interface TaskOf {
  readonly server: string;
  readonly taskId: string;
}

/** tasks/get of a task found again by its id; `task_gone` when its server does not know it. */
export async function lookedUp(
  calls: Pick<TaskCalls, 'get'>,
  task: TaskOf,
  options: RequestOptions,
): Promise<TaskState> {
  try {
    return await calls.get(task.taskId, options);
  } catch (error) {
    throw unknownId(error) ? gone(task, error) : error;
  }
}

/** tasks/cancel of a task found again by its id, and what its server says came of it. */
export async function cancelled(
  calls: Pick<TaskCalls, 'get' | 'cancel'>,
  task: TaskOf,
  options: RequestOptions,
): Promise<TaskCancel> {
  const before = await lookedUp(calls, task, options);
  if (isTerminal(before.status)) return { task: before, ended: true };
  let answer: TaskState | undefined;
  try {
    answer = await calls.cancel(task.taskId, options);
  } catch (error) {
    if (!unknownId(error)) throw error;
    // 2025-11-25: it ended between the look and the cancel (or its server dropped it since).
    const now = await lookedUp(calls, task, options);
    if (isTerminal(now.status)) return { task: now, ended: true };
    throw error;
  }
  const after = answer ?? (await lookedUp(calls, task, options));
  // Ended on its own before the cancel took: the server's word is that it completed or failed.
  return { task: after, ended: after.status === 'completed' || after.status === 'failed' };
}

function unknownId(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams;
}

function gone({ server, taskId }: TaskOf, error: ProtocolError): McpError {
  return new McpError(
    'task_gone',
    `MCP server "${server}" no longer knows task "${taskId}": it answered tasks/get with error ${error.code} (the task is past the time its server keeps it, or the server restarted since it made it).`,
    { server, cause: error },
  );
}
