// Server names that differ only in case (`Everything` next to `everything`) would give the model
// two near-identical tool prefixes: the file's later entry is not loaded and its card says why,
// naming the other; the add form is refused with a message naming the server that has the name.
import { readFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const entry = JSON.stringify(fixtureEntry(ANNOTATED_SERVER));
const ORIGINAL = `{
  "servers": {
    "everything": ${entry},
    "Everything": ${entry}
  }
}
`;

let session: PageSession;
let file: string;

beforeAll(async () => {
  file = mcpConfigPath();
  session = await openPage(ORIGINAL);
});

afterAll(async () => {
  await session?.close();
});

describe('names that differ only in case, on the connectors page', () => {
  it('the later entry is a card saying it was not loaded and why; the form refuses a third', async () => {
    const { page } = session;
    const card = (name: string) => page.locator(`article[data-server="${name}"]`);
    await card('everything').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    const twin = card('Everything');
    await twin.and(page.locator('[data-state="notLoaded"]')).waitFor(WAIT);
    const said = (await twin.textContent()) ?? '';
    expect(said).toContain(`${file}:4:5`);
    expect(said).toContain('differs from "everything" (line 3) only in case');
    await expect(page.locator('article[data-server]').count()).resolves.toBe(2);
    await checkPage(page, 'name-case-not-loaded');

    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('input[name="name"]').fill('EVERYTHING');
    await form.locator('input[name="target"]').fill(`${process.execPath} -v`);
    await form.locator('button[type="submit"]').click();
    const nameError = form
      .locator('input[name="name"]')
      .locator('xpath=../following-sibling::p[1]');
    await expect.poll(() => nameError.textContent(), WAIT).toContain('differs only in case');
    await expect(nameError.textContent()).resolves.toContain('"everything"');
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });
});
