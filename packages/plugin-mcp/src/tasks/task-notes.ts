// The task status a server pushes on one connection, taken out of its transport's stream before the
// SDK sees it (its 2026 codec knows no such notification, and its 2025 one has no task runtime):
// 2025-11-25's `notifications/tasks/status`, sent unsolicited for every task of the connection, and
// the tasks extension's `notifications/tasks` (2026-07-28), sent on a subscriptions/listen stream
// asking for the task's id (`notifications.taskIds`), whose acknowledgement lists the ids the
// server agreed to push. Each is a whole task, as tasks/get would give it (task-wire.ts reads it).
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { readTask, type TaskState } from './task-wire.js';

/** Both revisions' names: 2025-11-25, then the tasks extension's. */
const STATUS_METHODS: ReadonlySet<string> = new Set([
  'notifications/tasks/status',
  'notifications/tasks',
]);

/**
 * A status that came before its task was watched is kept for the watch: a 2025 server may push the
 * first one before the answer that makes the task. Only the latest few: they are tasks of calls
 * about to be followed, not a store.
 */
const EARLY_KEPT = 16;

/** What a follower of one task is told. */
export interface TaskNoteListener {
  /** The server pushed the task's status. */
  readonly state: (task: TaskState) => void;
  /** The server agreed to push this task's status (2026): what changed before is asked once now. */
  readonly subscribed?: () => void;
}

export class TaskNotes {
  readonly #listeners = new Map<string, TaskNoteListener>();
  readonly #early = new Map<string, TaskState>();

  /** Call after the SDK connected `transport` (it wraps the transport's onmessage then). */
  constructor(transport: Transport) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.#took(message)) deliver?.(message, extra);
    };
  }

  /** Tells `listener` of `taskId`'s pushed status until the function given back is called. */
  watch(taskId: string, listener: TaskNoteListener): () => void {
    this.#listeners.set(taskId, listener);
    const early = this.#early.get(taskId);
    if (early !== undefined) {
      this.#early.delete(taskId);
      queueMicrotask(() => this.#listeners.get(taskId)?.state(early));
    }
    return () => {
      if (this.#listeners.get(taskId) === listener) this.#listeners.delete(taskId);
    };
  }

  /** Takes a status notification out of the stream; an acknowledgement is only read, and passes. */
  #took(message: JSONRPCMessage): boolean {
    if (!('method' in message) || 'id' in message) return false;
    if (message.method === 'notifications/subscriptions/acknowledged') {
      const ids = (message.params as { notifications?: { taskIds?: unknown } } | undefined)
        ?.notifications?.taskIds;
      if (Array.isArray(ids)) {
        for (const id of ids) if (typeof id === 'string') this.#listeners.get(id)?.subscribed?.();
      }
      return false;
    }
    if (!STATUS_METHODS.has(message.method)) return false;
    const task = readTask(message.params);
    // Not a task: nothing to follow, and nobody else to give it to.
    if ('issue' in task) return true;
    const listener = this.#listeners.get(task.taskId);
    if (listener !== undefined) listener.state(task);
    else this.#keep(task);
    return true;
  }

  #keep(task: TaskState): void {
    this.#early.delete(task.taskId);
    this.#early.set(task.taskId, task);
    if (this.#early.size > EARLY_KEPT) {
      const [oldest] = this.#early.keys();
      if (oldest !== undefined) this.#early.delete(oldest);
    }
  }
}
