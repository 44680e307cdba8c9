// The connectors page in real Chromium with a server that writes terminal escapes and bidi
// overrides into every text it controls (the CLI's hostile-text-server.mjs): the page shows them
// as visible escapes — serverInfo, tool names — and the stderr tail without its terminal escapes.
// A tool's title and description are shown as the model is given them, without any of them.
import { fileURLToPath } from 'node:url';
import { rawControls } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry } from './web-helpers.js';

const HOSTILE_SERVER = fileURLToPath(
  new URL('../../cli/test/fixtures/hostile-text-server.mjs', import.meta.url),
);
const SHOWN =
  '\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\u202eevil\\u2066 Logged in';
// What the model is given of that text in a tool's words: every escape sequence and bidi character gone.
const CLEAN = 'evil Logged in';
const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  const servers = {
    hostile: fixtureEntry(HOSTILE_SERVER),
    dying: fixtureEntry(HOSTILE_SERVER, { args: [HOSTILE_SERVER, '--die'] }),
  };
  session = await openPage({ servers });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('server text on the connectors page', () => {
  it('is shown with every control and bidi character as a visible escape, or as the model gets it', async () => {
    const hostile = page.locator('article[data-server="hostile"][data-state="connected"]');
    await hostile.waitFor(WAIT);
    await expect(hostile.locator('.detail').textContent()).resolves.toBe(
      `hostile ${SHOWN} ${SHOWN} · MCP 2025-11-25`,
    );
    await openCard(page, 'hostile');
    await hostile.locator('summary', { hasText: 'Tools (4)' }).click();
    await expect(hostile.locator('.title').first().textContent()).resolves.toBe(`Say ${CLEAN}`);
    await expect(hostile.locator('.description').first().textContent()).resolves.toBe(
      `Says ${CLEAN}\nsecond line`,
    );
    await expect(hostile.locator('.raw code').first().textContent()).resolves.toBe(`say${SHOWN}`);
    expect(rawControls((await hostile.textContent()) ?? '')).toEqual([]);

    const dying = page.locator('article[data-server="dying"][data-state="failed"]');
    await dying.waitFor(WAIT);
    await openCard(page, 'dying');
    // The stderr tail drops terminal escapes (noise in a browser) but still shows bidi characters.
    await expect(dying.locator('.stderr pre').textContent()).resolves.toContain(
      'starting \\u202eevil\\u2066 Logged in',
    );
    expect(rawControls((await dying.textContent()) ?? '')).toEqual([]);
  });
});
