// The page's list of tasks: every task this machine's epoch processes recorded (GET /api/tasks;
// README "Tools that run as tasks"), each with its server, tool, id, last status seen, when it
// started and whether the process that started it is gone; "Show result" follows one to its result
// (a finished one's comes at once; an unfinished one's progress shows as a Try's does), "Cancel"
// sends tasks/cancel (and stops following it). A page that goes away while it follows a task stops
// following, which cancels the task on the server as closing a page during a Try cancels its call.
// Read when the page opens, on Reload, after each action and after each call this page runs (a Try
// of a task tool has recorded its task by then).
import type { McpErrorCode, McpTaskStatus, ToolProgress, ToolResult } from '@epoch-agent/runtime';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { McpView, ServerView } from '../src/api-types.js';
import type {
  TaskCancelled,
  TaskErrorCode,
  TaskList,
  TaskStarter,
  TaskView,
} from '../src/task-types.js';
import { adviceForTask } from './advice.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { whenCallEnds } from './page-calls.js';
import { ProgressView } from './progress-view.js';
import { serverText } from './text.js';
import { ToolResultView } from './tool-result.js';

const UNKNOWN_TASK: TaskErrorCode = 'unknown_task';
/** Its server no longer knows the task: its record is removed, as for a task no record names. */
const TASK_GONE: McpErrorCode = 'task_gone';

/** Each status's words, and whether the task has ended (nothing left to cancel). */
const STATUS_LOOKS: Record<McpTaskStatus, { readonly word: string; readonly ended: boolean }> = {
  working: { word: 'working', ended: false },
  input_required: { word: 'waiting for an answer', ended: false },
  completed: { word: 'completed', ended: true },
  failed: { word: 'failed', ended: true },
  cancelled: { word: 'cancelled', ended: true },
};

/** What an action on one task came to, shown under it. */
type Outcome =
  | {
      readonly state: 'following';
      readonly stop: AbortController;
      readonly progress?: ToolProgress;
    }
  | { readonly state: 'cancelling' }
  | { readonly state: 'result'; readonly result: ToolResult }
  | { readonly state: 'cancelled'; readonly status: McpTaskStatus }
  | { readonly state: 'refused'; readonly message: string; readonly advice?: string | undefined };

interface Props {
  readonly api: Api;
  readonly view: McpView;
}

