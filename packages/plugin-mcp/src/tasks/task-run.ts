// One task's life on the client, from the answer that made it to its result: polled with tasks/get
// at the server's poll interval (held between POLL_MIN_MS and POLL_MAX_MS), each new status or
// status message reported as progress (so the call's `timeout`, a time without a sign of life,
// starts again, and a person sees it), a question it asks put to the person (2026: its
// `inputRequests`, answered by tasks/update; 2025: tasks/result, whose stream carries the server's
// elicitation/create to the connection's handler), the result fetched (2026: inlined in tasks/get;
// 2025: tasks/result). When the call's signal aborts (the caller, `timeout`, `max_total_timeout`)
// the server is sent tasks/cancel, and only then does the call reject, as a stopped request does.
import {
  type Progress,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import type { ToolCallResult } from '../tools/result.js';
import { isTerminal, type TaskState } from './task-wire.js';

/** The fastest a task is polled, whatever the server asks: a server's 0 is no reason to spin. */
export const POLL_MIN_MS = 100;
/** The slowest: a server asking for hours between looks would leave a finished task unseen. */
export const POLL_MAX_MS = 10_000;
/** A server that names no interval is looked at once a second. */
export const POLL_DEFAULT_MS = 1_000;
/** How long tasks/cancel is waited for once the call is stopped. */
export const CANCEL_WAIT_MS = 5_000;

/** The task requests of one connection, in its revision's words. */
export interface TaskCalls {
  get(taskId: string, options: RequestOptions): Promise<TaskState>;
  /** 2025-11-25 only: tasks/result (the result once the task is done; questions ride its stream). */
  readonly payload?: (taskId: string, options: RequestOptions) => Promise<ToolCallResult>;
  /** 2026-07-28 only: puts an input_required task's questions to the person, then tasks/update. */
  readonly answer?: (task: TaskState, unanswered: readonly string[]) => Promise<void>;
  cancel(taskId: string, options: RequestOptions): Promise<unknown>;
}

export function pollDelay(task: TaskState): number {
  const asked = task.pollIntervalMs ?? POLL_DEFAULT_MS;
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, asked));
}

/** What a call following a task is told besides its result. */
export interface TaskWatch {
  /** The server answered: the call's SignOfLife starts again. */
  readonly alive: () => void;
  /** Each look at the task (the records in $EPOCH_HOME keep its status). */
  readonly seen?: (task: TaskState) => void;
}

/**
 * Follows `created` to its end. `options` are the call's: its signal (the caller's with the call's
 * limits), its timeout and its progress handler.
 */
export async function followTask(
  created: TaskState,
  calls: TaskCalls,
  options: RequestOptions,
  { alive, seen }: TaskWatch,
): Promise<ToolCallResult> {
  const { signal } = options;
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
    payload ??= calls.payload(taskId, polls);
    // Settled later, or never when the task fails: not an unhandled rejection meanwhile.
    payload.catch(() => {});
    return payload;
  };
  let task = created;
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
            await calls.answer(task, unanswered);
            for (const key of unanswered) answered.add(key);
          }
        } else {
          void fetchPayload(task.taskId);
        }
      }
      await wait(pollDelay(task), signal);
      task = await calls.get(task.taskId, polls);
      alive();
    }
  } catch (error) {
    if (signal?.aborted !== true) throw error;
    // Recorded first: a process that is stopping (Ctrl-C) may exit once the server is told.
    seen?.({ ...task, status: 'cancelled' });
    // The server is told before the call says it stopped, so what follows sees the task cancelled.
    await calls.cancel(task.taskId, { timeout: CANCEL_WAIT_MS }).catch(() => {});
    throw stopped(signal.reason);
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

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What the SDK rejects a stopped request with, so that errors/request.ts reads it the same. */
function stopped(reason: unknown): SdkError {
  return reason instanceof SdkError
    ? reason
    : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
