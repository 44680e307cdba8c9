// The tasks of one connection: which of its tool calls run as tasks, how one is started and
// followed to its result in the connection's revision (with the status the server pushes:
// task-notes.ts), and a task found again by its id (a later process, from the records in
// $EPOCH_HOME). Connection (link.ts) hands tools/call here; loaded with it.
import type { Client, RequestOptions, Tool, Transport } from '@modelcontextprotocol/client';
import type { InputAnswerers } from '../connection/input-required.js';
import type { QueueTurn } from '../connection/serial-queue.js';
import type { QuestionTarget } from '../elicitation/ask.js';
import type { ToolCallResult } from '../tools/result.js';
import type { McpTaskCalls } from '../types.js';
import {
  catchTaskHandles,
  legacyCalls,
  legacyTaskCalls,
  modernCalls,
  modernTaskCalls,
  TASK_TTL_MS,
  type TaskSupport,
  taskTools,
} from './task-calls.js';
import { cancelled, lookedUp, type TaskCancel } from './task-lookup.js';
import { TaskNotes } from './task-notes.js';
import { taskRecorder } from './task-records.js';
import { followTask, type TaskCalls } from './task-run.js';
import { callOrTaskSchema, type TaskState } from './task-wire.js';

export interface ConnectionTasksParts {
  readonly server: string;
  /** `offered`: a 2025-11-25 tool that only offers to run as a task is called as one too. */
  readonly taskCalls: McpTaskCalls;
  readonly sdk: Client;
  readonly transport: Transport;
  readonly tools: readonly Tool[];
  /** Who answers a question a 2026 task asks, for the request `target` is. */
  readonly answerers: (target: QuestionTarget) => InputAnswerers;
}

export class ConnectionTasks {
  readonly #server: string;
  readonly #sdk: Client;
  readonly #answerers: (target: QuestionTarget) => InputAnswerers;
  readonly #legacy: boolean;
  readonly #taskCalls: McpTaskCalls;
  /** 2025-11-25: the tools that run as tasks, of the latest tools/list, when the server takes them. */
  #tools: ReadonlyMap<string, TaskSupport>;
  /** 2026-07-28, a server with the tasks extension: the task a call's answer stands for. */
  readonly #taskOf: ((result: ToolCallResult) => TaskState | undefined) | undefined;
  readonly #notes: TaskNotes;

  /** Call once the SDK connected the transport (and after keepProgressFirst). */
  constructor({ server, taskCalls, sdk, transport, tools, answerers }: ConnectionTasksParts) {
    this.#server = server;
    this.#taskCalls = taskCalls;
    this.#sdk = sdk;
    this.#answerers = answerers;
    const declared = sdk.getServerCapabilities();
    this.#legacy = sdk.getProtocolEra() === 'legacy' && legacyTaskCalls(declared);
    this.#tools = this.#legacy ? taskTools(tools) : new Map();
    this.#taskOf =
      sdk.getProtocolEra() === 'modern' && modernTaskCalls(declared)
        ? catchTaskHandles(transport)
        : undefined;
    this.#notes = new TaskNotes(transport);
  }

  /** The server's tools/list changed: which tools run as tasks now. */
  listed(tools: readonly Tool[]): void {
    if (this.#legacy) this.#tools = taskTools(tools);
  }

  /**
   * Whether a call of `tool` is made as a 2025-11-25 task (callLegacy): it requires it, or it
   * offers it and the server's `task_calls` is `offered`.
   */
  mustCall(tool: string): boolean {
    const support = this.#tools.get(tool);
    return support === 'required' || (support === 'optional' && this.#taskCalls === 'offered');
  }

  /** A 2025-11-25 tool that must run as a task: called with `task`, then followed. */
  async callLegacy(
    name: string,
    args: Record<string, unknown>,
    options: RequestOptions,
    target: QuestionTarget,
    turn: QueueTurn | undefined,
  ): Promise<ToolCallResult> {
    const answer = await this.#sdk.request(
      { method: 'tools/call', params: { name, arguments: args, task: { ttl: TASK_TTL_MS } } },
      callOrTaskSchema,
      options,
    );
    if (answer.kind === 'result') return answer.result;
    return this.follow(answer.task, name, options, target, { made: true, turn });
  }

  /** A 2026 call's answer: itself, or the result of the task it stands for. */
  answered(
    answer: ToolCallResult,
    tool: string,
    options: RequestOptions,
    target: QuestionTarget,
    turn: QueueTurn | undefined,
  ): Promise<ToolCallResult> | ToolCallResult {
    const task = this.#taskOf?.(answer);
    return task === undefined
      ? answer
      : this.follow(task, tool, options, target, { made: true, turn });
  }

  /**
   * Follows a task of `tool` to its result (task-run.ts), its record in $EPOCH_HOME kept: written
   * when `made` here, else (a recorded task found again) its status updated. `turn`: the call's
   * turn in the server's queue, given up once the task is followed.
   */
  async follow(
    task: TaskState,
    tool: string,
    options: RequestOptions,
    target: QuestionTarget,
    { made, turn }: { readonly made: boolean; readonly turn: QueueTurn | undefined },
  ): Promise<ToolCallResult> {
    const record = taskRecorder({ server: this.#server, tool, era: this.#era() }, made);
    try {
      return await followTask(task, this.calls(tool, target), options, {
        alive: () => target.alive(),
        seen: (seen) => record(seen),
        turn,
        pause: () => target.pause(),
      });
    } finally {
      await record.flushed();
    }
  }

  /** tasks/get of a task this server made (`task_gone` when it no longer knows it). */
  get(taskId: string, options: RequestOptions): Promise<TaskState> {
    return lookedUp(this.calls('', undefined), { server: this.#server, taskId }, options);
  }

  /** tasks/cancel of a task this server made, and what the server says came of it. */
  cancel(taskId: string, options: RequestOptions): Promise<TaskCancel> {
    return cancelled(this.calls('', undefined), { server: this.#server, taskId }, options);
  }

  /** A task found again by its id (a record of an earlier process), followed to its result. */
  async resume(
    taskId: string,
    tool: string,
    options: RequestOptions,
    target: QuestionTarget,
    turn: QueueTurn | undefined,
  ): Promise<ToolCallResult> {
    // Its signal and timeout; progress is the following's to report.
    const { onprogress: _reported, resetTimeoutOnProgress: _reset, ...look } = options;
    const task = await this.get(taskId, look);
    return this.follow(task, tool, options, target, { made: false, turn });
  }

  /** The task requests of this connection's revision (`target`: who a question belongs to). */
  calls(tool: string, target: QuestionTarget | undefined): TaskCalls {
    return this.#era() === 'legacy'
      ? legacyCalls(this.#sdk, this.#notes)
      : modernCalls(this.#sdk, this.#notes, {
          server: this.#server,
          tool,
          answerers: target === undefined ? undefined : this.#answerers(target),
        });
  }

  #era(): 'legacy' | 'modern' {
    return this.#sdk.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  }
}
