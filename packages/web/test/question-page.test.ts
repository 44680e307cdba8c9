// A server's question on the connectors page, in real Chromium against epoch web with real stdio
// servers that ask: the reference server (`trigger-elicitation-request`, a form of every kind of
// field; `trigger-url-elicitation`, a page to visit) and fixtures/asking-server.mjs (a password).
// A Try's call asks; the dialog names the server, its source and the call, takes the answer
// (accept with a field typed and the defaults filled in, decline, Escape for cancel), keeps a secret
// out of the page once sent, shows a URL's origin and opens exactly that URL only on Open, closes
// on every page when one answers, and stops the call it belongs to.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import type { McpView } from '@epoch-agent/web';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry, type TestWeb } from './web-helpers.js';

const ASKING_SERVER = fileURLToPath(new URL('./fixtures/asking-server.mjs', import.meta.url));
const SECRET = 'hunter2-QUESTION-PAGE-5521';

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let session: PageSession;
let web: TestWeb;
let page: Page;
// The page a URL question leads to: a loopback server that records each visit's headers.
let site: Server;
let siteUrl: string;
const visits: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  site = createServer((request, response) => {
    visits.push({ url: request.url ?? '', headers: request.headers });
    response.end('visited');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  session = await openPage({
    servers: {
      everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
      asker: fixtureEntry(ASKING_SERVER),
    },
  });
  ({ web, page } = session);
  await web.settled();
});

afterEach(async () => {
  // A test that failed with its question open leaves no dialog over the next one.
  const { questions } = (await (await web.api('/api/mcp')).json()) as McpView;
  for (const { id } of questions) {
    await web.api(`/api/mcp/questions/${id}`, {
      method: 'POST',
      json: { answer: { action: 'cancel' } },
    });
  }
});

afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** The tool's Try form on `on`, opened (once its server is connected). */
async function tryForm(server: string, tool: string, on: Page = page): Promise<Locator> {
  const card = on.locator(`article[data-server="${server}"]`);
  await card.and(on.locator('[data-state="connected"]')).waitFor(WAIT);
  await openCard(on, server);
  const row = card.locator(`li[data-tool="mcp__${server}__${tool}"]`);
  if (!(await row.isVisible())) await card.locator('details.tools > summary').click();
  await row.waitFor(WAIT);
  const form = row.getByRole('form', { name: `Try mcp__${server}__${tool}` });
  if (!(await form.isVisible())) await row.locator('details.try > summary').click();
  await form.waitFor(WAIT);
  return form;
}

/** Runs the Try form and waits for the server's question: its dialog on `on`. */
async function runAndAsked(form: Locator, server: string, on: Page = page): Promise<Locator> {
  await form.getByRole('button', { name: 'Run' }).click();
  const dialog = on.getByRole('dialog', { name: `${server} asks you` });
  await dialog.waitFor(WAIT);
  return dialog;
}

const resultOf = (form: Locator) => expect.poll(() => form.locator('.result').textContent(), WAIT);

