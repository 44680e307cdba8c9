// Choosing what the model gets on the connectors page, in real Chromium against epoch web over
// real HTTP with real fixture servers: each switch writes the hand-written mcp.json (its bytes back
// when turned on again), and the page follows what the runtime then offers — a tool greyed out
// and back, a server disabled and connected again — without a reload.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { McpView, ServerView } from '@epoch-agent/web';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import {
  ANNOTATED_SERVER,
  fixtureEntry,
  oneInsertion,
  PID_SERVER,
  processesWith,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const PIDS = `--page-pids-${process.pid}`;
// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let chromium: Chromium;
let web: TestWeb;
let page: Page;
let file: string;
let original: string;
let pluginFile: string;
let pluginText: string;

beforeAll(async () => {
  file = mcpConfigPath();
  original = [
    '{',
    '  // Written by hand; the switches must keep every byte of it.',
    '  "servers": {',
    `    "words": ${JSON.stringify(fixtureEntry(ANNOTATED_SERVER))},`,
    `    "pids": ${JSON.stringify({ command: process.execPath, args: [PID_SERVER, '--tool=alpha', PIDS] })},`,
    `    "guarded": ${JSON.stringify({ command: process.execPath, args: [PID_SERVER, '--tool=secret_read'], exclude_tools: ['secret_*'] })}`,
    '  }',
    '}',
    '',
  ].join('\n');
  await writeFile(file, original);
  const pluginDir = join(process.env.EPOCH_HOME as string, 'plugins', 'weather');
  await mkdir(pluginDir, { recursive: true });
  pluginFile = join(pluginDir, 'mcp.json');
  pluginText = JSON.stringify({ servers: { forecast: fixtureEntry(ANNOTATED_SERVER) } });
  await writeFile(pluginFile, pluginText);
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb({ approve: () => true })]);
});

afterAll(async () => {
  await chromium?.close();
  await web?.close();
});

beforeEach(async () => {
  page = await chromium.context.newPage();
  await page.goto(web.url);
});

afterEach(async () => {
  await page.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);

/** What the model is offered from the server now, by the API (the runtime's tool registry). */
async function offered(name: string): Promise<string[]> {
  const view = (await (await web.api('/api/mcp')).json()) as McpView;
  const server = [...view.groups.user, ...view.groups.plugin].find((s) => s.name === name);
  return (server as ServerView).tools.map((tool) => tool.serverName);
}

describe('the on/off switches of the connectors page', () => {
  it('a tool switched off greys out and leaves what the model is offered; switched on, it is back and the file is as it was', async () => {
    const words = card('words');
    await words.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'words');
    await words.locator('summary', { hasText: 'Tools (2)' }).click();
    const forget = words.getByRole('switch', { name: 'Tool forget of words', exact: true });
    await expect(forget.isChecked()).resolves.toBe(true);

    await forget.click();
    const row = words.locator('li[data-tool="mcp__words__forget"]');
    await row.and(page.locator('[data-offered="false"]')).waitFor(WAIT);
    await expect(forget.getAttribute('aria-checked')).resolves.toBe('false');
    await expect(row.locator('.cost').textContent()).resolves.toMatch(/^off: would add ≈ \d+/);
    await expect(row.locator('.notice').textContent()).resolves.toContain(`Saved in ${file}`);
    await expect(words.locator('summary').first().textContent()).resolves.toBe('Tools (2, 1 off)');
    await expect(words.locator('.tokens').textContent()).resolves.toMatch(
      /^2 tools, 1 off · ≈ \d+ tokens of context in every request; the 1 off would add ≈ \d+ tokens$/,
    );
    expect(oneInsertion(original, await readFile(file, 'utf8'))).toContain(
      '"exclude_tools": ["forget"]',
    );
    expect(await offered('words')).toEqual(['lookup']);
    // It keeps its place in the list, under the pointer.
    await expect(words.locator('li[data-tool]').nth(1).getAttribute('data-tool')).resolves.toBe(
      'mcp__words__forget',
    );
    // Greyed, it is still read at AA contrast, in either scheme.
    await checkPage(page, 'tool-turned-off');
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await checkPage(page, 'tool-turned-off-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }

    await forget.click();
    await row.and(page.locator('[data-offered="true"]')).waitFor(WAIT);
    await expect(forget.isChecked()).resolves.toBe(true);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await offered('words')).toEqual(['lookup', 'forget']);
  });

  it('a server switched off shows disabled, its process gone; switched on, it connects again', async () => {
    const pids = card('pids');
    await pids.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'pids');
    const [pid] = processesWith(PIDS);
    const server = pids.getByRole('switch', { name: 'Server pids', exact: true });
    await expect(server.isChecked()).resolves.toBe(true);

    await server.click();
    await pids.and(page.locator('[data-state="disabled"]')).waitFor(WAIT);
    await expect(pids.locator('.state').textContent()).resolves.toBe('disabled');
    await expect(server.isChecked()).resolves.toBe(false);
    await expect(pids.locator('.hint').textContent()).resolves.toContain('none of its tools');
    await expect(pids.locator('.tokens').count()).resolves.toBe(0);
    await expect(pids.locator('button', { hasText: 'Reconnect' }).count()).resolves.toBe(0);
    expect(oneInsertion(original, await readFile(file, 'utf8'))).toContain('"enabled": false');
    await expect.poll(() => processesWith(PIDS), WAIT).toEqual([]);
    expect(await offered('pids')).toEqual([]);

    await server.click();
    await pids.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await expect(server.isChecked()).resolves.toBe(true);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await offered('pids')).toEqual(['whoami', 'alpha']);
    expect(processesWith(PIDS)).not.toContain(pid);
  });

  it("a plugin's server says its choice is saved in the user's mcp.json, and a tool switched off goes there", async () => {
    const forecast = card('weather__forecast');
    await forecast.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'weather__forecast');
    await expect(forecast.locator('.origin').textContent()).resolves.toContain(
      'saved in your mcp.json',
    );
    await forecast.locator('summary', { hasText: 'Tools (2)' }).click();
    const lookup = forecast.getByRole('switch', {
      name: 'Tool lookup of weather__forecast',
      exact: true,
    });
    await lookup.click();
    await forecast
      .locator('li[data-tool="mcp__weather__forecast__lookup"][data-offered="false"]')
      .waitFor(WAIT);
    expect(oneInsertion(original, await readFile(file, 'utf8'))).toContain('"overrides"');
    expect(await readFile(pluginFile, 'utf8')).toBe(pluginText);
    expect(await offered('weather__forecast')).toEqual(['forget']);

    await lookup.click();
    await forecast
      .locator('li[data-tool="mcp__weather__forecast__lookup"][data-offered="true"]')
      .waitFor(WAIT);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('a refused change shows why beside the tool, and the switch stays off', async () => {
    const guarded = card('guarded');
    await guarded.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'guarded');
    await guarded.locator('summary', { hasText: 'Tools (2, 1 off)' }).click();
    const secret = guarded.getByRole('switch', {
      name: 'Tool secret_read of guarded',
      exact: true,
    });
    await expect(secret.isChecked()).resolves.toBe(false);
    await secret.click();
    const alert = guarded.locator('li[data-tool="mcp__guarded__secret_read"] [role="alert"]');
    await alert.waitFor(WAIT);
    await expect(alert.textContent()).resolves.toContain('turned off by the pattern "secret_*"');
    await expect(alert.textContent()).resolves.toContain(file);
    await expect.poll(() => secret.isChecked(), WAIT).toBe(false);
    await expect(secret.isEnabled()).resolves.toBe(true);
    expect(await readFile(file, 'utf8')).toBe(original);
  });
});
