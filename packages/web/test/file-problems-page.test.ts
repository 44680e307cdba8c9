// What the files say, where a person looks for it: a problem on the card of the server it concerns
// (its own entry, or its `overrides` entry), an entry that was not loaded as a card of its own
// saying why instead of vanishing, a file that does not parse said at the top with its line and
// column while the servers last loaded stay shown, and what concerns no one server in a list near
// the top.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const entry = JSON.stringify(fixtureEntry(ANNOTATED_SERVER));
const slow = JSON.stringify(fixtureEntry(ANNOTATED_SERVER, { conect_timeout: 20 }));

const ORIGINAL = `{
  "servers": {
    "good": ${entry},
    "typo": {
      "comand": "node"
    },
    "slow": ${slow}
  },
  "overrides": {
    "weather__forecast": { "enabeld": false }
  },
  "extra": 1
}
`;

let chromium: Chromium;
let web: TestWeb;
let page: Page;
let file: string;

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, ORIGINAL);
  const pluginDir = join(process.env.EPOCH_HOME as string, 'plugins', 'weather');
  await mkdir(pluginDir, { recursive: true });
  await writeFile(
    join(pluginDir, 'mcp.json'),
    JSON.stringify({ servers: { forecast: fixtureEntry(ANNOTATED_SERVER) } }),
  );
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
  page = await chromium.context.newPage();
  await page.goto(web.url);
});

afterAll(async () => {
  await page?.close();
  await chromium?.close();
  await web?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);
const text = async (locator: ReturnType<Page['locator']>) => (await locator.textContent()) ?? '';

describe('problems in the files on the connectors page', () => {
  it("puts each problem on its server's card, shows an entry not loaded as a card, and the rest near the top", async () => {
    await card('good').and(page.locator('[data-state="connected"]')).waitFor(WAIT);

    // A misspelled field: the entry is not loaded, and says so where it would be.
    const typo = page.locator('section[data-group="user"] article[data-server="typo"]');
    await typo.waitFor(WAIT);
    await expect(typo.getAttribute('data-state')).resolves.toBe('notLoaded');
    const typoText = await text(typo);
    expect(typoText).toContain('not loaded');
    expect(typoText).toContain(`${file}:4:`);
    expect(typoText).toContain('servers.typo.comand');
    expect(typoText).toMatch(/command/);

    // A warning about a server that loaded: on its own card.
    await card('slow').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    for (const name of ['slow', 'good', 'weather__forecast']) await openCard(page, name);
    await expect(text(card('slow').locator('.entry-problems'))).resolves.toContain(
      'servers.slow.conect_timeout',
    );
    await expect(card('good').locator('.entry-problems').count()).resolves.toBe(0);
    // The user's `overrides` entry of a plugin's server: on the plugin server's card.
    await expect(text(card('weather__forecast').locator('.entry-problems'))).resolves.toContain(
      'overrides.weather__forecast.enabeld',
    );

    // What concerns no one server: in the list near the top, before the first group.
    const list = page.locator('section[aria-label="Problems in the files"]');
    const listText = await text(list);
    expect(listText).toContain('extra');
    expect(listText).not.toContain('typo');
    expect(listText).not.toContain('slow');
    const [listTop, groupTop] = await Promise.all([
      list.boundingBox(),
      page.locator('section[data-group="user"]').boundingBox(),
    ]);
    expect(listTop?.y).toBeLessThan(groupTop?.y ?? 0);
    await checkPage(page, 'file-problems');
  });

  it('a file that does not parse is said at the top with line and column; the servers last loaded stay', async () => {
    await card('good').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    // A comma gone between two entries: line 6 of the file. Replaced whole, as an editor saves:
    // epoch web reading between an in-place write's truncation and its end would see no servers.
    const broken = ORIGINAL.replace('    },\n    "slow"', '    }\n    "slow"');
    expect(broken).not.toBe(ORIGINAL);
    await writeFileAtomic(file, broken);
    const alert = page.locator('[role="alert"][aria-label="A file that was not read"]');
    await alert.waitFor(WAIT);
    const said = await text(alert);
    expect(said).toContain(file);
    expect(said).toContain('line 7, column 5');
    expect(said).toContain('syntax error');
    expect(said).toContain('last loaded');
    const [alertTop, groupTop] = await Promise.all([
      alert.boundingBox(),
      page.locator('section[data-group="user"]').boundingBox(),
    ]);
    expect(alertTop?.y).toBeLessThan(groupTop?.y ?? 0);
    // What was loaded before still shows, and still runs.
    await expect(card('good').getAttribute('data-state')).resolves.toBe('connected');
    await expect(card('slow').getAttribute('data-state')).resolves.toBe('connected');
    await checkPage(page, 'file-unreadable');

    await writeFileAtomic(file, ORIGINAL);
    await alert.waitFor({ state: 'detached', ...WAIT });
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });
});
