// A task outlives the process that started it: that process (test/fixtures/task-caller.mjs) calls
// the 2026-07-28 task server over Streamable HTTP and is killed (SIGKILL) mid-task; its record in
// $EPOCH_HOME (0600, in a 0700 directory, nothing of the call's arguments) lets this process list
// the task, fetch its result once it is done, or cancel another one, which the server sees.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  TASK_SERVER,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import { taskRecordsDir } from '../src/tasks/task-records.js';

const CALLER = fileURLToPath(new URL('./fixtures/task-caller.mjs', import.meta.url));

let dir: string;
let record: string;
let server: RunningModernServer;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-task-restart-'));
  record = join(dir, 'record.jsonl');
  server = await startModernHttp([], { RECORD_FILE: record }, TASK_SERVER);
  cleanups.push(() => server.stop());
  await rm(taskRecordsDir(), { recursive: true, force: true });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** Starts the caller with a task of `steps` steps of `tool`, waits for its record, and kills it. */
async function killedMidTask(steps: number, tool = 'work'): Promise<number> {
  const child = spawn(process.execPath, [CALLER, server.url, String(steps), tool], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  for await (const line of createInterface({ input: child.stdout })) if (line === 'calling') break;
  await waitUntil(async () => (await readTaskRecords()).length === 1, 'the task recorded');
  child.kill('SIGKILL');
  await exited;
  return child.pid as number;
}

async function secondProcess(): Promise<McpRegistry> {
  const registry = new McpRegistry({ schemaCache: null });
  cleanups.push(() => registry.disconnectAll());
  await registry.connectAll([remoteConfig('tasks', 'http', server.url)], 'user');
  return registry;
}

async function serverEvents(): Promise<Record<string, unknown>[]> {
  const lines = await readFile(record, 'utf8');
  return lines
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('a task whose process was killed', () => {
  it('is listed from its record, and its result is fetched by a second process', async () => {
    const pid = await killedMidTask(8);
    const [found] = await readTaskRecords();
    expect(found).toEqual(
      expect.objectContaining({
        server: 'tasks',
        tool: 'work',
        era: 'modern',
        status: 'working',
        pid,
      }),
    );
    expect((await stat(taskRecordsDir())).mode & 0o777).toBe(0o700);
    const [name] = await readdir(taskRecordsDir());
    const file = join(taskRecordsDir(), name as string);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // What finds the task again, nothing of the call's arguments.
    expect(await readFile(file, 'utf8')).not.toContain('stepMs');
    const registry = await secondProcess();
    const progress: string[] = [];
    const result = await registry.taskResult(
      found as NonNullable<typeof found>,
      undefined,
      ({ message }) => progress.push(message ?? ''),
    );
    expect(result.content).toEqual([expect.objectContaining({ type: 'text', text: 'done 8' })]);
    expect(progress).toContain('step 8 of 8');
    const [after] = await readTaskRecords();
    expect(after?.status).toBe('completed');
  });

  it("has its result checked against the tool's outputSchema when a second process fetches it", async () => {
    await killedMidTask(4, 'count');
    const [found] = await readTaskRecords();
    expect(found?.tool).toBe('count');
    const registry = await secondProcess();
    const result = await registry.taskResult(found as NonNullable<typeof found>);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      expect.objectContaining({
        type: 'text',
        text: expect.stringContaining('structuredContent/count must be integer'),
      }),
    ]);
  });

  it('is cancelled by a second process: the server saw tasks/cancel, the record says cancelled', async () => {
    await killedMidTask(200);
    const [found] = await readTaskRecords();
    const registry = await secondProcess();
    await registry.cancelTask('tasks', found?.taskId as string);
    expect(await serverEvents()).toContainEqual({ cancelled: found?.taskId });
    expect((await registry.getTask('tasks', found?.taskId as string)).status).toBe('cancelled');
    const [after] = await readTaskRecords();
    expect(after?.status).toBe('cancelled');
  });
});
