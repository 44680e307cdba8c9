// The page's list of recorded tasks, in real Chromium against epoch web and testkit's 2026-07-28
// task server over Streamable HTTP (its tasks outlive the process that made them): a task a Try ran
// is listed once the Try ends, as this epoch web's, and Show result shows its result; a killed
// `epoch mcp call`'s task is listed as gone, and Show result follows it to its end with its steps
// as progress; Cancel of another, idle or being followed, sends tasks/cancel, which the server saw,
// and the row says so; Cancel of one that has since completed on its server is refused with the
// server's word, nothing sent, and the row then says completed; a task whose record was removed since the list was read is refused, said
// above the list with what to do, and the list read again without it.
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { McpClient } from '@epoch-agent/plugin-mcp';
import {
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  TASK_SERVER,
  waitUntil,
} from '@epoch-agent/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { killedTaskCall, serverEvents } from './task-helpers.js';

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let server: RunningModernServer;
let session: PageSession;
let page: Page;
let record: string;

beforeAll(async () => {
  record = join(process.env.EPOCH_HOME as string, 'task-server-record.jsonl');
  server = await startModernHttp([], { RECORD_FILE: record }, TASK_SERVER);
  session = await openPage({ servers: { tasks: { type: 'http', url: server.url } } });
  page = session.page;
  await session.web.settled();
});

afterAll(async () => {
  await session?.close();
  await server?.stop();
});

/** The list's entry of task `taskId`, once it is listed. */
async function taskEntry(taskId: string): Promise<Locator> {
  const entry = page.locator(`section.tasks li.task[data-task="${taskId}"]`);
  await entry.waitFor(WAIT);
  return entry;
}

const reload = () => page.locator('section.tasks').getByRole('button', { name: 'Reload' }).click();

it("a task a Try ran is listed once the Try ends, as this epoch web's; Show result shows its result", async () => {
  const card = await openCard(page, 'tasks');
  const row = card.locator('li[data-tool="mcp__tasks__work"]');
  if (!(await row.isVisible())) await card.locator('details.tools > summary').click();
  await row.locator('details.try > summary').click();
  const form = row.getByRole('form', { name: 'Try mcp__tasks__work' });
  await form.getByRole('spinbutton', { name: /^steps/ }).fill('2');
  await form.getByRole('spinbutton', { name: /^stepMs/ }).fill('20');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => form.locator('.result').textContent(), WAIT).toContain('done 2');

  // Listed without a Reload: the list is read again when a call of the page ends.
  const entry = page.locator('section.tasks li.task[data-status="completed"]');
  await entry.waitFor(WAIT);
  await expect(entry.locator('.task-line').textContent()).resolves.toMatch(
    /^work of tasks: completed · started .+ by this epoch web$/,
  );
  const taskId = (await entry.getAttribute('data-task')) ?? '';
  expect(taskId).toMatch(/^task-\d+-\d+$/);
  await expect(entry.locator('.task-id code').textContent()).resolves.toBe(taskId);
  // An ended task has nothing to cancel.
  await expect(entry.getByRole('button', { name: /^Cancel/ }).count()).resolves.toBe(0);

  await entry.getByRole('button', { name: `Show result of task ${taskId} of tasks` }).click();
  await expect.poll(() => entry.locator('.result').textContent(), WAIT).toBe('done 2');
  await checkPage(page, 'tasks-result');
});

it("a killed epoch's task is listed as gone; Show result follows it to its end, its steps as progress", async () => {
  const made = await killedTaskCall(session.web, mcpConfigPath(), 'tasks', {
    steps: 40,
    stepMs: 100,
  });
  await reload();
  const entry = await taskEntry(made.taskId);
  await expect
    .poll(() => entry.locator('.task-starter').textContent(), WAIT)
    .toMatch(/^by process \d+, now gone$/);
  await expect(entry.getAttribute('data-status')).resolves.toBe('working');

  await entry.getByRole('button', { name: /^Show result/ }).click();
  await expect
    .poll(() => entry.locator('.try-progress .message').textContent(), WAIT)
    .toMatch(/step \d+ of 40/);
  await expect.poll(() => entry.locator('.result').textContent(), WAIT).toBe('done 40');
  await expect.poll(() => entry.getAttribute('data-status'), WAIT).toBe('completed');
});

