// `epoch mcp tasks` against a real 2026-07-28 task server over Streamable HTTP, with real `epoch`
// processes: `epoch mcp call` of a task tool is killed (SIGKILL) mid-task; a second `epoch` lists
// the task from its record, follows it to its result (`show`), and cancels another (`cancel`),
// which the server sees; a cancel of a task that has already completed says so (1), a task its
// server no longer knows is removed with its record (1), and a record past the time its server
// keeps the task is no longer listed.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpTaskRecord } from '@epoch-agent/runtime';
import {
  EVERYTHING_ENTRY,
  type RunningModernServer,
  startModernHttp,
  TASK_SERVER,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { epoch, startEpoch } from './epoch-process.js';

let dir: string;
let home: string;
let file: string;
let record: string;
let server: RunningModernServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-mcp-tasks-'));
  home = join(dir, 'home');
  file = join(dir, 'mcp.json');
  record = join(dir, 'record.jsonl');
  server = await startModernHttp([], { RECORD_FILE: record }, TASK_SERVER);
  await writeFile(
    file,
    JSON.stringify({
      servers: {
        tasks: { type: 'http', url: server.url },
        everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
      },
    }),
  );
});

afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Starts `epoch mcp call tasks work` of `steps` steps and kills it once its task is recorded. */
async function killedCall(steps: number): Promise<void> {
  const run = startEpoch(
    [
      'mcp',
      'call',
      '--config',
      file,
      'tasks',
      'work',
      '--args',
      JSON.stringify({ steps, stepMs: 100 }),
    ],
    { EPOCH_HOME: home },
  );
  try {
    await waitUntil(async () => {
      const listed = await epoch(['mcp', 'tasks', '--json'], { EPOCH_HOME: home });
      return JSON.parse(listed.out).length > recordsBefore;
    }, 'the call to record its task');
  } finally {
    run.child.kill('SIGKILL');
    await run.done;
  }
  recordsBefore += 1;
}
let recordsBefore = 0;

async function records(): Promise<McpTaskRecord[]> {
  return JSON.parse((await epoch(['mcp', 'tasks', '--json'], { EPOCH_HOME: home })).out);
}

/** The task records' files as written (`records()` lists only those not yet past their ttl). */
async function recordTexts(): Promise<string[]> {
  const files = await readdir(join(home, 'tasks'));
  return Promise.all(files.map((name) => readFile(join(home, 'tasks', name), 'utf8')));
}

it("a killed call's task is listed, then followed to its result by a second epoch", async () => {
  await killedCall(10);
  const listed = await epoch(['mcp', 'tasks'], { EPOCH_HOME: home });
  expect(listed.code).toBe(0);
  expect(listed.out).toMatch(/ID\s+SERVER\s+TOOL\s+STATUS\s+STARTED\s+PID/);
  expect(listed.out).toMatch(/tasks\s+work\s+working\s+\S+\s+\d+ \(gone\)/);
  const [task] = await records();
  const shown = await epoch(
    ['mcp', 'tasks', 'show', '--config', file, (task?.taskId ?? '').slice(0, 14)],
    {
      EPOCH_HOME: home,
    },
  );
  expect(shown.err).toBe('');
  expect(shown.code).toBe(0);
  expect(shown.out).toContain('done 10');
  expect((await records())[0]?.status).toBe('completed');
});

