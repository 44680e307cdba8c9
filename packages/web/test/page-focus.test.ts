// Focus and announcements on the connectors page in real Chromium, driven by the keyboard as a
// person without a mouse would: focus never drops to <body> when what held it changes or goes away,
// Escape cancels a remove, and server states are announced when they change, not all at load.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, FAILING_SERVER, fixtureEntry, removeAsRead } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({
    servers: {
      alpha: fixtureEntry(ANNOTATED_SERVER),
      beta: fixtureEntry(ANNOTATED_SERVER),
      gamma: fixtureEntry(ANNOTATED_SERVER),
      'broken-1': fixtureEntry(FAILING_SERVER),
      'broken-2': fixtureEntry(FAILING_SERVER),
      'broken-3': fixtureEntry(FAILING_SERVER),
    },
  });
  ({ page } = session);
  for (const name of ['alpha', 'beta', 'gamma']) {
    await card(name).and(page.locator('[data-state="connected"]')).waitFor(WAIT);
  }
  for (const name of ['broken-1', 'broken-2', 'broken-3']) {
    await card(name).and(page.locator('[data-state="failed"]')).waitFor(WAIT);
  }
});

afterAll(async () => {
  await session?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);

/** What has focus: `tag.class "text"` or `article[name]`, for a message that says where it went. */
function focused(): Promise<string> {
  return page.locator('html').evaluate((html) => {
    const element = html.ownerDocument.activeElement;
    if (element === null) return 'nothing';
    const server = element.getAttribute('data-server');
    if (server !== null) return `article[${server}]`;
    return `${element.tagName.toLowerCase()} "${element.textContent ?? ''}"`;
  });
}

async function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === element.ownerDocument.activeElement);
}

/**
 * Waits until `locator` has the focus: the page moves it in an effect after the render that shows
 * the element, so a check the moment the element appears can come first. Fails saying where the
 * focus is.
 */
async function expectFocus(locator: Locator): Promise<void> {
  await expect
    .poll(async () => ((await hasFocus(locator)) ? 'there' : `on ${await focused()}`), WAIT)
    .toBe('there');
}

describe('focus and announcements', () => {
  it('the states the page opens with are not alerts; a change is announced once, politely', async () => {
    // A page opened once every server has connected or failed: nothing to announce.
    await page.reload();
    await card('broken-3').and(page.locator('[data-state="failed"]')).waitFor(WAIT);
    await expect(page.locator('[role="alert"]').count()).resolves.toBe(0);
    const announcer = page.locator('[aria-live="polite"][data-announcer]');
    await expect(announcer.textContent()).resolves.toBe('');
    await checkPage(page, 'connected-and-failed');

    const off = await session.web.api('/api/mcp/broken-2/enabled', {
      method: 'PUT',
      json: { enabled: false },
    });
    expect(off.status).toBe(200);
    await expect.poll(() => announcer.textContent(), WAIT).toBe('broken-2: disabled');
    await expect(page.locator('[role="alert"]').count()).resolves.toBe(0);
    await checkPage(page, 'disabled');
  });

  it('Reconnect keeps focus on its button while it runs and after', async () => {
    await openCard(page, 'alpha');
    const button = card('alpha').locator('button', { hasText: 'Reconnect' });
    await button.focus();
    await page.keyboard.press('Enter');
    await card('alpha').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await expect.poll(() => button.textContent(), WAIT).toBe('Reconnect');
    await expectFocus(button);
  });

  it('Remove asks first (focus on the confirmation), Escape cancels it (focus back on Remove)', async () => {
    const beta = await openCard(page, 'beta');
    await beta.locator('button', { hasText: /^Remove$/ }).focus();
    await page.keyboard.press('Enter');
    const confirm = beta.locator('button', { hasText: 'Remove from mcp.json' });
    await confirm.waitFor(WAIT);
    await expectFocus(confirm);
    await checkPage(page, 'remove-confirmation');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached', ...WAIT });
    const remove = beta.locator('button', { hasText: /^Remove$/ });
    await expectFocus(remove);
  });

  it('a card removed with focus in it hands focus to the next card; the last one, to its group heading', async () => {
    const beta = await openCard(page, 'beta');
    await beta.locator('button', { hasText: /^Remove$/ }).focus();
    await page.keyboard.press('Enter');
    await expectFocus(beta.locator('button', { hasText: 'Remove from mcp.json' }));
    await page.keyboard.press('Enter');
    await beta.waitFor({ state: 'detached', ...WAIT });
    await expectFocus(card('gamma'));

    // Removed elsewhere (another tab, the file) while a button of the card has focus.
    for (const name of ['alpha', 'broken-1', 'broken-2', 'broken-3']) {
      expect((await removeAsRead(session.web, name)).status).toBe(200);
      await card(name).waitFor({ state: 'detached', ...WAIT });
    }
    await openCard(page, 'gamma');
    await card('gamma').locator('button', { hasText: 'Reconnect' }).focus();
    expect((await removeAsRead(session.web, 'gamma')).status).toBe(200);
    await card('gamma').waitFor({ state: 'detached', ...WAIT });
    const heading = page.locator('section[data-group="user"] h2');
    await expectFocus(heading);
  });
});
