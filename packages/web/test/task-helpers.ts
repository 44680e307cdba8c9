// Shared by the tests of the page's list of tasks: the recorded tasks as GET /api/tasks lists them,
// an `epoch mcp call` of a task tool (a real process of the built `epoch`) killed once its task is
// recorded, any other `epoch` command run to its end, and what testkit's task server recorded of
// the tasks it saw.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@epoch-agent/testkit';
import type { TaskList, TaskView } from '@epoch-agent/web';
import type { TestWeb } from './web-helpers.js';

const EPOCH_BIN = fileURLToPath(new URL('../../cli/bin/epoch.js', import.meta.url));

export async function listedTasks(web: TestWeb): Promise<readonly TaskView[]> {
  const response = await web.api('/api/tasks');
  if (response.status !== 200) throw new Error(`GET /api/tasks: ${await response.text()}`);
  return ((await response.json()) as TaskList).tasks;
}

/**
 * Runs `epoch mcp call --config <config> <server> work --args <args>` and kills it (SIGKILL) as
 * soon as epoch web lists the task it made: the task it leaves, as it was recorded.
 */
export async function killedTaskCall(
  web: TestWeb,
  config: string,
  server: string,
  args: { readonly steps: number; readonly stepMs: number },
): Promise<TaskView> {
  const known = new Set((await listedTasks(web)).map(({ taskId }) => taskId));
  const child = spawn(
    process.execPath,
    [EPOCH_BIN, 'mcp', 'call', '--config', config, server, 'work', '--args', JSON.stringify(args)],
    { stdio: 'ignore' },
  );
  const exited = once(child, 'exit');
  try {
    return await waitUntil(
      async () => (await listedTasks(web)).find(({ taskId }) => !known.has(taskId)),
      'epoch mcp call to record its task',
    );
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Runs `epoch <args>` (a real process of the built `epoch`) to its end: its exit code. */
export async function runEpoch(args: readonly string[]): Promise<number | null> {
  const child = spawn(process.execPath, [EPOCH_BIN, ...args], { stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

/** The task server's record (its RECORD_FILE): one event per line, in order. */
export async function serverEvents(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
