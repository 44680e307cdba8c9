// The overview parts of the connectors page in real Chromium, on real servers: the summary line
// over a connected, a failed and a disabled server, counted as their cards say; Reconnect failed
// bringing back a server that failed to start; the reference server's protocol capabilities on
// its card; its resources listed and one read, and a prompt with arguments got, through the
// runtime's connection to it.
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome } from '@epoch-agent/infra';
import { EVERYTHING_ENTRY, FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { ResourceList } from '@epoch-agent/web';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;
/** While this file exists, the `flaky` server exits at start. */
let dies: string;

beforeAll(async () => {
  dies = join(epochHome(), 'flaky-dies');
  await writeFile(dies, '');
  const servers = {
    everything: fixtureEntry([EVERYTHING_ENTRY, 'stdio']),
    flaky: fixtureEntry([FIXTURE_SERVER, `--exit-at-start-if=${dies}`]),
    off: fixtureEntry(ANNOTATED_SERVER, { enabled: false }),
  };
  session = await openPage({ servers });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);

/** Waits until `locator` shows `expected` (its whole text, or matching it), then checks it. */
async function shows(locator: Locator, expected: string | RegExp): Promise<void> {
  await locator.filter({ hasText: expected }).first().waitFor(WAIT);
  const text = await locator.first().textContent();
  if (typeof expected === 'string') expect(text).toBe(expected);
  else expect(text).toMatch(expected);
}

describe('the overview of the connectors page', () => {
  it('sums up the servers as their cards show them, live', async () => {
    await card('everything').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await card('flaky').and(page.locator('[data-state="failed"]')).waitFor(WAIT);
    const view = await session.web.settled();
    const servers = Object.values(view.groups).flat();
    const tools = servers.reduce((sum, server) => sum + server.tools.length, 0);
    expect(tools).toBeGreaterThan(0);
    const cardWords = await page.locator('article.server .state').allTextContents();
    expect(cardWords.sort()).toEqual(['connected', 'disabled', 'failed']);
    await shows(
      page.locator('.summary-line'),
      new RegExp(
        `^3 servers: 1 connected, 1 failed, 1 disabled · ${tools} tools · ≈ [\\d.]+k? tokens$`,
      ),
    );
    await checkPage(page, 'overview-summary');
  });

  it('names the capabilities the reference server declared on its card', async () => {
    await openCard(page, 'everything');
    await openCard(page, 'flaky');
    await shows(
      card('everything').locator('.capabilities'),
      'Capabilities: tools (list changes) · resources (subscribe, list changes) · prompts (list changes) · logging · completions',
    );
    // A server that is not connected declares nothing the page could know.
    await expect(card('flaky').locator('.capabilities').count()).resolves.toBe(0);
    await checkPage(page, 'capabilities-shown');
  });

  it('lists the reference server’s resources when asked, and reads one as text', async () => {
    const resources = card('everything').locator('details.resources');
    await resources.locator('summary').click();
    const listed = (await (
      await session.web.api('/api/mcp/everything/resources')
    ).json()) as ResourceList;
    const doc = listed.resources.find((resource) => resource.name === 'architecture.md');
    expect(doc).toMatchObject({ mimeType: 'text/markdown' });
    expect(listed.templates.map((template) => template.name)).toContain('Dynamic Text Resource');
    const row = resources.locator(`li.resource[data-uri="${doc?.uri}"]`);
    await row.filter({ hasText: 'architecture.md' }).waitFor(WAIT);
    await expect(resources.locator('li.resource').count()).resolves.toBe(listed.resources.length);

    await row.getByRole('button', { name: 'Read architecture.md' }).click();
    const text = readFileSync(join(EVERYTHING_ENTRY, '..', 'docs', 'architecture.md'), 'utf8');
    const shown = row.locator('pre.text');
    await shown.waitFor(WAIT);
    await expect(shown.textContent()).resolves.toBe(text);
    await checkPage(page, 'resource-read');
  });

  it('gets a prompt with the arguments typed in and shows its messages', async () => {
    const prompts = card('everything').locator('details.prompts');
    await prompts.locator('summary').click();
    const prompt = prompts.locator('li.prompt[data-prompt="args-prompt"]');
    await prompt.waitFor(WAIT);
    // Named as a host offers it, like a tool: a `-` is kept, the prefix is the server's.
    await shows(prompt.locator('.hint code'), 'mcp__everything__args-prompt');
    await prompt.getByLabel(/^city \(required\)/).fill('Lyon');
    await prompt.getByLabel(/^state/).fill('Rhône');
    await prompt.getByRole('button', { name: 'Get Arguments Prompt' }).click();
    const message = prompt.locator('.messages li');
    await shows(message, "userWhat's weather in Lyon, Rhône?");
    await checkPage(page, 'prompt-got');
  });

  it('Reconnect failed brings back a server that failed, keeping focus and saying what it did', async () => {
    const button = page.locator('button.reconnect-all');
    await shows(button, 'Reconnect failed (1)');
    await rm(dies);
    await button.focus();
    await button.press('Enter');
    await card('flaky').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await shows(page.locator('.summary [role="status"]'), 'Reconnected 1 server: flaky connected.');
    await shows(button, 'Reconnect failed (0)');
    await expect(button.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(button.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(
      true,
    );
    await shows(page.locator('.summary-line'), /^3 servers: 2 connected, 1 disabled · /);
    await checkPage(page, 'reconnect-failed-done');
  });
});
