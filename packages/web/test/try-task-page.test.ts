// "Try" of a tool the server runs as a task, in real Chromium against epoch web: testkit's
// task-server.mjs (2026-07-28, the tasks extension) over stdio. The task's steps come as the call's
// progress (the server's status messages), its result replaces them; Cancel while it runs sends
// tasks/cancel, which the server records; the tool row carries the "task" badge only for a tool
// marked so (the reference server's simulate-research-query). A question a task asks, of either
// revision (task-server's `work` with `ask`: in the task's state, answered with tasks/update; the
// reference server's ambiguous research query, 2025-11-25: through tasks/result), is the page's
// question dialog, and the answer shapes the result the Try shows (and the page's list of tasks
// shows again, fetched with tasks/result).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVERYTHING_ENTRY, TASK_SERVER, waitUntil } from '@epoch-agent/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;
let record: string;

beforeAll(async () => {
  record = join(process.env.EPOCH_HOME as string, 'tasks-record.jsonl');
  session = await openPage({
    servers: {
      tasks: fixtureEntry(TASK_SERVER, { env: { RECORD_FILE: record } }),
      everything: fixtureEntry([EVERYTHING_ENTRY, 'stdio']),
    },
  });
  page = session.page;
  await session.web.settled();
});

afterAll(async () => {
  await session?.close();
});

async function toolRow(server: string, tool: string): Promise<Locator> {
  const card = page.locator(`article[data-server="${server}"]`);
  await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
  await openCard(page, server);
  const row = card.locator(`li[data-tool="mcp__${server}__${tool}"]`);
  if (!(await row.isVisible())) await card.locator('details.tools > summary').click();
  await row.waitFor(WAIT);
  return row;
}

async function tryForm(server: string, tool: string): Promise<Locator> {
  const row = await toolRow(server, tool);
  const form = row.getByRole('form', { name: `Try mcp__${server}__${tool}` });
  if (!(await form.isVisible())) await row.locator('details.try > summary').click();
  await form.waitFor(WAIT);
  return form;
}

const workForm = () => tryForm('tasks', 'work');

async function run(form: Locator, steps: number, stepMs: number): Promise<void> {
  await form.getByRole('spinbutton', { name: /^steps/ }).fill(String(steps));
  await form.getByRole('spinbutton', { name: /^stepMs/ }).fill(String(stepMs));
  await form.getByRole('button', { name: 'Run' }).click();
}

it('a task tool runs in Try: its steps as progress, then its result', async () => {
  const form = await workForm();
  await run(form, 6, 150);
  await expect
    .poll(() => form.locator('.try-progress .message').textContent(), WAIT)
    .toMatch(/step \d of 6/);
  await expect.poll(() => form.locator('.result').textContent(), WAIT).toContain('done 6');
});

it("a 2026 task's question is the page's dialog; the answer goes back with tasks/update and shapes the result", async () => {
  const form = await workForm();
  await form.getByRole('combobox', { name: /^ask/ }).selectOption({ label: 'true' });
  await run(form, 2, 50);
  const dialog = page.getByRole('dialog', { name: 'tasks asks you' });
  await dialog.waitFor(WAIT);
  await expect(dialog.locator('.question-words').textContent()).resolves.toBe('What is your name?');
  await expect(dialog.locator('.question-who').textContent()).resolves.toContain('its tool "work"');
  await dialog.getByRole('textbox', { name: /^Name/ }).fill('Ada');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await dialog.waitFor({ state: 'hidden', ...WAIT });
  await expect.poll(() => form.locator('.result').textContent(), WAIT).toContain('hello Ada');
  const events = (await readFile(record, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const made = events.filter((event) => 'created' in event).at(-1)?.created;
  expect(events).toContainEqual({ update: made, actions: ['accept'] });
  await form.getByRole('combobox', { name: /^ask/ }).selectOption({ label: '— not given —' });
});

it("a 2025 task's question (the reference server's ambiguous research) is the page's dialog too", async () => {
  const form = await tryForm('everything', 'simulate-research-query');
  await form.getByRole('textbox', { name: /^topic/ }).fill('tides');
  await form.getByRole('combobox', { name: /^ambiguous/ }).selectOption({ label: 'true' });
  await form.getByRole('button', { name: 'Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'everything asks you' });
  await dialog.waitFor(WAIT);
  await expect(dialog.locator('.question-words').textContent()).resolves.toContain(
    'The research query "tides" could have multiple interpretations',
  );
  await dialog.getByRole('combobox', { name: /^Clarification/ }).selectOption({
    label: 'Historical perspective',
  });
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await dialog.waitFor({ state: 'hidden', ...WAIT });
  await expect
    .poll(() => form.locator('.result').textContent(), WAIT)
    .toContain('# Research Report: tides (historical)');
  // The task is listed once the Try ended, and its result fetched again with tasks/result.
  const entry = page.locator(
    'section.tasks li.task[data-server="everything"][data-status="completed"]',
  );
  await entry.waitFor(WAIT);
  await entry.getByRole('button', { name: /^Show result/ }).click();
  await expect
    .poll(() => entry.locator('.result').textContent(), WAIT)
    .toContain('# Research Report: tides (historical)');
});

it('Cancel while the task runs: the server receives tasks/cancel for it', async () => {
  const form = await workForm();
  await run(form, 300, 100);
  await expect
    .poll(() => form.locator('.try-progress .message').textContent(), WAIT)
    .toMatch(/step \d+ of 300/);
  await form.getByRole('button', { name: 'Cancel' }).click();
  await waitUntil(async () => {
    const events = (await readFile(record, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const made = events.filter((event) => 'created' in event).at(-1)?.created;
    return events.some((event) => event.cancelled === made) ? true : undefined;
  }, 'tasks/cancel at the server');
});

it("the task badge marks the reference server's task tool and no other", async () => {
  const research = await toolRow('everything', 'simulate-research-query');
  await expect(research.locator('.badge.task').textContent()).resolves.toBe('task');
  const echo = await toolRow('everything', 'echo');
  await expect(echo.locator('.badge.task').count()).resolves.toBe(0);
});
