// The connectors page made for many servers, in real Chromium against epoch web and real servers:
// one compact row per server that opens to its card (tools rendered only then), those that need
// the person first, the top bar's state chips and the summary's counts narrowing the page, the
// skip link, the bar's panels, focus kept when a row moves, and a first run (an empty file) led by
// Import with no "Reconnect failed (0)". All by keyboard where a person would use one.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome, mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, FAILING_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

const rowNames = (page: Page) =>
  page
    .locator('section[data-group="user"] article.server')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-server')));
const focused = (page: Page) =>
  page.locator('html').evaluate((root) => {
    const element = root.ownerDocument.activeElement;
    return element === null
      ? ''
      : `${element.tagName.toLowerCase()}#${element.id}:${element.textContent?.trim().slice(0, 40)}`;
  });

describe('thirty servers, one row each', () => {
  let session: PageSession;
  let page: Page;
  /** While it exists, `flaky` exits at start. */
  let dies: string;
  const servers = () => ({
    good: fixtureEntry(ANNOTATED_SERVER),
    broken: fixtureEntry(FAILING_SERVER),
    off: fixtureEntry(ANNOTATED_SERVER, { enabled: false }),
    // Connecting for as long as the test runs: it answers initialize only once a file exists.
    slow: fixtureEntry([FIXTURE_SERVER, `--start-when=${join(epochHome(), 'never')}`], {
      connect_timeout: 600,
    }),
    flaky: fixtureEntry([FIXTURE_SERVER, `--exit-at-start-if=${dies}`]),
  });

  beforeAll(async () => {
    dies = join(epochHome(), 'flaky-dies');
    await writeFile(dies, '');
    session = await openPage({ servers: servers() });
    ({ page } = session);
    await page.locator('article[data-server="good"][data-state="connected"]').waitFor(WAIT);
    await page.locator('article[data-server="broken"][data-state="failed"]').waitFor(WAIT);
    await page.locator('article[data-server="flaky"][data-state="failed"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('puts failed servers first, one row each; a row opens to its card by keyboard, its tools rendered only when listed', async () => {
    await expect(rowNames(page)).resolves.toEqual(['broken', 'flaky', 'slow', 'good', 'off']);
    const good = page.locator('article[data-server="good"]');
    await expect(good.locator('button.row .facts').textContent()).resolves.toMatch(
      /^2 tools · ≈ \d+ tokens$/,
    );
    await expect(page.locator('.body').count()).resolves.toBe(0);
    await expect(page.locator('li[data-tool]').count()).resolves.toBe(0);
    // A failed row says why without being opened.
    await expect(
      page.locator('article[data-server="broken"] .row-problem').textContent(),
    ).resolves.toContain('MCP server "broken"');

    const row = good.locator('button.row');
    await row.focus();
    await row.press('Enter');
    await expect(row.getAttribute('aria-expanded')).resolves.toBe('true');
    const body = good.locator('.body');
    await body.waitFor(WAIT);
    await expect(row.getAttribute('aria-controls')).resolves.toBe(await body.getAttribute('id'));
    await expect(good.locator('li[data-tool]').count()).resolves.toBe(0);
    await good.locator('details.tools > summary').click();
    await expect.poll(() => good.locator('li[data-tool]').count(), WAIT).toBe(2);
    await checkPage(page, 'rows-one-open');
    await row.press(' ');
    await expect(row.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(good.locator('.body').count()).resolves.toBe(0);
  });

  it('the state chips narrow the page to their servers, and "1 connecting" in the summary does too', async () => {
    const chip = (filter: string) => page.locator(`.chips button[data-filter="${filter}"]`);
    await expect(chip('failed').textContent()).resolves.toBe('Failed 2');
    await chip('failed').click();
    await expect(chip('failed').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect.poll(() => rowNames(page), WAIT).toEqual(['broken', 'flaky']);
    await expect(page.locator('.narrowed').textContent()).resolves.toContain(
      'Only the 2 servers failed.',
    );
    await checkPage(page, 'rows-failed-only');
    await chip('off').press('Enter');
    await expect.poll(() => rowNames(page), WAIT).toEqual(['off']);
    await expect(chip('failed').getAttribute('aria-pressed')).resolves.toBe('false');
    await page.locator('.narrowed button', { hasText: 'Show every server' }).click();
    await expect.poll(() => rowNames(page), WAIT).toHaveLength(5);

    await page.locator('.summary-line button', { hasText: '1 connecting' }).click();
    await expect.poll(() => rowNames(page), WAIT).toEqual(['slow']);
    await expect(chip('connecting').getAttribute('aria-pressed')).resolves.toBe('true');
    await chip('connecting').click();
    await expect.poll(() => rowNames(page), WAIT).toHaveLength(5);
  });

  it('the skip link is the first stop of the keyboard and takes focus to the servers; a reload keeps the cards open', async () => {
    await openCard(page, 'good');
    await page.reload();
    await page.locator('article[data-server="good"] .body').waitFor(WAIT);
    await page.keyboard.press('Tab');
    const skip = page.locator('a.skip-link');
    await expect(skip.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    await expect(skip.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page), WAIT).toMatch(/^main#servers:/);
  });

  it('Add server and Add from JSON open under the bar with focus in their first field; the bar stays at the top', async () => {
    const add = page.locator('.bar-actions button', { hasText: 'Add server' });
    await add.click();
    await expect(add.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect.poll(() => focused(page), WAIT).toMatch(/^input#/);
    await expect(
      page
        .locator('#add-panel input[name="name"]')
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).resolves.toBe(true);
    const paste = page.locator('.bar-actions button', { hasText: 'Add from JSON' });
    await paste.click();
    await expect(page.locator('#add-panel').isVisible()).resolves.toBe(false);
    await expect(
      page
        .locator('#paste-panel input[name="paste-name"]')
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await paste.click();
    await expect(page.locator('#paste-panel').isVisible()).resolves.toBe(false);

    await page.locator('html').evaluate((root) => root.scrollTo(0, root.scrollHeight));
    await expect(
      page.locator('.top-bar').evaluate((bar) => bar.getBoundingClientRect().top),
    ).resolves.toBe(0);
    await expect(
      page.locator('.bar-actions button', { hasText: 'Import from…' }).isVisible(),
    ).resolves.toBe(true);
  });

  it('a server added by hand shows as needing approval, under its chip', async () => {
    await writeFileAtomic(
      mcpConfigPath(),
      JSON.stringify({ servers: { ...servers(), later: fixtureEntry(ANNOTATED_SERVER) } }),
    );
    await page.locator('article[data-server="later"][data-state="needsApproval"]').waitFor(WAIT);
    const chip = page.locator('.chips button[data-filter="approval"]');
    await expect(chip.textContent()).resolves.toBe('Needs approval 1');
    await chip.click();
    await expect.poll(() => rowNames(page), WAIT).toEqual(['later']);
    await chip.click();
  });

  it('a server reconnected by the person keeps its row and focus; a reload puts it in its place', async () => {
    const flaky = await openCard(page, 'flaky');
    await rm(dies);
    const reconnect = flaky.locator('.actions button', { hasText: /^Reconnect$/ });
    const before = await rowNames(page);
    await reconnect.focus();
    await reconnect.press('Enter');
    await page.locator('article[data-server="flaky"][data-state="connected"]').waitFor(WAIT);
    // Connected now, yet where the person pressed Reconnect (among the failed), not moved away.
    await expect(rowNames(page)).resolves.toEqual(before);
    await expect.poll(() => focused(page), WAIT).toBe('button#:Reconnect');
    await expect(
      flaky
        .locator('.actions button')
        .first()
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await page.reload();
    await page.locator('article[data-server="flaky"][data-state="connected"]').waitFor(WAIT);
    const names = await rowNames(page);
    expect(names.indexOf('flaky')).toBeGreaterThan(names.indexOf('good'));
  });
});

describe('a first run: an empty file', () => {
  let session: PageSession;

  beforeAll(async () => {
    session = await openPage({ servers: {} });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('leads with Import (first after the skip link, the primary button) and offers no Reconnect failed', async () => {
    const { page } = session;
    await page.locator('.first-run-note').waitFor(WAIT);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page), WAIT).toBe('button#:Import from…');
    await expect(page.locator('.bar-actions.first-run .import-open').count()).resolves.toBe(1);
    await expect(page.locator('.first-run-note').textContent()).resolves.toContain('Import from…');
    await expect(page.locator('button.reconnect-all').count()).resolves.toBe(0);
    await expect(page.locator('.chips').count()).resolves.toBe(0);
    await expect(page.getByText('Reconnect failed').count()).resolves.toBe(0);
    await checkPage(page, 'first-run');
  });
});
