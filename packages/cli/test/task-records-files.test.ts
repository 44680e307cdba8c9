// `epoch mcp tasks` over a $EPOCH_HOME/tasks holding what is not a record: a FIFO named like one
// (a read of it would wait for a writer for ever), a directory, an unreadable file; the list passes
// over each and shows the real records. A record past its time that it may not remove is said on
// stderr, and the others are listed. Real `epoch` processes, real files.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { McpTaskRecord } from '@epoch-agent/runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type EpochProcess, startEpoch } from './epoch-process.js';

let dir: string;
let home: string;
/** The `epoch` run, killed after the test even when the test timed out waiting for it. */
let run: EpochProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-task-files-'));
  home = join(dir, 'home');
  await mkdir(join(home, 'tasks'), { recursive: true, mode: 0o700 });
});

afterAll(async () => {
  // Before the fix the process waits on the FIFO for ever: it must not outlive the test.
  if (run !== undefined && run.child.exitCode === null && run.child.signalCode === null) {
    run.child.kill('SIGKILL');
    await run.done;
  }
  await rm(dir, { recursive: true, force: true });
});

it('a FIFO, a directory and an unreadable file among the records are passed over', async () => {
  const tasks = join(home, 'tasks');
  const record: McpTaskRecord = {
    server: 'remote',
    tool: 'work',
    taskId: 'task-real-1',
    era: 'modern',
    startedAt: new Date().toISOString(),
    status: 'working',
    updatedAt: new Date().toISOString(),
    pid: process.pid,
  };
  await writeFile(join(tasks, 'a.json'), JSON.stringify(record), { mode: 0o600 });
  await promisify(execFile)('mkfifo', [join(tasks, 'b-fifo.json')]);
  await mkdir(join(tasks, 'c-dir.json'));
  await writeFile(join(tasks, 'd-closed.json'), JSON.stringify(record), { mode: 0o000 });
  await chmod(join(tasks, 'd-closed.json'), 0o000);
  run = startEpoch(['mcp', 'tasks', '--json'], { EPOCH_HOME: home });
  const { code, out } = await run.done;
  expect(code).toBe(0);
  const ids = (JSON.parse(out) as McpTaskRecord[]).map(({ taskId }) => taskId);
  // Root reads the 0000 file anyway; anyone else passes over it.
  expect(ids[0]).toBe('task-real-1');
  expect(ids.every((id) => id === 'task-real-1')).toBe(true);
});

it("ids a start names several of are shown escaped: a record's line feed starts no line of its own", async () => {
  const tasks = join(home, 'tasks');
  const record = (taskId: string): McpTaskRecord => ({
    server: 'remote',
    tool: 'work',
    taskId,
    era: 'modern',
    startedAt: new Date().toISOString(),
    status: 'working',
    updatedAt: new Date().toISOString(),
    pid: process.pid,
  });
  for (const [name, id] of [
    ['e1.json', 'evil\nepoch mcp tasks: fake one\u001b]0;title\u0007'],
    ['e2.json', 'evil\nepoch mcp tasks: fake two'],
  ] as const) {
    await writeFile(join(tasks, name), JSON.stringify(record(id)), { mode: 0o600 });
  }
  run = startEpoch(['mcp', 'tasks', 'show', 'evil'], { EPOCH_HOME: home });
  const { code, err } = await run.done;
  expect(code).toBe(2);
  expect(err).toContain('"evil" starts 2 tasks\' ids');
  expect(err).not.toMatch(/^epoch mcp tasks: fake/m);
  expect(err).not.toContain('\u001b');
});

it('ids with one long common start are shown as far as tells them apart, and each shown start finds its task', async () => {
  const tasks = join(home, 'tasks');
  await rm(tasks, { recursive: true, force: true });
  await mkdir(tasks, { mode: 0o700 });
  const ids = ['task-32064-1733500000001', 'task-32064-1733500000002', 'other-task'];
  for (const [index, taskId] of ids.entries()) {
    const record: McpTaskRecord = {
      server: 'remote',
      tool: 'work',
      taskId,
      era: 'modern',
      startedAt: new Date(Date.now() + index).toISOString(),
      status: 'working',
      updatedAt: new Date().toISOString(),
      pid: process.pid,
    };
    await writeFile(join(tasks, `f${index}.json`), JSON.stringify(record), { mode: 0o600 });
  }
  run = startEpoch(['mcp', 'tasks'], { EPOCH_HOME: home });
  const { code, out } = await run.done;
  expect(code).toBe(0);
  const shown = out
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/)[0])
    .filter((id): id is string => id !== undefined && id !== '');
  // Told apart only by their last digit: shown whole; a short id is shown whole too.
  expect(shown).toEqual(ids);
});

it('a record past its time in a directory it may not write is said on stderr; the others are listed', async () => {
  const unwritable = join(dir, 'unwritable');
  const tasks = join(unwritable, 'tasks');
  await mkdir(tasks, { recursive: true });
  const record = (taskId: string, ttlMs: number): McpTaskRecord => ({
    server: 'remote',
    tool: 'work',
    taskId,
    era: 'modern',
    startedAt: new Date(Date.now() - 60 * 60_000).toISOString(),
    status: 'working',
    updatedAt: new Date().toISOString(),
    pid: process.pid,
    ttlMs,
  });
  await writeFile(join(tasks, 'live.json'), JSON.stringify(record('task-live', 24 * 60 * 60_000)));
  await writeFile(join(tasks, 'past.json'), JSON.stringify(record('task-past', 60_000)));
  // Root ignores modes: as root the command runs as nobody, for whom the directory stays root's
  // (0755, its files readable); anyone else has it made 0500 for the run.
  const root = process.getuid?.() === 0;
  for (const path of [dir, unwritable]) await chmod(path, 0o755);
  await chmod(tasks, root ? 0o755 : 0o500);
  for (const name of ['live.json', 'past.json']) await chmod(join(tasks, name), 0o644);
  try {
    run = startEpoch(
      ['mcp', 'tasks', '--json'],
      { EPOCH_HOME: unwritable },
      root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [],
    );
    const { code, out, err } = await run.done;
    // Before, the EACCES of the one file failed the whole command, and no task was listed.
    expect(err).toBe(
      `epoch mcp tasks: warning: The task record ${join(tasks, 'past.json')} is past its time but could not be removed (EACCES): it is left out of the list of tasks. Check that ${tasks} can be written (its owner and mode; not a read-only file system), or remove the file yourself.\n`,
    );
    expect(code).toBe(0);
    expect((JSON.parse(out) as McpTaskRecord[]).map(({ taskId }) => taskId)).toEqual(['task-live']);
    expect((await readdir(tasks)).sort()).toEqual(['live.json', 'past.json']);
  } finally {
    await chmod(tasks, 0o700);
    await chmod(dir, 0o700);
  }
});
