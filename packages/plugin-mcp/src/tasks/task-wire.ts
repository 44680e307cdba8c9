// A task on the wire, in both revisions: what a server answers a call with when it makes a task
// (2025-11-25: `{ task: {...} }`; 2026-07-28, the `io.modelcontextprotocol/tasks` extension: the
// task's fields at the top with `resultType: "task"`), what tasks/get answers, read into one shape.
// Written by hand, as tools/result.ts is: no schema library on the call path.
import { groupedNumber } from '@epoch-agent/infra';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { checkToolCallResult, type ToolCallResult } from '../tools/result.js';

/** The extension a 2026-07-28 server declares (and a request carries) for tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** One look at a task: what tasks/get (or the call that made it) said. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** How often the server asks to be polled (2025: `pollInterval`, 2026: `pollIntervalMs`). */
  readonly pollIntervalMs?: number;
  /** 2026: the result, inlined once `completed`. */
  readonly result?: ToolCallResult;
  /** 2026: the JSON-RPC error of a `failed` task. */
  readonly error?: { readonly code: number; readonly message: string };
  /** 2026: what an `input_required` task asks, by the server's keys. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /**
   * How long after its creation the server keeps the task (2025: `ttl`, 2026: `ttlMs`); null: for
   * as long as it likes. Absent when the server did not say.
   */
  readonly ttlMs?: number | null;
}

/**
 * The longest task id taken. An id is a server's opaque handle, which a server without state may
 * pack a signed token into; yet it goes into a record, every message that names the task and each
 * request that follows it (a header of a 2026 request): a megabyte of it is no handle.
 */
const TASK_ID_MAX_CHARS = 1024;

/**
 * C0 and C1 controls: no handle needs one, and a front end shows a message's line feeds (its own
 * messages span lines), so one in an id would start a line of the server's making.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a server's `taskId` is not one taken; undefined when it is. */
function taskIdIssue(taskId: string): string | undefined {
  if (taskId.length > TASK_ID_MAX_CHARS) {
    return `taskId: ${groupedNumber(taskId.length)} characters; a task id may have ${groupedNumber(TASK_ID_MAX_CHARS)} at most`;
  }
  const control = CONTROL.exec(taskId)?.[0];
  if (control === undefined) return undefined;
  const code = control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `taskId: holds control characters (U+${code}); a task id may hold none`;
}

/** A task as a server sent it (flat, with either revision's names), or why it is not one. */
export function readTask(value: unknown): TaskState | { readonly issue: string } {
  if (typeof value !== 'object' || value === null) return { issue: 'a task must be an object' };
  const task = value as Record<string, unknown>;
  const { taskId, status, statusMessage } = task;
  if (typeof taskId !== 'string' || taskId === '') return { issue: 'taskId: must be a string' };
  const idIssue = taskIdIssue(taskId);
  if (idIssue !== undefined) return { issue: idIssue };
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    return { issue: `status: ${JSON.stringify(status)} is not a task status` };
  }
  const poll = task.pollIntervalMs ?? task.pollInterval;
  const state: { -readonly [K in keyof TaskState]: TaskState[K] } = {
    taskId,
    status: status as TaskStatus,
  };
  if (typeof statusMessage === 'string') state.statusMessage = statusMessage;
  // A 0 is an interval named (as fast as it may), held at the floor like any other: not 'none'.
  if (typeof poll === 'number' && Number.isFinite(poll) && poll >= 0) state.pollIntervalMs = poll;
  const ttl = 'ttlMs' in task ? task.ttlMs : task.ttl;
  if (ttl === null || (typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 0)) {
    state.ttlMs = ttl;
  }
  if (task.result !== undefined) {
    const checked = checkToolCallResult(task.result);
    if ('issue' in checked) return { issue: `result: ${checked.issue}` };
    // The inlined result's own discriminator is the envelope's, not the tool's.
    const { resultType: _, ...result } = checked.value as ToolCallResult & { resultType?: unknown };
    state.result = result;
  }
  const error = task.error as { code?: unknown; message?: unknown } | undefined;
  if (typeof error === 'object' && error !== null) {
    state.error = {
      code: typeof error.code === 'number' ? error.code : -32603,
      message: typeof error.message === 'string' ? error.message : 'no message',
    };
  }
  const asked = task.inputRequests;
  if (typeof asked === 'object' && asked !== null && !Array.isArray(asked)) {
    state.inputRequests = asked as Record<string, unknown>;
  }
  return state;
}

/** A tools/call answer: the result, or (the server made a task) the task. */
export type CallAnswer =
  | { readonly kind: 'result'; readonly result: ToolCallResult }
  | { readonly kind: 'task'; readonly task: TaskState };

/**
 * A 2025-11-25 tools/call answer as a Standard Schema, for the SDK's `request()`: a
 * CreateTaskResult (`{ task }`) or a tool result.
 */
export const callOrTaskSchema: StandardSchemaV1<unknown, CallAnswer> = {
  '~standard': {
    version: 1,
    vendor: 'epoch-agent',
    validate(value) {
      const created = (value as { task?: unknown } | null)?.task;
      if (created !== undefined) {
        const task = readTask(created);
        return 'issue' in task
          ? { issues: [{ message: `task.${task.issue}` }] }
          : { value: { kind: 'task', task } };
      }
      const checked = checkToolCallResult(value);
      return 'value' in checked
        ? { value: { kind: 'result', result: checked.value } }
        : { issues: [{ message: checked.issue }] };
    },
  },
};

/** tasks/get's answer (both revisions: the task's fields at the top). */
export const taskSchema: StandardSchemaV1<unknown, TaskState> = {
  '~standard': {
    version: 1,
    vendor: 'epoch-agent',
    validate(value) {
      const task = readTask(value);
      return 'issue' in task ? { issues: [{ message: task.issue }] } : { value: task };
    },
  },
};

/**
 * tasks/cancel's answer: 2025-11-25, the task as the cancel left it; 2026-07-28, an empty ack
 * (undefined: the task's state is for tasks/get to say).
 */
export const cancelSchema: StandardSchemaV1<unknown, TaskState | undefined> = {
  '~standard': {
    version: 1,
    vendor: 'epoch-agent',
    validate(value) {
      if ((value as { taskId?: unknown } | null)?.taskId === undefined) return { value: undefined };
      const task = readTask(value);
      return 'issue' in task ? { issues: [{ message: task.issue }] } : { value: task };
    },
  },
};

/** An answer whose content does not matter (tasks/update: an empty ack). */
export const ackSchema: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'epoch-agent', validate: (value) => ({ value }) },
};