it("Cancel of a killed epoch's task: the server saw tasks/cancel, and the entry says it is cancelled", async () => {
  const made = await killedTaskCall(session.web, mcpConfigPath(), 'tasks', {
    steps: 300,
    stepMs: 100,
  });
  await reload();
  const entry = await taskEntry(made.taskId);
  await entry.getByRole('button', { name: `Cancel task ${made.taskId} of tasks` }).click();
  await expect
    .poll(() => entry.locator('.notice').textContent(), WAIT)
    .toBe('Cancelled: the server was sent tasks/cancel.');
  expect(await serverEvents(record)).toContainEqual({ cancelled: made.taskId });
  await expect.poll(() => entry.getAttribute('data-status'), WAIT).toBe('cancelled');
  await expect(entry.locator('.task-status').textContent()).resolves.toBe('cancelled');
  // Nothing left to do with it: neither Show result nor Cancel.
  await expect(entry.getByRole('button').count()).resolves.toBe(0);
});

it('Cancel of a task being followed: the server saw tasks/cancel, and the following ends there', async () => {
  const made = await killedTaskCall(session.web, mcpConfigPath(), 'tasks', {
    steps: 300,
    stepMs: 100,
  });
  await reload();
  const entry = await taskEntry(made.taskId);
  await entry.getByRole('button', { name: /^Show result/ }).click();
  await expect
    .poll(() => entry.locator('.try-progress .message').textContent(), WAIT)
    .toMatch(/step \d+ of 300/);
  await entry.getByRole('button', { name: `Cancel task ${made.taskId} of tasks` }).click();
  await expect
    .poll(() => entry.locator('.notice').textContent(), WAIT)
    .toBe('Cancelled: the server was sent tasks/cancel.');
  expect(await serverEvents(record)).toContainEqual({ cancelled: made.taskId });
  await expect.poll(() => entry.getAttribute('data-status'), WAIT).toBe('cancelled');
  await expect(entry.locator('.try-progress').count()).resolves.toBe(0);
  await expect(entry.locator('.problem').count()).resolves.toBe(0);
});

it("Cancel of a killed epoch's task that has since completed: the row says so, and the list shows it completed", async () => {
  const made = await killedTaskCall(session.web, mcpConfigPath(), 'tasks', {
    steps: 3,
    stepMs: 100,
  });
  await reload();
  const entry = await taskEntry(made.taskId);
  expect(await entry.getAttribute('data-status')).toBe('working');
  // Asked of the server by a client of this test's own, which writes no record: the record still
  // says working, as its killed process left it.
  const asker = new McpClient({ config: remoteConfig('tasks', 'http', server.url) });
  try {
    await asker.connect();
    await waitUntil(
      async () => (await asker.getTask(made.taskId)).status === 'completed',
      'the task to complete on its server',
    );
  } finally {
    await asker.close();
  }
  await entry.getByRole('button', { name: `Cancel task ${made.taskId} of tasks` }).click();
  await expect
    .poll(() => entry.locator('.problem').textContent(), WAIT)
    .toBe(
      `Task "${made.taskId}" of MCP server "tasks" had already completed, its server says: nothing was cancelled.`,
    );
  expect(await serverEvents(record)).not.toContainEqual({ cancelled: made.taskId });
  await expect.poll(() => entry.getAttribute('data-status'), WAIT).toBe('completed');
  // Nothing left to cancel; its result can still be shown.
  await expect(entry.getByRole('button', { name: /^Cancel/ }).count()).resolves.toBe(0);
});

it('a task whose record was removed since the list was read: Show result says so above the list, with what to do', async () => {
  const entry = page.locator('section.tasks li.task[data-status="completed"]').first();
  await entry.waitFor(WAIT);
  const taskId = (await entry.getAttribute('data-task')) ?? '';
  const records = join(process.env.EPOCH_HOME as string, 'tasks');
  for (const name of await readdir(records)) {
    const text = await readFile(join(records, name), 'utf8');
    if ((JSON.parse(text) as { taskId: string }).taskId === taskId) await rm(join(records, name));
  }
  await entry.getByRole('button', { name: /^Show result/ }).click();
  const said = page.locator('section.tasks > .problem');
  await expect
    .poll(() => said.locator('p').first().textContent(), WAIT)
    .toContain(`No task "${taskId}" of MCP server "tasks" is recorded`);
  await expect(said.locator('.hint').textContent()).resolves.toContain('its record is gone');
  await page
    .locator(`section.tasks li.task[data-task="${taskId}"]`)
    .waitFor({ state: 'detached', ...WAIT });
  await checkPage(page, 'tasks-record-gone');
});
