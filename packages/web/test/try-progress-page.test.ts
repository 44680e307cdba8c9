// "Try" shows a call's progress while it runs, in real Chromium against epoch web: the fixture
// server's `until_file` reports progress until the test creates its file, so the page is seen with
// the progress and without the result first, by event; then the result replaces it. Cancel during
// progress still reaches the server as notifications/cancelled.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureServerArgs, waitUntil } from '@epoch-agent/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry } from './web-helpers.js';

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;
let home: string;

beforeAll(async () => {
  home = process.env.EPOCH_HOME as string;
  session = await openPage({
    servers: {
      work: fixtureEntry(fixtureServerArgs('progress'), {
        env: { RECORD_FILE: join(home, 'work-messages.jsonl') },
      }),
    },
  });
  page = session.page;
  await session.web.settled();
});

afterAll(async () => {
  await session?.close();
});

async function untilFileForm(): Promise<Locator> {
  const card = page.locator('article[data-server="work"]');
  await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
  await openCard(page, 'work');
  const row = card.locator('li[data-tool="mcp__work__until_file"]');
  if (!(await row.isVisible())) await card.locator('details.tools > summary').click();
  await row.waitFor(WAIT);
  await row.locator('details.try > summary').click();
  const form = row.getByRole('form', { name: 'Try mcp__work__until_file' });
  await form.waitFor(WAIT);
  return form;
}

async function run(form: Locator, release: string): Promise<Locator> {
  await form.getByRole('textbox', { name: /^file/ }).fill(release);
  await form.getByRole('spinbutton', { name: /^every_ms/ }).fill('50');
  await form.getByRole('button', { name: 'Run' }).click();
  const bar = form.getByRole('progressbar', { name: 'Progress of the call' });
  await bar.waitFor(WAIT);
  return bar;
}

it('shows the progress and the server message while the call runs, then the result', async () => {
  const form = await untilFileForm();
  const release = join(home, 'release-progress');
  const bar = await run(form, release);
  // The count goes up report by report, with the server's words beside it.
  await expect
    .poll(async () => Number((await form.locator('.try-progress .count').textContent()) ?? 0), WAIT)
    .toBeGreaterThan(2);
  await expect(form.locator('.try-progress .message').textContent()).resolves.toBe(' waiting');
  await expect(form.locator('.result').count()).resolves.toBe(0);
  await checkPage(page, 'try-progress');
  await writeFile(release, '');
  await expect.poll(() => form.locator('.result').textContent(), WAIT).toContain('released');
  await expect(bar.count()).resolves.toBe(0);
});

it('cancel during progress: the server receives notifications/cancelled for that call', async () => {
  const form = page.getByRole('form', { name: 'Try mcp__work__until_file' });
  await run(form, join(home, 'never-released'));
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect
    .poll(() => form.getByRole('status').textContent(), WAIT)
    .toBe('Cancelled: the server was told to stop the call.');
  await waitUntil(async () => {
    const text = await readFile(join(home, 'work-messages.jsonl'), 'utf8');
    return text.includes('"method":"notifications/cancelled"') ? true : undefined;
  }, 'notifications/cancelled at the server');
});
