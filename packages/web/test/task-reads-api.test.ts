// GET /api/tasks, which the page sends after each call it runs, over real HTTP with 300 records of
// other tasks in $EPOCH_HOME/tasks, each written a minute before: a listing opens only the record
// files that changed since the one before (the read calls of this process, which runs epoch web),
// and lists every record as it is now: the task a Try made, a task another `epoch` process made,
// and that task's record once yet another process (`epoch mcp tasks cancel`) replaced it.
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { type McpTaskRecord, taskRecordsDir } from '@epoch-agent/plugin-mcp';
import {
  type RunningModernServer,
  readsSoFar,
  startModernHttp,
  TASK_SERVER,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killedTaskCall, listedTasks, runEpoch } from './task-helpers.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

const OTHERS = 300;

let server: RunningModernServer;
let web: TestWeb;

/** Every record file's times set to `at`. */
async function dateRecords(at: number): Promise<void> {
  for (const name of await readdir(taskRecordsDir())) {
    await utimes(join(taskRecordsDir(), name), new Date(at), new Date(at));
  }
}

beforeAll(async () => {
  server = await startModernHttp([], {}, TASK_SERVER);
  await writeFile(
    mcpConfigPath(),
    JSON.stringify({ servers: { tasks: { type: 'http', url: server.url } } }),
  );
  await mkdir(taskRecordsDir(), { recursive: true, mode: 0o700 });
  const then = new Date(Date.now() - 60_000).toISOString();
  for (let index = 0; index < OTHERS; index++) {
    const record: McpTaskRecord = {
      server: 'elsewhere',
      tool: 'work',
      taskId: `other-${index}`,
      era: 'modern',
      startedAt: then,
      status: 'completed',
      updatedAt: then,
      pid: process.pid,
    };
    await writeFile(join(taskRecordsDir(), `other-${index}.json`), JSON.stringify(record), {
      mode: 0o600,
    });
  }
  await dateRecords(Date.now() - 60_000);
  web = await startTestWeb();
  await web.settled();
});

afterAll(async () => {
  await web?.close();
  await server?.stop();
});

it('the GET after a Try opens only the record the Try wrote, and lists it with every other', async () => {
  // The page's first read opens every file.
  expect(await listedTasks(web)).toHaveLength(OTHERS);
  const call = await web.api('/api/mcp/tasks/tools/work/call', {
    method: 'POST',
    json: { arguments: { steps: 1, stepMs: 10 } },
  });
  expect(call.status, await call.clone().text()).toBe(200);

  const before = readsSoFar().calls;
  const tasks = await listedTasks(web);
  const calls = readsSoFar().calls - before;
  expect(tasks).toHaveLength(OTHERS + 1);
  expect(tasks.find(({ server }) => server === 'tasks')).toMatchObject({
    tool: 'work',
    status: 'completed',
    startedBy: { kind: 'this' },
  });
  // A file opened is at least two read calls (its text, its end), and about six with the event
  // loop's wake-ups; one only stat'ed is none but a wake-up's. The socket's are a few.
  expect(calls).toBeLessThan(2 * OTHERS);
});

it("another process's record is listed at the next GET, and so is what a third process replaced it with", async () => {
  const made = await killedTaskCall(web, mcpConfigPath(), 'tasks', { steps: 300, stepMs: 100 });
  expect(made.status).toBe('working');
  // Its record a minute old as well, read again once (its times changed), then trusted as found.
  await dateRecords(Date.now() - 60_000);
  await listedTasks(web);
  expect((await listedTasks(web)).find(({ taskId }) => taskId === made.taskId)?.status).toBe(
    'working',
  );

  expect(await runEpoch(['mcp', 'tasks', 'cancel', made.taskId, '--config', mcpConfigPath()])).toBe(
    0,
  );
  const after = (await listedTasks(web)).find(({ taskId }) => taskId === made.taskId);
  expect(after?.status).toBe('cancelled');
  expect(after?.startedBy.kind).toBe('gone');
});