export function TaskListSection({ api, view }: Props) {
  const [tasks, setTasks] = useState<readonly TaskView[]>();
  const [problem, setProblem] = useState<string>();
  // A refusal of a task the list no longer has (its record went): said above the list, which is
  // read again without it.
  const [lost, setLost] = useState<{ readonly message: string; readonly advice?: string }>();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, Outcome>>(new Map());
  const reading = useRef(0);
  const read = useCallback(async () => {
    // Only the latest read is shown: an earlier one answering late is older news.
    const turn = ++reading.current;
    const answer = await api.call<TaskList>('GET', '/api/tasks');
    if (turn !== reading.current) return;
    if (answer.ok) {
      setTasks(answer.value.tasks);
      setProblem(undefined);
    } else {
      setProblem(answer.error.message);
    }
  }, [api]);
  useEffect(() => {
    void read();
    return whenCallEnds(() => void read());
  }, [read]);
  // A result being followed stops when the page goes.
  const live = useRef(outcomes);
  live.current = outcomes;
  useEffect(
    () => () => {
      for (const outcome of live.current.values()) {
        if (outcome.state === 'following') outcome.stop.abort();
      }
    },
    [],
  );

  const set = (task: TaskView, outcome: Outcome) =>
    setOutcomes((now) => new Map(now).set(keyOf(task), outcome));
  const refused = (task: TaskView, error: { code: string; message: string }) => {
    const advice = adviceForTask(error.code, serverOf(view, task.server));
    if (error.code === UNKNOWN_TASK || error.code === TASK_GONE) {
      setLost({ message: error.message, ...(advice === undefined ? {} : { advice }) });
    } else {
      set(task, { state: 'refused', message: error.message, advice });
    }
  };
  const path = (task: TaskView) =>
    `/api/tasks/${encodeURIComponent(task.server)}/${encodeURIComponent(task.taskId)}`;

  const show = async (task: TaskView) => {
    const stop = new AbortController();
    set(task, { state: 'following', stop });
    try {
      const answer = await api.callAsItRuns(`${path(task)}/result`, {}, stop.signal, (progress) => {
        if (!stop.signal.aborted) set(task, { state: 'following', stop, progress });
      });
      // A task cancelled while followed: how the following ended is the cancel's to say.
      if (stop.signal.aborted) return;
      if (answer.ok) set(task, { state: 'result', result: answer.value.result });
      else refused(task, answer.error);
    } catch {
      // Only an abort rejects: Cancel, which says how it went, or the page going away.
      return;
    }
    await read();
  };

  const cancel = async (task: TaskView) => {
    // A task being followed is cancelled the same way, and then no longer followed: the server
    // took tasks/cancel before the following stops (which would send it again, unheard).
    const following = outcomes.get(keyOf(task));
    set(task, { state: 'cancelling' });
    const answer = await api.call<TaskCancelled>('POST', `${path(task)}/cancel`);
    if (following?.state === 'following') following.stop.abort();
    if (answer.ok) set(task, { state: 'cancelled', status: answer.value.status });
    else refused(task, answer.error);
    await read();
  };

  return (
    <section class="group tasks" aria-labelledby="tasks-heading">
      <h2 id="tasks-heading">
        Tasks <span class="count">{tasks?.length ?? ''}</span>
      </h2>
      <p class="about">
        The long calls servers ran as tasks, as each epoch process that started one recorded it (in{' '}
        <code>$EPOCH_HOME/tasks</code>). A task of a stdio server ends with the process that started
        it; a remote server's outlives it.{' '}
        <button
          type="button"
          class="link"
          onClick={() => {
            setLost(undefined);
            void read();
          }}
        >
          Reload
        </button>
      </p>
      {lost !== undefined && (
        <div class="problem" role="alert">
          <p>{serverText(lost.message)}</p>
          {lost.advice !== undefined && <p class="hint">{lost.advice}</p>}
        </div>
      )}
      {problem !== undefined && (
        <p class="problem" role="alert">
          The tasks could not be read: {problem}
        </p>
      )}
      {tasks?.length === 0 && (
        <p class="empty">No tasks recorded: a tool that runs as a task records one.</p>
      )}
      {tasks !== undefined && tasks.length > 0 && (
        <ul class="task-list">
          {tasks.map((task) => (
            <TaskRow
              key={keyOf(task)}
              task={task}
              outcome={outcomes.get(keyOf(task))}
              onShow={() => void show(task)}
              onCancel={() => void cancel(task)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface RowProps {
  readonly task: TaskView;
  readonly outcome: Outcome | undefined;
  readonly onShow: () => void;
  readonly onCancel: () => void;
}

function TaskRow({ task, outcome, onShow, onCancel }: RowProps) {
  const looks = STATUS_LOOKS[task.status];
  const following = outcome?.state === 'following';
  const label = `task ${task.taskId} of ${task.server}`;
  return (
    <li class="task" data-task={task.taskId} data-server={task.server} data-status={task.status}>
      <p class="task-line">
        <strong class="task-tool">{serverText(task.tool)}</strong> of{' '}
        <strong class="task-server">{serverText(task.server)}</strong>:{' '}
        <span class="task-status">{looks.word}</span>
        {' · '}
        started <time dateTime={task.startedAt}>{new Date(task.startedAt).toLocaleString()}</time>{' '}
        <span class="task-starter">{starterText(task.startedBy)}</span>
      </p>
      <p class="task-id">
        id <code>{serverText(task.taskId)}</code>
      </p>
      <p class="task-actions">
        {task.status !== 'cancelled' && (
          <BusyButton busy={following} onClick={onShow} aria-label={`Show result of ${label}`}>
            {following ? 'Following…' : 'Show result'}
          </BusyButton>
        )}
        {!looks.ended && (
          <BusyButton
            busy={outcome?.state === 'cancelling'}
            onClick={onCancel}
            aria-label={`Cancel ${label}`}
          >
            Cancel
          </BusyButton>
        )}
      </p>
      {outcome !== undefined && <OutcomeView outcome={outcome} />}
    </li>
  );
}

function OutcomeView({ outcome }: { readonly outcome: Outcome }) {
  switch (outcome.state) {
    case 'following':
      return (
        <>
          <p class="notice" role="status">
            Following the task to its result…
          </p>
          {outcome.progress !== undefined && <ProgressView progress={outcome.progress} />}
        </>
      );
    case 'cancelling':
      return (
        <p class="notice" role="status">
          Cancelling…
        </p>
      );
    case 'cancelled':
      return (
        <p class="notice" role="status">
          {outcome.status === 'cancelled'
            ? 'Cancelled: the server was sent tasks/cancel.'
            : `The server was sent tasks/cancel, and says the task is still ${STATUS_LOOKS[outcome.status].word}: Reload shows when it ends.`}
        </p>
      );
    case 'refused':
      return (
        <>
          <p class="problem" role="alert">
            {serverText(outcome.message)}
          </p>
          {outcome.advice !== undefined && <p class="hint">{outcome.advice}</p>}
        </>
      );
    case 'result':
      return (
        <>
          <p class={outcome.result.isError === true ? 'problem' : 'notice'} role="status">
            {outcome.result.isError === true
              ? 'Its result, which the tool marked as an error (isError):'
              : 'Its result:'}
          </p>
          <ToolResultView result={outcome.result} />
        </>
      );
  }
}

function starterText(starter: TaskStarter): string {
  switch (starter.kind) {
    case 'this':
      return 'by this epoch web';
    case 'running':
      return `by process ${starter.pid}, which runs`;
    case 'gone':
      return `by process ${starter.pid}, now gone`;
  }
}

function keyOf(task: TaskView): string {
  return `${task.server}\u0000${task.taskId}`;
}

function serverOf(view: McpView, name: string): ServerView | undefined {
  return Object.values(view.groups)
    .flat()
    .find((server) => server.name === name);
}
