// How one connection starts and follows a task, in its revision's words. 2025-11-25: a tool whose
// `execution.taskSupport` is `required` is called with `task: { ttl }` when the server declared
// `tasks.requests.tools.call`, and tasks/get, tasks/result, tasks/cancel follow it. 2026-07-28: every
// request declares the `io.modelcontextprotocol/tasks` extension (client-options.ts) and the server
// decides; a `resultType: "task"` answer, which the SDK has no runtime for and would refuse, is taken
// out of the transport's stream (catchTaskHandles) and handed back as a task; tasks/get, tasks/update
// and tasks/cancel follow it.
import type {
  Client,
  InputRequiredResult,
  JSONRPCMessage,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import { type InputAnswerers, retryOf } from '../connection/input-required.js';
import { type ToolCallResult, toolCallResultSchema } from '../tools/result.js';
import { notValidAnswer } from '../transport/answer-check.js';
import type { TaskNotes } from './task-notes.js';
import type { TaskCalls } from './task-run.js';
import {
  ackSchema,
  cancelSchema,
  readTask,
  TASKS_EXTENSION,
  type TaskState,
  taskSchema,
} from './task-wire.js';

/** How long a 2025 server is asked to keep a finished task (its result) for us. */
export const TASK_TTL_MS = 60 * 60_000;

/** Where a task taken out of the stream waits for its call: a key no server can guess. */
const HANDLE_KEY = 'dev.epoch-agent/task-handle';

export type TaskSupport = 'required' | 'optional';

/** The tools of `tools` that run as tasks, by name (2025-11-25: `execution.taskSupport`). */
export function taskTools(tools: readonly Tool[]): Map<string, TaskSupport> {
  const found = new Map<string, TaskSupport>();
  for (const tool of tools) {
    const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
    if (support === 'required' || support === 'optional') found.set(tool.name, support);
  }
  return found;
}

/** Whether a 2025-11-25 server takes tools/call as tasks (its `tasks.requests.tools.call`). */
export function legacyTaskCalls(capabilities: unknown): boolean {
  const tasks = (
    capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined
  )?.tasks;
  return tasks?.requests?.tools?.call !== undefined;
}

/** Whether a 2026-07-28 server declared the tasks extension. */
export function modernTaskCalls(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * Takes a 2026 `resultType: "task"` answer out of `transport`'s stream before the SDK sees it: the
 * SDK gets a complete, empty tool result marked with a key only this connection knows, and
 * `taskOf` gives the task back for it. Call after the SDK connected the transport.
 */
export function catchTaskHandles(
  transport: Transport,
): (result: ToolCallResult) => TaskState | undefined {
  const waiting = new Map<string, TaskState>();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    deliver?.(handleOf(message, waiting), extra);
  };
  return (result) => {
    const token = (result as { _meta?: Record<string, unknown> })._meta?.[HANDLE_KEY];
    if (typeof token !== 'string') return undefined;
    const task = waiting.get(token);
    waiting.delete(token);
    return task;
  };
}

function handleOf(message: JSONRPCMessage, waiting: Map<string, TaskState>): JSONRPCMessage {
  if (!('result' in message) || !('id' in message)) return message;
  const result = message.result as Record<string, unknown>;
  if (result.resultType !== 'task') return message;
  const task = readTask(result);
  // Its call fails at once, saying what was wrong, as with any answer that is not valid MCP.
  if ('issue' in task) return notValidAnswer(message.id, task.issue);
  const token = crypto.randomUUID();
  waiting.set(token, task);
  return {
    ...message,
    result: { resultType: 'complete', content: [], _meta: { [HANDLE_KEY]: token } },
  };
}

/** The task requests of a 2025-11-25 connection; its server pushes status unasked. */
export function legacyCalls(sdk: Client, notes: TaskNotes): TaskCalls {
  return {
    watch: (taskId, listener) => notes.watch(taskId, listener),
    get: (taskId, options) =>
      sdk.request({ method: 'tasks/get', params: { taskId } }, taskSchema, options),
    payload: (taskId, options) =>
      sdk.request({ method: 'tasks/result', params: { taskId } }, toolCallResultSchema, options),
    cancel: (taskId, options) =>
      sdk.request({ method: 'tasks/cancel', params: { taskId } }, cancelSchema, options),
  };
}

/**
 * The task requests of a 2026-07-28 connection (a question is asked as one of the call `answerers`
 * belong to), and a subscription to the task's status (its own subscriptions/listen).
 */
export function modernCalls(
  sdk: Client,
  notes: TaskNotes,
  {
    server,
    tool,
    answerers,
  }: {
    readonly server: string;
    readonly tool: string;
    readonly answerers: InputAnswerers | undefined;
  },
): TaskCalls {
  const get: TaskCalls['get'] = (taskId, options) =>
    sdk.request({ method: 'tasks/get', params: { taskId } }, taskSchema, options);
  const cancel: TaskCalls['cancel'] = (taskId, options) =>
    sdk.request({ method: 'tasks/cancel', params: { taskId } }, cancelSchema, options);
  const watch: TaskCalls['watch'] = (taskId, listener) => {
    const stopWatching = notes.watch(taskId, listener);
    const stop = new AbortController();
    // The SDK's filter type knows no `taskIds` (nor does its codec, which reads the
    // acknowledgement without them: task-notes.ts reads it as it came). A server that does not
    // push acknowledges without the id and ends the stream: the polls go on as before.
    const listening = sdk
      .listen({ taskIds: [taskId] } as Parameters<Client['listen']>[0], {
        timeout: LISTEN_ACK_WAIT_MS,
        signal: stop.signal,
      })
      .catch(() => undefined);
    return () => {
      stopWatching();
      stop.abort();
      void listening.then((subscription) => subscription?.close()).catch(() => {});
    };
  };
  if (answerers === undefined) return { get, cancel, watch };
  return {
    get,
    cancel,
    watch,
    answer: async (task, unanswered, inTurn) => {
      const inputRequests = Object.fromEntries(
        unanswered.map((key) => [key, task.inputRequests?.[key]]),
      ) as NonNullable<InputRequiredResult['inputRequests']>;
      const { retry } = await retryOf(
        { resultType: 'input_required', inputRequests },
        { server, method: 'tools/call', name: tool },
        answerers,
      );
      await inTurn(() =>
        sdk.request(
          {
            method: 'tasks/update',
            params: { taskId: task.taskId, inputResponses: retry.inputResponses ?? {} },
          },
          ackSchema,
          { timeout: TASK_UPDATE_TIMEOUT_MS, signal: answerers.request.signal },
        ),
      );
    },
  };
}

/**
 * How long a server has to acknowledge a subscription to a task's status; one that never does is
 * only polled.
 */
const LISTEN_ACK_WAIT_MS = 10_000;

/** tasks/update is an ack: a server that takes longer than this to say it got the answers is down. */
const TASK_UPDATE_TIMEOUT_MS = 60_000;
