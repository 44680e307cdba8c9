// The "Add a server" form in real Chromium, at a device pixel ratio of 1 (the launch's default,
// where a clipped glyph shows): each field's error goes once that field is valid, and what is typed
// is drawn whole, underscores included.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({ servers: { words: fixtureEntry(ANNOTATED_SERVER) } });
  ({ page } = session);
  await page.locator('article[data-server="words"]').waitFor(WAIT);
});

afterAll(async () => {
  await session?.close();
});

/**
 * The error shown under `input` (the paragraph after its label, past the command's "epoch will
 * run" words), or null when there is none.
 */
async function errorUnder(input: Locator): Promise<string | null> {
  const next = input.locator('xpath=../following-sibling::*[not(contains(@class, "words"))][1]');
  return (await next.getAttribute('class')) === 'field-error' ? next.textContent() : null;
}

describe('the add form', () => {
  it("a field's error goes as soon as the field is valid; the others stay until theirs are", async () => {
    const form = (await openPanel(page, 'Add server')).locator('form');
    const name = form.locator('input[name="name"]');
    const target = form.locator('input[name="target"]');
    await name.fill('my server');
    await target.fill('');
    await form.locator('button[type="submit"]').click();
    await expect(errorUnder(name)).resolves.toContain('Only letters, digits');
    await expect(errorUnder(target)).resolves.toBe('Give the command that starts the server.');
    await checkPage(page, 'add-form-errors');

    await target.fill('npx -y node_modules/my_server');
    await form.locator('.words').waitFor(WAIT);
    // The command is valid now: what epoch will run, and no error under it.
    await expect(errorUnder(target)).resolves.toBeNull();
    await expect(target.getAttribute('aria-invalid')).resolves.toBe('false');
    await expect(errorUnder(name)).resolves.toContain('Only letters, digits');

    // An edit that leaves a field invalid keeps its error (with what is wrong now).
    await name.fill('my server 2');
    await expect(errorUnder(name)).resolves.toContain('(mcp__my server 2__…)');
    await name.fill('my_server');
    await expect(errorUnder(name)).resolves.toBeNull();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('false');

    await target.fill('npx "unclosed');
    await expect(errorUnder(target)).resolves.toMatch(/\S/);
  });

  it('every text input draws underscores at a device pixel ratio of 1 (node_modules does not read as "node modules")', async () => {
    await expect(page.evaluate('window.devicePixelRatio')).resolves.toBe(1);
    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('button', { hasText: 'Add a variable' }).click();
    const inputs = [
      form.locator('input[name="name"]'),
      form.locator('input[name="target"]'),
      form.locator('input[aria-label="Variable name"]'),
    ];
    for (const input of inputs) {
      // The same width in any font, so the only difference can be the underscores' pixels.
      await input.fill(' '.repeat(12));
      const blank = await input.screenshot();
      await input.fill('_'.repeat(12));
      const underscores = await input.screenshot();
      expect(
        underscores.equals(blank),
        `underscores in ${(await input.getAttribute('name')) ?? 'the variable name'} drew nothing`,
      ).toBe(false);
    }
  });
});
