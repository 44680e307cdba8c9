// The JSON of the recorded tasks as the page reads them (task-routes.ts): types only, imported by
// the page as well. A record holds what finds a task again and nothing of the call's content (README
// "Tools that run as tasks"), so neither does anything here but a result the person asked to see.
import type { McpTaskRecord, McpTaskStatus } from '@epoch-agent/runtime';

/** GET /api/tasks: every task this machine's epoch processes recorded, oldest first. */
export interface TaskList {
  readonly tasks: readonly TaskView[];
}

export interface TaskView {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly taskId: string;
  readonly era: McpTaskRecord['era'];
  /** ISO time the task was made. */
  readonly startedAt: string;
  /** Its last status seen by any process, and when. */
  readonly status: McpTaskStatus;
  readonly updatedAt: string;
  /** The process that started it: this epoch web's own, another that runs, or one that is gone. */
  readonly startedBy: TaskStarter;
}

export type TaskStarter =
  | { readonly kind: 'this' }
  | { readonly kind: 'running'; readonly pid: number }
  | { readonly kind: 'gone'; readonly pid: number };

/**
 * POST /api/tasks/:server/:task/cancel: the server took tasks/cancel, and says the task is now
 * `status` (`cancelled`, or still settling). A task that had already ended is refused instead
 * (`task_ended`), as is one its server no longer knows (`task_gone`).
 */
export interface TaskCancelled {
  readonly status: McpTaskStatus;
}

/**
 * The codes of the task routes' own refusals (the runtime's are its McpErrorCodes): the page has
 * its advice for each (page/advice.ts).
 */
export type TaskErrorCode =
  /** No record names that server's task: the list the page shows is older than the records. */
  'unknown_task';
