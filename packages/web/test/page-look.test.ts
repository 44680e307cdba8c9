// How the connectors page reads, in real Chromium: every state word at WCAG AA contrast (4.5:1)
// in the light and the dark scheme, the dark scheme followed when the system asks for it, and no
// sideways scroll on a 360 px phone, whatever the length of commands, URLs and arguments.
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AA, contrast, textColours } from './contrast.js';
import { checkPage } from './page-check.js';
import { openCard, openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, FAILING_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const LONG = `--${'a-very-long-option-name-'.repeat(6)}=${'/deeply/nested'.repeat(8)}/file.json`;

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage({
    servers: {
      words: fixtureEntry([
        ...ANNOTATED_SERVER,
        LONG,
        ...Array.from({ length: 30 }, (_, i) => `--chip-${i}`),
      ]),
      broken: fixtureEntry(FAILING_SERVER),
      sleepy: fixtureEntry(ANNOTATED_SERVER, { idle_timeout_seconds: 1 }),
      off: fixtureEntry(ANNOTATED_SERVER, { enabled: false }),
      mute: fixtureEntry([FIXTURE_SERVER, '--never-start']),
      faraway: {
        transport: 'http',
        // Port 9 (discard) on loopback: nothing listens, so it fails at once.
        url: `http://127.0.0.1:9/${'a-long-path-segment/'.repeat(12)}mcp?${'key=value&'.repeat(10)}`,
      },
    },
  });
  ({ page } = session);
  for (const [name, state] of [
    ['words', 'connected'],
    ['broken', 'failed'],
    ['sleepy', 'idle'],
    ['off', 'disabled'],
    ['mute', 'connecting'],
    ['faraway', 'failed'],
  ] as const) {
    await page.locator(`article[data-server="${name}"][data-state="${state}"]`).waitFor(WAIT);
  }
});

afterAll(async () => {
  await session?.close();
});

async function expectStateWordsReadable(scheme: string): Promise<void> {
  const colours = await textColours(page, 'article .state');
  expect(new Set(colours.map((c) => c.text))).toEqual(
    new Set(['connected', 'failed', 'idle', 'disabled', 'connecting']),
  );
  for (const { text, ink, ground } of colours) {
    const ratio = contrast(ink, ground);
    expect(
      ratio,
      `"${text}" in the ${scheme} scheme: ${ratio.toFixed(2)}:1`,
    ).toBeGreaterThanOrEqual(AA);
  }
}

describe('how the page reads', () => {
  it('every state word meets WCAG AA contrast in the light scheme', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await expectStateWordsReadable('light');
    await checkPage(page, 'states-light');
  });

  it('follows a dark system scheme, with every state word still at AA', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      const ground = await page
        .locator('body')
        .evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).backgroundColor);
      const [r = 255, g = 255, b = 255] = (ground?.match(/\d+/g) ?? []).map(Number);
      expect(
        contrast([r, g, b], [0, 0, 0]),
        `the page's ground in the dark scheme is ${ground}`,
      ).toBeLessThan(2);
      await expectStateWordsReadable('dark');
      await checkPage(page, 'dark-mode');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('does not scroll sideways at 360 px, with a long command, a long URL and many arguments', async () => {
    // Every card open, as the form: what they show is what must fit.
    for (const name of ['words', 'broken', 'sleepy', 'off', 'mute', 'faraway']) {
      await openCard(page, name);
    }
    await (await openPanel(page, 'Add server'))
      .locator('input[name="target"]')
      .fill(`npx -y some-server ${LONG} ${'--flag '.repeat(20)}`);
    await page.locator('form .words').waitFor(WAIT);
    const viewport = page.viewportSize();
    try {
      for (const width of [390, 360]) {
        await page.setViewportSize({ width, height: 800 });
        const scrollWidth = await page.locator('html').evaluate((html) => html.scrollWidth);
        expect(scrollWidth, `the page at ${width} px`).toBeLessThanOrEqual(width);
      }
    } finally {
      if (viewport !== null) await page.setViewportSize(viewport);
    }
    await checkPage(page, 'long-commands');
  });
});
