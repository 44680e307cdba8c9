// The routes of the page's list of tasks, over real HTTP against testkit's 2026-07-28 task server
// (the official server SDK, Streamable HTTP: its tasks outlive the process that made them): a task a
// Try made is listed as this epoch web's and its result fetched again; a task of a killed `epoch`
// process is listed as gone, followed to its end with its progress, and another one cancelled (the
// server saw tasks/cancel), and one that has already completed is refused (`task_ended`, nothing
// sent); a task no record names, a task of a server this config lacks, a request
// without the key and one from another origin are refused, each with its code.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { type RunningModernServer, startModernHttp, TASK_SERVER } from '@epoch-agent/testkit';
import type { ApiErrorBody, TaskCancelled, ToolCallAnswer } from '@epoch-agent/web';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killedTaskCall, listedTasks, serverEvents } from './task-helpers.js';
import { rawRequest, startTestWeb, type TestWeb } from './web-helpers.js';

let server: RunningModernServer;
let web: TestWeb;
let record: string;

beforeAll(async () => {
  record = join(process.env.EPOCH_HOME as string, 'task-server-record.jsonl');
  server = await startModernHttp([], { RECORD_FILE: record }, TASK_SERVER);
  await writeFile(
    mcpConfigPath(),
    JSON.stringify({ servers: { tasks: { type: 'http', url: server.url } } }),
  );
  web = await startTestWeb();
  await web.settled();
});

afterAll(async () => {
  await web?.close();
  await server?.stop();
});

const taskPath = (taskId: string) => `/api/tasks/tasks/${encodeURIComponent(taskId)}`;

const textOf = (answer: ToolCallAnswer) =>
  answer.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

it('a task a Try made is listed as started by this epoch web, and its result is fetched again', async () => {
  const call = await web.api('/api/mcp/tasks/tools/work/call', {
    method: 'POST',
    json: { arguments: { steps: 2, stepMs: 20 } },
  });
  expect(call.status, await call.clone().text()).toBe(200);
  expect(textOf((await call.json()) as ToolCallAnswer)).toBe('done 2');

  const [task, ...others] = await listedTasks(web);
  expect(others).toEqual([]);
  expect(task).toMatchObject({
    server: 'tasks',
    tool: 'work',
    era: 'modern',
    status: 'completed',
    startedBy: { kind: 'this' },
  });
  const again = await web.api(`${taskPath(task?.taskId ?? '')}/result`, { method: 'POST' });
  expect(again.status).toBe(200);
  expect(textOf((await again.json()) as ToolCallAnswer)).toBe('done 2');
});

it("a killed epoch's task is listed as gone and followed to its end, its steps as progress", async () => {
  const made = await killedTaskCall(web, mcpConfigPath(), 'tasks', { steps: 40, stepMs: 100 });
  expect(made.startedBy.kind).toBe('running');
  const gone = (await listedTasks(web)).find(({ taskId }) => taskId === made.taskId);
  expect(gone?.startedBy).toEqual({ kind: 'gone', pid: (made.startedBy as { pid: number }).pid });
  expect(gone?.status).toBe('working');

  const followed = await web.api(`${taskPath(made.taskId)}/result`, {
    method: 'POST',
    headers: { accept: 'application/x-ndjson' },
  });
  expect(followed.headers.get('content-type')).toContain('application/x-ndjson');
  const lines = (await followed.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { progress?: { message?: string } } | ToolCallAnswer);
  const last = lines.at(-1) as ToolCallAnswer;
  expect(textOf(last)).toBe('done 40');
  const messages = lines.flatMap((line) =>
    'progress' in line && line.progress?.message !== undefined ? [line.progress.message] : [],
  );
  expect(messages.some((message) => /^step \d+ of 40$/.test(message))).toBe(true);
  const after = (await listedTasks(web)).find(({ taskId }) => taskId === made.taskId);
  expect(after?.status).toBe('completed');
});

it("Cancel of a killed epoch's task: the server saw tasks/cancel for it, and its record says so", async () => {
  const made = await killedTaskCall(web, mcpConfigPath(), 'tasks', { steps: 300, stepMs: 100 });
  const cancelled = await web.api(`${taskPath(made.taskId)}/cancel`, { method: 'POST' });
  expect(cancelled.status).toBe(200);
  expect((await cancelled.json()) as TaskCancelled).toEqual({ status: 'cancelled' });
  expect(await serverEvents(record)).toContainEqual({ cancelled: made.taskId });
  const after = (await listedTasks(web)).find(({ taskId }) => taskId === made.taskId);
  expect(after?.status).toBe('cancelled');
});

it('Cancel of a task that has already completed: 409 task_ended naming it; no tasks/cancel sent', async () => {
  const call = await web.api('/api/mcp/tasks/tools/work/call', {
    method: 'POST',
    json: { arguments: { steps: 1, stepMs: 10 } },
  });
  expect(call.status, await call.clone().text()).toBe(200);
  const done = (await listedTasks(web)).at(-1);
  expect(done?.status).toBe('completed');
  const taskId = done?.taskId ?? '';
  const refused = await web.api(`${taskPath(taskId)}/cancel`, { method: 'POST' });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as ApiErrorBody).error).toMatchObject({
    code: 'task_ended',
    message: `Task "${taskId}" of MCP server "tasks" had already completed, its server says: nothing was cancelled.`,
  });
  expect(await serverEvents(record)).not.toContainEqual({ cancelled: taskId });
  const after = (await listedTasks(web)).find((task) => task.taskId === taskId);
  expect(after?.status).toBe('completed');
});

it('refuses a task no record names (naming it), a request without the key, and another origin', async () => {
  for (const action of ['result', 'cancel']) {
    const response = await web.api(`/api/tasks/tasks/no-such-task/${action}`, { method: 'POST' });
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as ApiErrorBody;
    expect(error.code).toBe('unknown_task');
    expect(error.message).toContain('No task "no-such-task" of MCP server "tasks" is recorded');
  }
  const keyless = await fetch(`${web.origin}/api/tasks`);
  expect(keyless.status).toBe(401);
  expect(((await keyless.json()) as ApiErrorBody).error.code).toBe('missing_token');

  const [task] = await listedTasks(web);
  const foreign = await rawRequest(web.port, {
    method: 'POST',
    path: `${taskPath(task?.taskId ?? '')}/cancel`,
    headers: {
      host: `127.0.0.1:${web.port}`,
      origin: 'http://evil.example',
      authorization: `Bearer ${web.token}`,
    },
  });
  expect(foreign.status).toBe(403);
  expect((JSON.parse(foreign.body) as ApiErrorBody).error.code).toBe('forbidden_origin');
});

it('refuses a recorded task of a server the config does not have, naming that server', async () => {
  const elsewhere = join(process.env.EPOCH_HOME as string, 'elsewhere.json');
  await writeFile(
    elsewhere,
    JSON.stringify({ servers: { elsewhere: { type: 'http', url: server.url } } }),
  );
  const made = await killedTaskCall(web, elsewhere, 'elsewhere', { steps: 1, stepMs: 10 });
  for (const action of ['result', 'cancel']) {
    const response = await web.api(
      `/api/tasks/elsewhere/${encodeURIComponent(made.taskId)}/${action}`,
      { method: 'POST' },
    );
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as ApiErrorBody;
    expect(error).toMatchObject({
      code: 'unknown_server',
      message: expect.stringContaining('"elsewhere"'),
    });
  }
});
