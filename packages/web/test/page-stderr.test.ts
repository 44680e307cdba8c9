// A server that fails at start after a long, coloured stderr, on the connectors page in real
// Chromium: the tail is shown without its terminal escapes, in a box that scrolls rather than
// pushing the page down, and the card says how the process ended.
import { rawControls } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry } from './web-helpers.js';

const NOISY_SERVER = new URL('./fixtures/noisy-failing-server.mjs', import.meta.url).pathname;
const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({ servers: { noisy: fixtureEntry(NOISY_SERVER) } });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('the stderr tail of a failed server', () => {
  it('is shown without terminal escapes, scrolls inside about 20 lines, and the card says the exit code', async () => {
    const noisy = page.locator('article[data-server="noisy"][data-state="failed"]');
    await noisy.waitFor(WAIT);
    await openCard(page, 'noisy');
    const pre = noisy.locator('.stderr pre');
    const text = (await pre.textContent()) ?? '';
    expect(text).toContain('\n1970-01-01T00:00:00.000Z line 60\nerror: the database is locked');
    expect(text).not.toContain('\\x1b');
    expect(text).not.toContain('[31m');
    expect(text).not.toContain('noisy-server');
    expect(rawControls(text)).toEqual([]);

    // The box around the text scrolls (one focusable region); its lines are the text's.
    const box = await noisy
      .locator('.stderr pre')
      .locator('xpath=..')
      .evaluate((element) => {
        const style = element.ownerDocument.defaultView?.getComputedStyle(element);
        const lineHeight = Number.parseFloat(style?.lineHeight ?? 'NaN');
        return {
          lines: element.clientHeight / lineHeight,
          scrolls: element.scrollHeight > element.clientHeight,
        };
      });
    expect(box.lines).toBeLessThanOrEqual(22);
    expect(box.scrolls).toBe(true);

    await expect(noisy.locator('.exit').textContent()).resolves.toBe(
      'The server exited with code 7.',
    );
    await checkPage(page, 'failed-server');
  });
});