it("a killed call's task is cancelled by a second epoch: the server saw tasks/cancel", async () => {
  await killedCall(300);
  const task = (await records()).find(({ status }) => status === 'working');
  const cancelled = await epoch(['mcp', 'tasks', 'cancel', '--config', file, task?.taskId ?? ''], {
    EPOCH_HOME: home,
  });
  expect(cancelled.code).toBe(0);
  expect(cancelled.out).toContain(`Cancelled task ${task?.taskId} of tasks (tool work).`);
  const events = (await readFile(record, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(events).toContainEqual({ cancelled: task?.taskId });
});

it('an id that names no task is a usage error (2) saying so', async () => {
  const run = await epoch(['mcp', 'tasks', 'show', 'nothing-like-it'], { EPOCH_HOME: home });
  expect(run.code).toBe(2);
  expect(run.err).toContain('no task "nothing-like-it" is recorded');
});

it("tools marks the reference server's task tool, and call runs it to its report", async () => {
  const tools = await epoch(['mcp', 'tools', '--config', file, 'everything'], { EPOCH_HOME: home });
  expect(tools.err).toBe('');
  expect(tools.code).toBe(0);
  expect(tools.out).toMatch(/mcp__everything__simulate-research-query.*\[task\]/);
  expect(tools.out).not.toMatch(/mcp__everything__echo.*\[task\]/);
  const call = await epoch(
    [
      'mcp',
      'call',
      '--config',
      file,
      'everything',
      'simulate-research-query',
      '--arg',
      'topic=tides',
    ],
    { EPOCH_HOME: home },
  );
  expect(call.code).toBe(0);
  expect(call.out).toContain('# Research Report: tides');
});

it("tools marks a 2026-07-28 server's task tools from its list, and not its other tools", async () => {
  const tools = await epoch(['mcp', 'tools', '--config', file, 'tasks'], { EPOCH_HOME: home });
  expect(tools.err).toBe('');
  expect(tools.code).toBe(0);
  expect(tools.out).toMatch(/mcp__tasks__work.*\[task\]/);
  expect(tools.out).toMatch(/mcp__tasks__count.*\[task\]/);
  expect(tools.out).toMatch(/mcp__tasks__plain/);
  expect(tools.out).not.toMatch(/mcp__tasks__plain.*\[task\]/);
});

it('Ctrl-C of epoch mcp call of a task tool cancels the task on the server (exit 130)', async () => {
  // Counted before the call starts: its record may be written before a later count.
  const before = (await records()).length;
  const run = startEpoch(
    [
      'mcp',
      'call',
      '--config',
      file,
      'tasks',
      'work',
      '--args',
      JSON.stringify({ steps: 300, stepMs: 100 }),
    ],
    { EPOCH_HOME: home },
  );
  try {
    await waitUntil(async () => (await records()).length > before, 'the call to record its task');
  } catch (error) {
    run.child.kill('SIGKILL');
    const { err } = await run.done;
    throw new Error(`${(error as Error).message}; epoch said: ${err}`);
  }
  run.child.kill('SIGINT');
  const done = await run.done;
  expect(done.code).toBe(130);
  const task = (await records()).at(-1);
  const events = (await readFile(record, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(events).toContainEqual({ cancelled: task?.taskId });
  expect(task?.status).toBe('cancelled');
  expect(done.err).toContain(`the server was sent tasks/cancel for its task "${task?.taskId}".`);
  expect(done.err).not.toContain('notifications/cancelled');
});

it('a call of a task tool past max_total_timeout: its task is sent tasks/cancel, and the advice comes once (1)', async () => {
  const limited = join(dir, 'limited.json');
  await writeFile(
    limited,
    JSON.stringify({
      servers: { limited: { type: 'http', url: server.url, timeout: 2, max_total_timeout: 2.5 } },
    }),
  );
  const call = await epoch(
    ['mcp', 'call', '--config', limited, 'limited', 'work', '--args', '{"steps":600,"stepMs":100}'],
    { EPOCH_HOME: home },
  );
  expect(call.code).toBe(1);
  const task = (await records()).find(({ server }) => server === 'limited');
  const events = (await readFile(record, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(events).toContainEqual({ cancelled: task?.taskId });
  expect(call.err).toContain(
    `did not finish within its total limit of 2500 ms ("max_total_timeout") and was cancelled: the server was sent tasks/cancel for its task "${task?.taskId}".`,
  );
  // The advice is the front end's, naming the file and line; the message itself names no file.
  expect(call.err.match(/raise "max_total_timeout"/g)).toEqual(['raise "max_total_timeout"']);
  expect(call.err).toContain(`raise "max_total_timeout" for it at ${limited}:1.`);
  expect(call.err.split(limited)).toHaveLength(2);
});

it('cancel of a task that has already completed says so, naming server and task, and exits 1', async () => {
  const call = await epoch(
    ['mcp', 'call', '--config', file, 'tasks', 'work', '--args', '{"steps":1,"stepMs":10}'],
    { EPOCH_HOME: home },
  );
  expect(call.code).toBe(0);
  const task = (await records()).at(-1);
  expect(task?.status).toBe('completed');
  const id = task?.taskId ?? '';
  const said = `Task "${id}" of MCP server "tasks" had already completed, its server says: nothing was cancelled.`;
  const cancel = await epoch(['mcp', 'tasks', 'cancel', '--config', file, id], {
    EPOCH_HOME: home,
  });
  expect({ code: cancel.code, out: cancel.out }).toEqual({ code: 1, out: '' });
  expect(cancel.err).toContain(said);
  const json = await epoch(['mcp', 'tasks', 'cancel', '--config', file, '--json', id], {
    EPOCH_HOME: home,
  });
  expect(json.code).toBe(1);
  expect(JSON.parse(json.err)).toMatchObject({
    error: { code: 'task_ended', exit: 1, message: expect.stringContaining(said) },
  });
  const events = (await readFile(record, 'utf8')).split('\n').filter(Boolean);
  expect(events.map((line) => JSON.parse(line))).not.toContainEqual({ cancelled: id });
  expect((await records()).find(({ taskId }) => taskId === id)?.status).toBe('completed');
});

it("show of a task its server no longer knows (a stdio server's, its process gone) removes its record, saying so (1)", async () => {
  const stdio = join(dir, 'stdio.json');
  await writeFile(
    stdio,
    JSON.stringify({ servers: { local: { command: process.execPath, args: [TASK_SERVER] } } }),
  );
  const call = await epoch(
    ['mcp', 'call', '--config', stdio, 'local', 'work', '--args', '{"steps":1,"stepMs":10}'],
    { EPOCH_HOME: home },
  );
  expect(call.code).toBe(0);
  const task = (await records()).find(({ server }) => server === 'local');
  const id = task?.taskId ?? '';
  expect(task?.status).toBe('completed');
  const show = await epoch(['mcp', 'tasks', 'show', '--config', stdio, id], { EPOCH_HOME: home });
  expect(show.code).toBe(1);
  expect(show.err).toMatch(
    new RegExp(`MCP server "local" no longer knows task "${id}": .* Its record is removed\\.`),
  );
  expect((await records()).map(({ taskId }) => taskId)).not.toContain(id);
});

it('a record past the time its server said it keeps the task is no longer listed, and removed', async () => {
  const brief = await startModernHttp(['--ttl-ms=1000'], {}, TASK_SERVER);
  try {
    const config = join(dir, 'brief.json');
    await writeFile(
      config,
      JSON.stringify({ servers: { brief: { type: 'http', url: brief.url } } }),
    );
    const call = await epoch(
      ['mcp', 'call', '--config', config, 'brief', 'work', '--args', '{"steps":1,"stepMs":10}'],
      { EPOCH_HOME: home },
    );
    expect(call.code).toBe(0);
    // Read as the call wrote it: on a busy machine the second may be over before a listing runs.
    const written: McpTaskRecord[] = (await recordTexts()).map((text) => JSON.parse(text));
    const task = written.find(({ server }) => server === 'brief');
    expect(task).toMatchObject({ status: 'completed', ttlMs: 1000 });
    const expiry = Date.parse(task?.startedAt ?? '') + 1000;
    await waitUntil(() => Date.now() > expiry, 'the time the server keeps the task to pass');
    expect((await records()).map(({ server }) => server)).not.toContain('brief');
    expect((await recordTexts()).join('\n')).not.toContain(task?.taskId ?? '');
  } finally {
    await brief.stop();
  }
});
