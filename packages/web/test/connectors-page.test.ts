// The connectors page in real Chromium, against epoch web over real HTTP with real servers from
// all three sources: what a person sees and does there. The page is the one `npm run build` built.
// A screenshot of it is saved under test/output/ (a CI artifact).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpConfigPath } from '@epoch-agent/infra';
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { openCard, openPanel } from './page-rows.js';
import {
  ANNOTATED_SERVER,
  FAILING_SERVER,
  fixtureEntry,
  oneInsertion,
  processesWith,
  removeAsRead,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const MORTAL = `--mortal-${process.pid}`;
// The wait before the one reconnect attempt: long enough for the page to show it counting down.
const RECONNECT_DELAY_MS = 3000;
// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let chromium: Chromium;
let web: TestWeb;
let page: Page;
let file: string;
let original: string;

beforeAll(async () => {
  file = mcpConfigPath();
  original = [
    '{',
    '  // Written by hand; the page must keep every byte of it.',
    '  "servers": {',
    `    "words": ${JSON.stringify(fixtureEntry(ANNOTATED_SERVER))},`,
    `    "broken": ${JSON.stringify(fixtureEntry(FAILING_SERVER))},`,
    `    "mortal": ${JSON.stringify({ command: process.execPath, args: [...ANNOTATED_SERVER, MORTAL] })},`,
    `    "sleepy": ${JSON.stringify(fixtureEntry(ANNOTATED_SERVER, { idle_timeout_seconds: 1 }))}`,
    '  }',
    '}',
    '',
  ].join('\n');
  await writeFile(file, original);
  const pluginDir = join(process.env.EPOCH_HOME as string, 'plugins', 'weather');
  await mkdir(pluginDir, { recursive: true });
  await writeFile(
    join(pluginDir, 'mcp.json'),
    JSON.stringify({ servers: { forecast: fixtureEntry(ANNOTATED_SERVER) } }),
  );
  [chromium, web] = await Promise.all([
    launchChromium(),
    startTestWeb({
      // A host that approves every server: these tests are about the page, not about approvals.
      approve: () => true,
      registry: { reconnectDelaysMs: [RECONNECT_DELAY_MS] },
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: { helper: fixtureEntry(ANNOTATED_SERVER) },
      },
    }),
  ]);
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

describe('the connectors page', () => {
  it('shows the three groups, each server with its state, target and tools; the key leaves the address bar', async () => {
    await card('words').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    expect(page.url()).toBe(`${web.origin}/`);
    for (const [group, server] of [
      ['user', 'words'],
      ['host', 'acme__helper'],
      ['plugin', 'weather__forecast'],
    ] as const) {
      const section = page.locator(`section[data-group="${group}"]`);
      await expect(section.locator('h2').textContent()).resolves.toMatch(/\S/);
      await section.locator(`article[data-server="${server}"]`).waitFor(WAIT);
    }
    const forecast = card('weather__forecast');
    await forecast.locator('[data-state="connected"], .state').first().waitFor(WAIT);
    await expect(forecast.locator('.state').textContent()).resolves.toBe('connected');
    await openCard(page, 'weather__forecast');
    await expect(forecast.textContent()).resolves.toContain('From plugin weather');
    await openCard(page, 'words');
    await openCard(page, 'acme__helper');
    await expect(card('words').locator('button', { hasText: 'Remove' }).count()).resolves.toBe(1);
    await expect(forecast.locator('button', { hasText: 'Remove' }).count()).resolves.toBe(0);
    await expect(
      card('acme__helper').locator('button', { hasText: 'Remove' }).count(),
    ).resolves.toBe(0);

    await forecast.locator('summary', { hasText: 'Tools (2)' }).click();
    const lookup = forecast.locator('li[data-tool="mcp__weather__forecast__lookup"]');
    await expect(lookup.locator('.title').textContent()).resolves.toBe('Look up a word');
    await expect(lookup.locator('.badge').allTextContents()).resolves.toEqual([
      'read-only',
      'closed world',
    ]);
    await expect(lookup.locator('table.parameters th').first().textContent()).resolves.toBe(
      'word required',
    );
    const forget = forecast.locator('li[data-tool="mcp__weather__forecast__forget"]');
    await expect(forget.locator('.badge').allTextContents()).resolves.toEqual([
      'destructive',
      'idempotent',
    ]);
    await expect(forecast.locator('.tokens').textContent()).resolves.toMatch(
      /2 tools · ≈ \d+ tokens of context/,
    );
  });

  it('a failing server shows its error, what to do, and the tail of its stderr', async () => {
    const broken = card('broken');
    await broken.and(page.locator('[data-state="failed"]')).waitFor(WAIT);
    await expect(broken.locator('.state').textContent()).resolves.toBe('failed');
    await openCard(page, 'broken');
    await expect(broken.locator('.error .message').textContent()).resolves.toContain(
      'MCP server "broken"',
    );
    await expect(broken.locator('.error .hint').textContent()).resolves.toContain('Reconnect');
    await expect(broken.locator('.stderr pre').textContent()).resolves.toContain(
      'error: WEATHER_API_KEY is not set',
    );
  });

  it('a server whose process dies shows reconnecting with its next attempt, then connected again', async () => {
    const mortal = card('mortal');
    await mortal.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    const [pid] = processesWith(MORTAL);
    process.kill(pid as number, 'SIGKILL');
    await mortal.and(page.locator('[data-state="reconnecting"]')).waitFor(WAIT);
    await openCard(page, 'mortal');
    await expect(mortal.locator('.detail').textContent()).resolves.toMatch(
      /^attempt 1 of 1 (in [1-3] s|now|running)$/,
    );
    await expect(mortal.locator('.error .message').textContent()).resolves.toContain(
      'reconnecting in the background',
    );
    await mortal.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    expect(processesWith(MORTAL)).toHaveLength(1);
  });

  it('a server closed for being idle shows idle and since when', async () => {
    const sleepy = card('sleepy');
    await sleepy.and(page.locator('[data-state="idle"]')).waitFor(WAIT);
    await expect(sleepy.locator('.state').textContent()).resolves.toBe('idle');
    await expect(sleepy.locator('.detail').textContent()).resolves.toMatch(/^since \S+/);
    await openCard(page, 'sleepy');
    await expect(sleepy.locator('.hint').textContent()).resolves.toContain('next tool call');
  });

  it('adding a stdio server through the form: a pasted line split like a shell, connected with its tools, the file the original plus one insertion', async () => {
    await card('words').waitFor(WAIT);
    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('input[name="name"]').fill('everything');
    const line = `LOG_LEVEL=warn '${process.execPath}' "${EVERYTHING_ENTRY}" stdio`;
    await form.locator('input[name="target"]').fill(line);
    await expect(form.locator('.words .word').allTextContents()).resolves.toEqual([
      'LOG_LEVEL=…',
      process.execPath,
      EVERYTHING_ENTRY,
      'stdio',
    ]);
    await form.locator('button', { hasText: 'Add a variable' }).click();
    await form.locator('input[aria-label="Variable name"]').fill('EVERYTHING_TOKEN');
    await form.locator('input[type="password"]').fill('form-SECRET-5');
    await form.locator('button[type="submit"]').click();

    const notice = page.locator('section.add .notice');
    await notice.waitFor(WAIT);
    await expect(notice.textContent()).resolves.toContain(`Added everything to ${file}`);
    await expect(notice.textContent()).resolves.toContain('connect_timeout');
    const added = card('everything');
    await added.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'everything');
    await added.locator('summary', { hasText: /^Tools \(\d+\)$/ }).click();
    await added.locator('li[data-tool="mcp__everything__echo"]').waitFor(WAIT);
    await expect(page.content()).resolves.not.toContain('form-SECRET-5');

    const after = await readFile(file, 'utf8');
    const inserted = oneInsertion(original, after);
    expect(
      JSON.parse(inserted.slice(inserted.indexOf('{'), inserted.lastIndexOf('}') + 1)),
    ).toEqual({
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_ENTRY, 'stdio'],
      env: { LOG_LEVEL: 'warn', EVERYTHING_TOKEN: 'form-SECRET-5' },
    });

    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'connectors.png'), fullPage: true });

    // Removing it (user servers only, after a confirmation) gives back the file as it was.
    await added.locator('button', { hasText: 'Remove' }).click();
    await added.locator('button', { hasText: 'Remove from mcp.json' }).click();
    await added.waitFor({ state: 'detached', ...WAIT });
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('a bad name shows the error and writes nothing; so does a name that is taken', async () => {
    await card('words').waitFor(WAIT);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('input[name="name"]').fill('my server');
    await form.locator('input[name="target"]').fill(`${process.execPath} -v`);
    await form.locator('button[type="submit"]').click();
    const nameError = form
      .locator('input[name="name"]')
      .locator('xpath=../following-sibling::p[1]');
    await expect(nameError.textContent()).resolves.toContain('Only letters, digits, "_" and "-"');
    await expect(form.locator('input[name="name"]').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    expect(posts).toEqual([]);

    // The server refuses a taken name too: its answer lands under the name.
    await form.locator('input[name="name"]').fill('words');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => nameError.textContent(), WAIT).toContain('already in');
    expect(posts).toEqual([`${web.origin}/api/mcp`]);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('live: a server added elsewhere appears without a reload, and Reconnect restarts it', async () => {
    await card('words').waitFor(WAIT);
    const marker = `--elsewhere-${process.pid}`;
    const added = await web.api('/api/mcp', {
      method: 'POST',
      json: {
        name: 'elsewhere',
        transport: 'stdio',
        command: process.execPath,
        args: [...ANNOTATED_SERVER, marker],
      },
    });
    expect(added.status).toBe(201);
    try {
      const elsewhere = card('elsewhere');
      await elsewhere.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await openCard(page, 'elsewhere');
      const before = processesWith(marker);
      expect(before).toHaveLength(1);
      const button = elsewhere.locator('.actions button').first();
      await expect(button.textContent()).resolves.toBe('Reconnect');
      await button.click();
      // A new process in place of the old one, and the page back to connected and ready.
      await expect
        .poll(() => {
          const now = processesWith(marker);
          return now.length === 1 && now[0] !== before[0];
        }, WAIT)
        .toBe(true);
      await elsewhere.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await expect.poll(() => button.isEnabled(), WAIT).toBe(true);
    } finally {
      await removeAsRead(web, 'elsewhere');
    }
    await card('elsewhere').waitFor({ state: 'detached', ...WAIT });
  });

  it('opened from a one-time address (what `epoch web --open` gives the opener), the page has the key', async () => {
    const opened = await chromium.context.newPage();
    try {
      await opened.goto(web.oneTimeUrl());
      await opened
        .locator('article[data-server="words"]')
        .and(opened.locator('[data-state="connected"]'))
        .waitFor(WAIT);
      expect(opened.url()).toBe(`${web.origin}/`);
    } finally {
      await opened.close();
    }
  });

  it('without the key (not opened from the URL epoch printed), the page says where to get it', async () => {
    const bare = await chromium.context.newPage();
    try {
      await bare.goto(`${web.origin}/`);
      await expect(bare.locator('[role="alert"]').textContent()).resolves.toContain(
        'open it from the URL that epoch web printed',
      );
    } finally {
      await bare.close();
    }
  });
});
