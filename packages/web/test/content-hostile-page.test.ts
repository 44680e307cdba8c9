// A server's resources and prompts on the connectors page in real Chromium, from a server that
// sends what a page must survive (fixtures/content-server.mjs): terminal escapes and a bidi
// override in every text, shown as visible escapes; a 3,000,000-character resource, cut to the
// API's bound; a PNG shown as an image through a data: URL the page's CSP allows; an SVG, which
// may carry script, given as its size and type only.
import { fileURLToPath } from 'node:url';
import { rawControls } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry } from './web-helpers.js';

const CONTENT_SERVER = fileURLToPath(new URL('./fixtures/content-server.mjs', import.meta.url));
const SHOWN =
  '\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\u202eevil\\u2066 Logged in';
const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({ servers: { content: fixtureEntry(CONTENT_SERVER) } });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('resources and prompts a server controls, on the connectors page', () => {
  it('shows hostile text as escapes, cuts a huge resource, shows a PNG and not an SVG', async () => {
    const card = page.locator('article[data-server="content"][data-state="connected"]');
    await card.waitFor(WAIT);
    await openCard(page, 'content');
    const resources = card.locator('details.resources');
    await resources.locator('summary').click();
    const row = (uri: string) => resources.locator(`li.resource[data-uri="${uri}"]`);

    await row('file:///hostile').waitFor(WAIT);
    await expect(row('file:///hostile').locator('.name').textContent()).resolves.toBe(
      `hostile ${SHOWN}`,
    );
    await row('file:///hostile').locator('button', { hasText: 'Read' }).click();
    const hostileText = row('file:///hostile').locator('pre.text');
    await hostileText.waitFor(WAIT);
    await expect(hostileText.textContent()).resolves.toBe(`said ${SHOWN}\nsecond line`);

    await row('file:///huge').getByRole('button', { name: 'Read huge' }).click();
    const huge = row('file:///huge').locator('pre.text');
    await huge.waitFor(WAIT);
    const hugeText = (await huge.textContent()) ?? '';
    expect(hugeText.startsWith('x'.repeat(100_000))).toBe(true);
    expect(hugeText.slice(100_000)).toBe('… [2,900,000 more characters not shown]');

    await row('file:///pixel').getByRole('button', { name: 'Read pixel' }).click();
    const image = row('file:///pixel').locator('img');
    await image.waitFor(WAIT);
    await expect(image.getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,iVBOR/);
    // Decoded: the CSP let the data: URL through.
    await expect(
      image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBe(1);

    await row('file:///drawing').getByRole('button', { name: 'Read drawing' }).click();
    const drawing = row('file:///drawing').locator('.result');
    await drawing.waitFor(WAIT);
    await expect(drawing.textContent()).resolves.toBe('Binary contents: 71 bytes, image/svg+xml.');
    await expect(drawing.locator('img').count()).resolves.toBe(0);

    const prompts = card.locator('details.prompts');
    await prompts.locator('summary').click();
    const prompt = prompts.locator('li.prompt[data-prompt="echo"]');
    await prompt.waitFor(WAIT);
    await prompt.locator('input[name="what"]').fill('hello');
    await prompt.getByRole('button', { name: 'Get echo' }).click();
    const message = prompt.locator('.messages li pre.text');
    await message.waitFor(WAIT);
    await expect(message.textContent()).resolves.toBe(`hello ${SHOWN}`);

    expect(rawControls((await card.textContent()) ?? '')).toEqual([]);
    await checkPage(page, 'hostile-content-shown');
  });
});
