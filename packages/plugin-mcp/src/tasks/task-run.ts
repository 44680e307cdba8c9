// One task's life on the client, from the answer that made it to its result: looked at when
// task-schedule.ts says (polled with tasks/get at the server's interval, or moved on at once by a
// status the server pushes: task-notes.ts), each new status or status message reported as progress
// (so the call's `timeout`, a time without a sign of life, starts again, and a person sees it), a
// question it asks put to the person (2026: its `inputRequests`, answered by tasks/update; 2025:
// tasks/result, whose stream carries the server's elicitation/create to the connection's handler),
// the result fetched (2026: inlined in tasks/get; 2025: tasks/result). On a server that takes one
// call at a time the call gives up its turn once the task is made, and each request that follows
// takes a turn of its own. When the call's signal aborts (the caller, `timeout`,
// `max_total_timeout`) the server is sent tasks/cancel, and only then does the call reject, as a
// stopped request does.
import {
  type Progress,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { type Clock, realClock } from '../connection/clock.js';
import type { QueueTurn } from '../connection/serial-queue.js';
import type { ToolCallResult } from '../tools/result.js';
import type { TaskNoteListener } from './task-notes.js';
import { type NextLook, TaskSchedule } from './task-schedule.js';
import { isTerminal, type TaskState } from './task-wire.js';

/** How long tasks/cancel is waited for once the call is stopped. */
export const CANCEL_WAIT_MS = 5_000;

/** The task requests of one connection, in its revision's words. */
export interface TaskCalls {
  get(taskId: string, options: RequestOptions): Promise<TaskState>;
  /** 2025-11-25 only: tasks/result (the result once the task is done; questions ride its stream). */
  readonly payload?: (taskId: string, options: RequestOptions) => Promise<ToolCallResult>;
  /**
   * 2026-07-28 only: puts an input_required task's questions to the person, then tasks/update
   * (sent by `inTurn`).
   */
  readonly answer?: (
    task: TaskState,
    unanswered: readonly string[],
    inTurn: InTurn,
  ) => Promise<void>;
  /** tasks/cancel: 2025-11-25 answers with the task as it left it, 2026-07-28 with nothing. */
  cancel(taskId: string, options: RequestOptions): Promise<TaskState | undefined>;
  /** The status the server pushes of the task, until the function given back is called. */
  readonly watch?: (taskId: string, listener: TaskNoteListener) => () => void;
}

/** Sends one request of a task's following in a turn of its own, when the server takes turns. */
export type InTurn = <T>(send: () => Promise<T>) => Promise<T>;

/** What a call following a task is told besides its result. */
export interface TaskWatch {
  /** The server answered: the call's SignOfLife starts again. */
  readonly alive: () => void;
  /** Each look at the task (the records in $EPOCH_HOME keep its status). */
  readonly seen?: (task: TaskState) => void;
  /**
   * The call's turn in its server's queue (a server that takes one call at a time): given up once
   * the task is made; each request that follows takes a turn of its own.
   */
  readonly turn?: QueueTurn | undefined;
  /**
   * Stops the call's `timeout` (while a request waits for its turn, or for a pushed status); the
   * function given back restarts it.
   */
  readonly pause?: () => () => void;
  /** What the schedule runs on. Default: the real clock. */
  readonly clock?: Clock;
}

/**
 * Follows `created` to its end. `options` are the call's: its signal (the caller's with the call's
 * limits), its timeout and its progress handler.
 */
export async function followTask(
  created: TaskState,
  calls: TaskCalls,
  options: RequestOptions,
  { alive, seen, turn, pause, clock = realClock }: TaskWatch,
): Promise<ToolCallResult> {
  const { signal } = options;
  turn?.release();
  const inTurn: InTurn =
    turn === undefined
      ? (send) => send()
      : (send) => {
          // Waiting behind another call is no silence of this server's.
          const resume = pause?.();
          return turn.take(() => {
            resume?.();
            return send();
          }, signal);
        };
  // The call's signal and timeout; its progress is this loop's to report.
  const { onprogress: _reported, resetTimeoutOnProgress: _reset, ...polls } = options;
  const shown = { count: 0, said: '' };
  const report = (task: TaskState): void => {
    const said = `${task.status}\u0000${task.statusMessage ?? ''}`;
    if (said === shown.said) return;
    shown.said = said;
    shown.count += 1;
    const progress: Progress = { progress: shown.count };
    const message = task.statusMessage ?? STATUS_WORDS[task.status];
    options.onprogress?.({ ...progress, message });
  };
  const answered = new Set<string>();
  let payload: Promise<ToolCallResult> | undefined;
  const fetchPayload = (taskId: string): Promise<ToolCallResult> => {
    if (calls.payload === undefined) return Promise.reject(new Error('no tasks/result'));
    const fetch = calls.payload;
    payload ??= inTurn(() => fetch(taskId, polls));
    // Settled later, or never when the task fails: not an unhandled rejection meanwhile.
    payload.catch(() => {});
    return payload;
  };
  let task = created;
  const schedule = new TaskSchedule(clock);
  const unwatch = calls.watch?.(created.taskId, {
    state: (pushed) => schedule.pushed(pushed),
    subscribed: () => schedule.askNow(),
  });
  try {
    for (;;) {
      seen?.(task);
      report(task);
      if (isTerminal(task.status)) return await ended(task, fetchPayload);
      if (task.status === 'input_required') {
        if (calls.answer !== undefined) {
          const unanswered = Object.keys(task.inputRequests ?? {}).filter(
            (key) => !answered.has(key),
          );
          if (unanswered.length > 0) {
            await calls.answer(task, unanswered, inTurn);
            for (const key of unanswered) answered.add(key);
          }
        } else {
          void fetchPayload(task.taskId);
        }
      }
      // A server that pushes the status says nothing while nothing changes: its silence between
      // looks is no sign of trouble, so the call's `timeout` stands still then (each request of
      // the following is still bound by it, and max_total_timeout by the whole).
      const still = schedule.pushing ? pause?.() : undefined;
      let look: NextLook;
      try {
        look = await schedule.next(task, signal);
      } finally {
        still?.();
      }
      if (look === 'poll') {
        const id = task.taskId;
        task = await inTurn(() => calls.get(id, polls));
        schedule.asked();
      } else {
        task = look;
      }
      alive();
    }
  } catch (error) {
    if (signal?.aborted !== true) throw error;
    // Recorded first: a process that is stopping (Ctrl-C) may exit once the server is told.
    seen?.({ ...task, status: 'cancelled' });
    // The server is told before the call says it stopped, so what follows sees the task cancelled.
    // Not waiting for a turn: it stops work rather than starting any.
    await calls.cancel(task.taskId, { timeout: CANCEL_WAIT_MS }).catch(() => {});
    throw stopped(signal.reason, task.taskId);
  } finally {
    unwatch?.();
  }
}

const STATUS_WORDS: Readonly<Record<TaskState['status'], string>> = {
  working: 'working',
  input_required: 'waiting for an answer',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

async function ended(
  task: TaskState,
  fetchPayload: (taskId: string) => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  switch (task.status) {
    case 'completed':
      return task.result ?? (await fetchPayload(task.taskId));
    case 'failed': {
      const error = task.error;
      if (error !== undefined)
        throw ProtocolError.fromError(error.code, `the task failed: ${error.message}`);
      const why = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
      throw ProtocolError.fromError(-32603, `the task failed${why}`);
    }
    case 'cancelled': {
      const why = task.statusMessage === undefined ? '' : ` (${task.statusMessage})`;
      throw ProtocolError.fromError(-32603, `the server cancelled the task${why}`);
    }
    default:
      throw new Error(`task ${task.taskId} is not over (${task.status})`);
  }
}

/**
 * What a stopped call's task was cancelled by: the data of the error it rejects with, so that
 * errors/request.ts says tasks/cancel (not notifications/cancelled) and names the task.
 */
export class TaskCancelSent {
  constructor(readonly taskId: string) {}
}

/**
 * What the SDK rejects a stopped request with (its code, so errors/request.ts reads it the same),
 * marked as a task's (TaskCancelSent).
 */
function stopped(reason: unknown, taskId: string): SdkError {
  const sdk = reason instanceof SdkError;
  return new SdkError(
    sdk ? reason.code : SdkErrorCode.RequestTimeout,
    sdk ? reason.message : String(reason),
    new TaskCancelSent(taskId),
  );
}
