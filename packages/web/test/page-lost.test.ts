// The connectors page in real Chromium after epoch web stops: the banner says the live view is
// lost, and no card goes on claiming a state it can no longer know (a green "connected" under
// "lost the connection" reads as if all were well).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, FAILING_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({
    servers: { words: fixtureEntry(ANNOTATED_SERVER), broken: fixtureEntry(FAILING_SERVER) },
  });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('when epoch web stops', () => {
  it('every card says its state is unknown and which it last knew, in words', async () => {
    const words = page.locator('article[data-server="words"]');
    const broken = page.locator('article[data-server="broken"]');
    await words.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await broken.and(page.locator('[data-state="failed"]')).waitFor(WAIT);
    await expect(words.locator('.state').textContent()).resolves.toBe('connected');
    await checkPage(page, 'connected');

    await session.web.close();
    await page.locator('.banner', { hasText: 'Lost the connection' }).waitFor(WAIT);
    for (const [card, last] of [
      [words, 'connected'],
      [broken, 'failed'],
    ] as const) {
      await expect(card.locator('.state').textContent()).resolves.toBe('state unknown');
      await expect(card.locator('.head .detail').textContent()).resolves.toBe(
        `last known: ${last}`,
      );
      await expect(card.getAttribute('data-stale')).resolves.toBe('true');
    }
    await checkPage(page, 'lost-connection');
  });
});