describe("a server's question in a dialog", () => {
  it('names the server, its source and the call; a required field is said, then accept sends what was typed with the defaults', async () => {
    const form = await tryForm('everything', 'trigger-elicitation-request');
    const dialog = await runAndAsked(form, 'everything');
    await expect(dialog.locator('.question-who').textContent()).resolves.toBe(
      'Server "everything", configured in your mcp.json, asks during a call of its tool "trigger-elicitation-request" (the one request it was running).',
    );
    await expect(dialog.locator('.question-words').textContent()).resolves.toBe(
      'Please provide inputs for the following fields:',
    );
    // The first field has focus, the defaults are filled in.
    await expect.poll(() => page.locator(':focus').getAttribute('name')).toBe('name');
    await expect(dialog.getByRole('spinbutton', { name: /^Integer/ }).inputValue()).resolves.toBe(
      '42',
    );
    await checkPage(page, 'question-form');

    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(dialog.locator('.field-error').textContent()).resolves.toBe('String required');
    await expect(dialog.isVisible()).resolves.toBe(true);

    await dialog.getByRole('textbox', { name: /^String required/ }).fill('Ada Lovelace');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain('- Name: Ada Lovelace');
    const shown = (await form.locator('.result').textContent()) ?? '';
    // The client filled in what was left as it was: the server got every default.
    expect(shown).toContain('"firstLine": "It was a dark and stormy night."');
    expect(shown).toContain('"integer": 42');
    // Focus is back where it was when the question came: in the Try form.
    await expect(form.evaluate((f) => f.contains(f.ownerDocument.activeElement))).resolves.toBe(
      true,
    );
  });

  it('decline tells the server no; Escape cancels', async () => {
    const form = await tryForm('everything', 'trigger-elicitation-request');
    const declined = await runAndAsked(form, 'everything');
    await declined.getByRole('button', { name: 'Decline' }).click();
    await declined.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain('User declined to provide the requested information.');

    const cancelled = await runAndAsked(form, 'everything');
    await page.keyboard.press('Escape');
    await cancelled.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain('User cancelled the elicitation dialog.');
  });

  it('a secret is typed masked, and once sent is nowhere in the page', async () => {
    const form = await tryForm('asker', 'sign_in');
    const dialog = await runAndAsked(form, 'asker');
    const password = dialog.getByLabel(/^Password/);
    await expect(password.getAttribute('type')).resolves.toBe('password');
    await expect(password.getAttribute('autocomplete')).resolves.toBe('off');
    await dialog.getByRole('textbox', { name: /^User name/ }).fill('ann');
    await password.fill(SECRET);
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain(
      `signed in as ann with a password of ${SECRET.length} characters`,
    );
    expect(await page.content()).not.toContain(SECRET);
    // What the inputs hold (a property, never serialized as an attribute), every one of them.
    const typed = await page
      .locator('input, textarea')
      .evaluateAll((inputs) =>
        inputs.map((input) => (input as unknown as { value: string }).value),
      );
    expect(typed.join('\n')).not.toContain(SECRET);
  });

  it('a PIN asked as a number is masked too, its default never filled in', async () => {
    const form = await tryForm('asker', 'confirm');
    const dialog = await runAndAsked(form, 'asker');
    const pin = dialog.getByLabel(/^PIN/);
    await expect(pin.getAttribute('type')).resolves.toBe('password');
    await expect(pin.inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain('8080');
    await pin.fill('61537');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain('confirmed with a PIN of 5 digits');
    expect(await page.content()).not.toContain('61537');
  });

  it('a URL: its origin shown whole, nothing opened until Open, then exactly that URL', async () => {
    const form = await tryForm('everything', 'trigger-url-elicitation');
    const target = `${siteUrl}/sign-in?step=1`;
    await form.getByRole('textbox', { name: /^url/ }).fill(target);
    const dialog = await runAndAsked(form, 'everything');
    await expect(dialog.locator('.question-origin').textContent()).resolves.toBe(siteUrl);
    await expect(dialog.locator('.question-url code').textContent()).resolves.toBe(target);
    // Enter alone opens nothing: focus waits on Cancel.
    await expect.poll(() => page.locator(':focus').textContent()).toBe('Cancel');
    await checkPage(page, 'question-url');
    expect(visits).toEqual([]);

    const opened = page.context().waitForEvent('page');
    await dialog.getByRole('button', { name: `Open ${siteUrl}` }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(target);
    // The page itself, once (the browser may go on to ask for the site's icon).
    expect(visits.map(({ url }) => url).filter((url) => url !== '/favicon.ico')).toEqual([
      '/sign-in?step=1',
    ]);
    expect(visits[0]?.headers.referer).toBeUndefined();
    await tab.close();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await resultOf(form).toContain('User completed the URL elicitation flow.');
  });

  it('two pages open: both are asked, one answers, the other’s dialog closes', async () => {
    const other = await page.context().newPage();
    try {
      await other.goto(web.url);
      const form = await tryForm('asker', 'sign_in');
      const here = await runAndAsked(form, 'asker');
      const there = other.getByRole('dialog', { name: 'asker asks you' });
      await there.waitFor(WAIT);
      // Only the page that runs the call can stop it.
      await expect(there.getByRole('button', { name: 'Stop the call' }).count()).resolves.toBe(0);
      await there.getByRole('button', { name: 'Decline' }).click();
      await here.waitFor({ state: 'hidden', ...WAIT });
      await there.waitFor({ state: 'hidden', ...WAIT });
      await resultOf(form).toContain('not signed in: decline');
    } finally {
      await other.close();
    }
  });

  it('Stop the call ends the call and its question, on every page', async () => {
    const other = await page.context().newPage();
    try {
      await other.goto(web.url);
      const form = await tryForm('asker', 'sign_in');
      const here = await runAndAsked(form, 'asker');
      const there = other.getByRole('dialog', { name: 'asker asks you' });
      await there.waitFor(WAIT);
      await here.getByRole('button', { name: 'Stop the call' }).click();
      await here.waitFor({ state: 'hidden', ...WAIT });
      await there.waitFor({ state: 'hidden', ...WAIT });
      await expect
        .poll(() => form.getByRole('status').textContent(), WAIT)
        .toBe('Cancelled: the server was told to stop the call.');
      await web.viewWhen((view) => view.questions.length === 0);
    } finally {
      await other.close();
    }
  });
});
