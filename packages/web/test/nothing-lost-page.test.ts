// Nothing the user wrote is lost, in real Chromium against epoch web with a real server: two pages
// editing one entry, and a hand edit made while an editor is open. The later save is refused (409,
// "changed since you opened it — reload"), the open editor says the file changed before it is
// saved, and Reload edits the entry as it is now. A switch used from a view the file has moved on
// from is refused the same way; a switch keeps focus through its change, and a second Space turns
// it back.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let chromium: Chromium;
let web: TestWeb;
let file: string;

const original = () =>
  `${JSON.stringify({ servers: { words: fixtureEntry(ANNOTATED_SERVER) } }, null, 2)}\n`;

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, original());
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
});

afterAll(async () => {
  await chromium?.close();
  await web?.close();
});

async function openPage(): Promise<Page> {
  const page = await chromium.context.newPage();
  await page.goto(web.url);
  await page
    .locator('article[data-server="words"]')
    .and(page.locator('[data-state="connected"]'))
    .waitFor(WAIT);
  return page;
}

/** Opens the card of words on `page`, then its editor: its textarea. */
async function openEditor(page: Page): Promise<Locator> {
  const card = await openCard(page, 'words');
  await card.getByRole('button', { name: 'Edit JSON' }).click();
  const editor = card.locator('textarea[name="entry"]');
  await editor.waitFor(WAIT);
  return editor;
}

const hasFocus = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);
const scrollOf = (page: Page) =>
  page.locator('html').evaluate((html) => html.ownerDocument.defaultView?.scrollY);

/** The entry's text with a comment line put in after its opening brace. */
const withComment = (text: string, comment: string) => text.replace('{', `{\n  // ${comment}`);

describe('two pages and a hand edit', () => {
  it('the second save of one entry is refused, the open editor says so first, and Reload edits it as it is now', async () => {
    await writeFile(file, original());
    const [first, second] = [await openPage(), await openPage()];
    try {
      const firstEditor = await openEditor(first);
      const secondEditor = await openEditor(second);
      await secondEditor.fill(withComment(await secondEditor.inputValue(), 'from the second page'));
      await second.getByRole('button', { name: 'Save' }).click();
      await second.getByText('Saved the entry of words').waitFor(WAIT);
      expect(await readFile(file, 'utf8')).toContain('// from the second page');

      // The first page's editor learns it before saving.
      const firstCard = first.locator('article[data-server="words"]');
      await firstCard.getByText('changed since you opened it').waitFor(WAIT);
      await checkPage(first, 'entry-changed-since-opened');
      await firstEditor.fill(withComment(await firstEditor.inputValue(), 'from the first page'));
      await first.getByRole('button', { name: 'Save' }).click();
      const refusal = firstCard.locator('.problem', { hasText: 'was not changed' });
      await refusal.waitFor(WAIT);
      expect(await refusal.textContent()).toContain('changed since you opened it — reload');
      const kept = await readFile(file, 'utf8');
      expect(kept).toContain('// from the second page');
      expect(kept).not.toContain('// from the first page');

      // Reload: the entry as the file has it, which saves.
      await firstCard.getByRole('button', { name: 'Reload' }).click();
      await expect.poll(() => firstEditor.inputValue(), WAIT).toContain('// from the second page');
      await firstEditor.fill(withComment(await firstEditor.inputValue(), 'from the first page'));
      await first.getByRole('button', { name: 'Save' }).click();
      await first.getByText('Saved the entry of words').waitFor(WAIT);
      const both = await readFile(file, 'utf8');
      expect(both).toContain('// from the second page');
      expect(both).toContain('// from the first page');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a hand edit made while the editor is open is shown, and the save that would erase it refused', async () => {
    await writeFile(file, original());
    const page = await openPage();
    try {
      const editor = await openEditor(page);
      const card = page.locator('article[data-server="words"]');
      const byHand = (await readFile(file, 'utf8')).replace(
        '"words": {',
        '"words": {\n      // written by hand',
      );
      await writeFile(file, byHand);
      await card.getByText('changed since you opened it').waitFor(WAIT);
      await editor.fill(withComment(await editor.inputValue(), 'from the page'));
      await page.getByRole('button', { name: 'Save' }).click();
      await card
        .locator('.problem', { hasText: 'changed since you opened it — reload' })
        .waitFor(WAIT);
      expect(await readFile(file, 'utf8')).toBe(byHand);
    } finally {
      await page.close();
    }
  });

  it('a PUT of the entry without what it was based on is refused, naming the server', async () => {
    const entry = (await (await web.api('/api/mcp/words/entry')).json()) as { text: string };
    const put = await web.api('/api/mcp/words/entry', {
      method: 'PUT',
      json: { text: entry.text },
    });
    expect(put.status).toBe(400);
    expect(await put.text()).toContain('Server \\"words\\" was not changed');
  });

  it('a switch used from a view the file has moved on from is refused, and the file kept', async () => {
    await writeFile(file, original());
    await web.viewWhen((view) => view.groups.user[0]?.status?.state === 'connected');
    // By hand: the tool turned off. A page that still showed it on turns it off: refused.
    const byHand = original().replace('"args"', '"exclude_tools": ["lookup"],\n    "args"');
    await writeFile(file, byHand);
    await web.viewWhen((view) => view.groups.user[0]?.toolsOff.length === 1);
    const put = await web.api('/api/mcp/words/tools/lookup/enabled', {
      method: 'PUT',
      json: { enabled: false, shown: true },
    });
    expect(put.status).toBe(409);
    const body = (await put.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('changed_since');
    expect(body.error.message).toContain('server "words"');
    expect(body.error.message).toContain('reload');
    expect(await readFile(file, 'utf8')).toBe(byHand);
    // From what the file says, it is done.
    const done = await web.api('/api/mcp/words/tools/lookup/enabled', {
      method: 'PUT',
      json: { enabled: true, shown: false },
    });
    expect(done.status).toBe(200);
    await writeFile(file, original());
  });
});

describe('switches keep focus', () => {
  for (const [what, label] of [
    ['a tool', 'Tool lookup of words'],
    ['a server', 'Server words'],
  ] as const) {
    it(`Space on ${what}'s switch keeps focus on it, and a second Space turns it back`, async () => {
      await writeFile(file, original());
      const page = await openPage();
      try {
        if (what === 'a tool') {
          const card = await openCard(page, 'words');
          await card.locator('summary', { hasText: 'Tools (2)' }).click();
        }
        const toggle = page.getByRole('switch', { name: label, exact: true });
        await toggle.focus();
        const before = await toggle.getAttribute('aria-checked');
        const after = before === 'true' ? 'false' : 'true';
        await page.keyboard.press('Space');
        await page
          .locator(
            `[role="switch"][aria-label="${label}"][aria-busy="false"][aria-checked="${after}"]`,
          )
          .waitFor(WAIT);
        await page
          .getByText(/Saved in .*line/)
          .first()
          .waitFor(WAIT);
        expect(await hasFocus(toggle)).toBe(true);
        const scrolled = await scrollOf(page);
        await page.keyboard.press('Space');
        await page
          .locator(
            `[role="switch"][aria-label="${label}"][aria-busy="false"][aria-checked="${before}"]`,
          )
          .waitFor(WAIT);
        expect(await scrollOf(page)).toBe(scrolled);
        expect(await hasFocus(toggle)).toBe(true);
        // Off then on gives back the file's bytes.
        await expect.poll(() => readFile(file, 'utf8'), WAIT).toBe(original());
      } finally {
        await page.close();
      }
    });
  }
});
