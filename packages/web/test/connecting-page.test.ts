// Servers that take their time, on the connectors page in real Chromium: epoch web is served while
// they connect, each one shows `connecting` and how long, counted on the page, and it changes to
// what the server came to without a reload. A server added through the form is answered as soon
// as the file is written, still connecting. Closing epoch web while servers connect leaves no
// process behind. Fixture servers that never answer initialize, or answer once the test creates a
// file: the test decides when, however slow the machine.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { FIXTURE_SERVER, waitUntil } from '@epoch-agent/testkit';
import type { McpView } from '@epoch-agent/web';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry, processesWith, startTestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const MUTE = `--mute-${process.pid}`;

let session: PageSession;
let page: Page;
let home: string;
let slowReady: string;

beforeAll(async () => {
  home = process.env.EPOCH_HOME as string;
  slowReady = join(home, 'slow-ready');
  session = await openPage({
    servers: {
      mute: fixtureEntry([FIXTURE_SERVER, '--never-start', MUTE]),
      slow: fixtureEntry([FIXTURE_SERVER, `--start-when=${slowReady}`]),
    },
  });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);

/** The seconds a card's `for N s` says. */
async function secondsShown(name: string): Promise<number> {
  const text = await card(name).locator('.detail').textContent();
  const found = /^for (\d+) s$/.exec(text ?? '');
  if (found === null) throw new Error(`card ${name} says ${JSON.stringify(text)}`);
  return Number(found[1]);
}

function stateIn(view: McpView, name: string): string | undefined {
  return view.groups.user.find((server) => server.name === name)?.status?.state;
}

describe('servers that are still connecting', () => {
  it('epoch web is served while a server never answers: the page shows it connecting, for a time that counts up, and stays live', async () => {
    // startWeb has resolved and the page is open: the API says so too.
    const view = (await (await session.web.api('/api/mcp')).json()) as McpView;
    expect(stateIn(view, 'mute')).toBe('connecting');

    const mute = card('mute').and(page.locator('[data-state="connecting"]'));
    await mute.waitFor(WAIT);
    await expect(mute.locator('.state').textContent()).resolves.toBe('connecting');
    const first = await secondsShown('mute');
    // The page counts on its own, from the instant the view carries: no view needs to come.
    await mute
      .locator('.detail')
      .filter({ hasNotText: new RegExp(`^for ${first} s$`) })
      .waitFor(WAIT);
    expect(await secondsShown('mute')).toBeGreaterThan(first);
    await expect(page.locator('.banner').count()).resolves.toBe(0);
  });

  it('a slow server goes from connecting to connected on the page, without a reload', async () => {
    const slow = card('slow');
    await slow.and(page.locator('[data-state="connecting"]')).waitFor(WAIT);
    await writeFile(slowReady, '');
    await slow.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await expect(slow.locator('.detail').textContent()).resolves.toContain('pid-server 1.0.0');
    // The other one is still connecting, still counted.
    await expect(card('mute').getAttribute('data-state')).resolves.toBe('connecting');
    await expect(page.locator('.banner').count()).resolves.toBe(0);
  });

  it('a server added through the form is answered once the file is written, connecting, and connects on the page', async () => {
    const ready = join(home, 'added-ready');
    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('input[name="name"]').fill('added');
    await form
      .locator('input[name="target"]')
      .fill(`'${process.execPath}' '${FIXTURE_SERVER}' '--start-when=${ready}'`);
    await form.locator('button[type="submit"]').click();

    // It cannot connect before `ready` exists, which the test creates only after the answer.
    const notice = page.locator('section.add .notice');
    await notice.waitFor(WAIT);
    await expect(notice.textContent()).resolves.toContain(
      `Added added to ${mcpConfigPath()} (connecting).`,
    );
    await expect(readFile(mcpConfigPath(), 'utf8')).resolves.toContain('"added"');
    const added = card('added');
    await added.and(page.locator('[data-state="connecting"]')).waitFor(WAIT);

    await writeFile(ready, '');
    await added.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
  });
});

describe('close() while servers connect', () => {
  it('ends their connects and leaves no process', async () => {
    const marker = `--closing-${process.pid}`;
    const other = join(home, 'closing-mcp.json');
    await writeFile(
      other,
      JSON.stringify({
        servers: { mute: fixtureEntry([FIXTURE_SERVER, '--never-start', marker]) },
      }),
    );
    const web = await startTestWeb({ configFile: other });
    try {
      const view = (await (await web.api('/api/mcp')).json()) as McpView;
      expect(stateIn(view, 'mute')).toBe('connecting');
      // Its process is started a moment after the runtime is built: wait until it runs.
      await waitUntil(() => processesWith(marker).length > 0, `a process with ${marker}`);
    } finally {
      await web.close();
    }
    expect(processesWith(marker)).toEqual([]);
  });
});
