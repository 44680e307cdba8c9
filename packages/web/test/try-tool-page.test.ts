// "Try a tool" and "Find a tool" on the connectors page, in real Chromium against epoch web with
// real servers: the reference server (`get-sum`, `get-tiny-image`), the fixture server's `cli`
// tools (`slow` answers only when cancelled, `fail` reports an error; every message it receives is
// recorded to a file), its `form` tool (`order`, which answers with its arguments) and the
// hand-written result-shapes server (`audience`: a block meant for the user only). A call runs
// the runtime's own tool; a cancel is proved on the server's side, by the notifications/cancelled
// it received. Each state is checked by checkPage (axe, no sideways scroll, screenshots).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYTHING_ENTRY, fixtureServerArgs, waitUntil } from '@epoch-agent/testkit';
import type { McpView } from '@epoch-agent/web';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry, type TestWeb } from './web-helpers.js';

const SHAPES_SERVER = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/result-shapes-server.mjs', import.meta.url),
);

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let session: PageSession;
let web: TestWeb;
let page: Page;
let record: string;

beforeAll(async () => {
  record = join(process.env.EPOCH_HOME as string, 'cli-messages.jsonl');
  session = await openPage({
    servers: {
      everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
      tools: fixtureEntry(fixtureServerArgs('cli'), { env: { RECORD_FILE: record } }),
      shop: fixtureEntry(fixtureServerArgs('form')),
      shapes: fixtureEntry(SHAPES_SERVER),
    },
  });
  ({ web, page } = session);
  await web.settled();
});

afterAll(async () => {
  await session?.close();
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);

/** The tool's row, its tool list opened (once the server is connected). */
async function toolRow(server: string, tool: string): Promise<Locator> {
  const row = card(server).locator(`li[data-tool="mcp__${server}__${tool}"]`);
  await card(server).and(page.locator('[data-state="connected"]')).waitFor(WAIT);
  await openCard(page, server);
  if (!(await row.isVisible())) await card(server).locator('details.tools > summary').click();
  await row.waitFor(WAIT);
  return row;
}

/** The tool's Try form, opened. */
async function tryForm(server: string, tool: string): Promise<Locator> {
  const row = await toolRow(server, tool);
  const form = row.getByRole('form', { name: `Try mcp__${server}__${tool}` });
  if (!(await form.isVisible())) await row.locator('details.try > summary').click();
  await form.waitFor(WAIT);
  return form;
}

interface Recorded {
  readonly method?: string;
  readonly id?: number;
  readonly params?: { readonly name?: string; readonly requestId?: number };
}

async function recorded(): Promise<Recorded[]> {
  const text = await readFile(record, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Recorded);
}

describe('try a tool', () => {
  it('runs get-sum of the reference server with 19 and 23 and shows 42', async () => {
    const form = await tryForm('everything', 'get-sum');
    await form.getByRole('spinbutton', { name: /^a/ }).fill('19');
    await form.getByRole('spinbutton', { name: /^b/ }).fill('23');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect
      .poll(() => form.locator('.result').textContent(), WAIT)
      .toContain('The sum of 19 and 23 is 42.');
    await expect(form.getByRole('status').textContent()).resolves.toMatch(/^Done in \d+ ms/);
  });

  it('cancel while it runs: the server receives notifications/cancelled for that call', async () => {
    const form = await tryForm('tools', 'slow');
    await form.getByRole('button', { name: 'Run' }).click();
    const cancel = form.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor(WAIT);
    // The call has reached the server before it is cancelled.
    const call = await waitUntil(
      async () =>
        (await recorded()).find((m) => m.method === 'tools/call' && m.params?.name === 'slow'),
      'the server to receive the tools/call of "slow"',
    );
    await cancel.click();
    await expect
      .poll(() => form.getByRole('status').textContent(), WAIT)
      .toBe('Cancelled: the server was told to stop the call.');
    const cancelled = await waitUntil(
      async () =>
        (await recorded()).find(
          (m) => m.method === 'notifications/cancelled' && m.params?.requestId === call.id,
        ),
      () => `notifications/cancelled for request ${call.id}`,
    );
    expect(cancelled).toBeDefined();
  });

  it('a form with a nested object ($ref), an array and an enum builds the right arguments', async () => {
    const form = await tryForm('shop', 'order');
    // The enum's default is filled in.
    const speed = form.getByRole('combobox', { name: /^speed/ });
    await expect(speed.locator('option:checked').textContent()).resolves.toBe('standard');
    await form.getByRole('textbox', { name: /^customer/ }).fill('Ada');
    await speed.selectOption('express');
    const shipTo = form.getByRole('group', { name: /^ship_to/ });
    await shipTo.getByRole('textbox', { name: /^street/ }).fill('1 Main St');
    await shipTo.getByRole('spinbutton', { name: /^zip/ }).fill('12345');
    const items = form.getByRole('group', { name: /^items/ });
    await items.getByRole('button', { name: 'Add to items' }).click();
    await items.getByRole('button', { name: 'Add to items' }).click();
    const first = items.getByRole('group', { name: /^items\[0\]/ });
    const second = items.getByRole('group', { name: /^items\[1\]/ });
    await first.getByRole('textbox', { name: /^sku/ }).fill('A1');
    await second.getByRole('textbox', { name: /^sku/ }).fill('B2');
    // The item's default quantity is filled in; the second is changed.
    await expect(first.getByRole('spinbutton', { name: /^qty/ }).inputValue()).resolves.toBe('1');
    await second.getByRole('spinbutton', { name: /^qty/ }).fill('3');
    await form.getByRole('combobox', { name: /^gift/ }).selectOption('true');
    // A union is written as JSON.
    await form.getByRole('textbox', { name: /^note/ }).fill('"fragile"');
    await checkPage(page, 'try-form-nested');
    const expected = {
      customer: 'Ada',
      speed: 'express',
      ship_to: { street: '1 Main St', zip: 12345 },
      items: [
        { sku: 'A1', qty: 1 },
        { sku: 'B2', qty: 3 },
      ],
      gift: true,
      note: 'fragile',
    };

    await form.getByRole('button', { name: 'Run' }).click();
    const text = form.locator('.result .block.text pre');
    await text.waitFor(WAIT);
    expect(JSON.parse((await text.textContent()) ?? '')).toEqual(expected);
    // Its structuredContent is shown as well.
    const structured = form.locator('.result .block.structured pre');
    expect(JSON.parse((await structured.textContent()) ?? '')).toEqual(expected);

    // The raw JSON editor holds the same arguments, and what it is given is what is sent.
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = form.getByRole('textbox', { name: 'Arguments (JSON object)' });
    expect(JSON.parse(await json.inputValue())).toEqual(expected);
    await json.fill('{"customer": "Bo", "items": []}');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect
      .poll(async () => JSON.parse((await text.textContent()) ?? 'null'), WAIT)
      .toEqual({ customer: 'Bo', items: [] });
    await json.fill('[1, 2]');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'The arguments must be one JSON object, like {"a": 1}.',
    );

    await form.getByRole('button', { name: 'Edit as a form' }).click();
    await json.fill(
      '{"customer": "Cy", "items": [{"sku": "C3"}], "ship_to": {"street": "2 Low Rd"}}',
    );
    await form.getByRole('button', { name: 'Edit as a form' }).click();
    await expect(form.getByRole('textbox', { name: /^customer/ }).inputValue()).resolves.toBe('Cy');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect
      .poll(async () => JSON.parse((await text.textContent()) ?? 'null'), WAIT)
      .toEqual({ customer: 'Cy', items: [{ sku: 'C3' }], ship_to: { street: '2 Low Rd' } });
    await checkPage(page, 'try-result');
  });

  it('an isError result shows as an error', async () => {
    const form = await tryForm('tools', 'fail');
    await form.getByRole('button', { name: 'Run' }).click();
    const result = form.locator('.result');
    await result.waitFor(WAIT);
    await expect(result.getAttribute('data-is-error')).resolves.toBe('true');
    await expect(result.textContent()).resolves.toContain('it broke');
    await expect(form.getByRole('alert').textContent()).resolves.toContain(
      'The tool reported an error',
    );
    await checkPage(page, 'try-error-result');
  });

  it('a block the tool meant for the user only is shown, marked "for you"', async () => {
    const form = await tryForm('shapes', 'audience');
    await form.getByRole('button', { name: 'Run' }).click();
    const mine = form.locator('.result [data-for-user="true"]');
    await mine.waitFor(WAIT);
    await expect(mine.textContent()).resolves.toBe(
      'for you (not given to the model)shown to the user only',
    );
    await expect(form.locator('.result').textContent()).resolves.toContain('for the model');
    await checkPage(page, 'try-for-user-result');
  });

  it('an image result is shown', async () => {
    const form = await tryForm('everything', 'get-tiny-image');
    await form.getByRole('button', { name: 'Run' }).click();
    const image = form.locator('.result img');
    await image.waitFor(WAIT);
    await expect
      .poll(
        // The test's types have no DOM: the element is read as what it is, an image.
        () =>
          image.evaluate(
            (img) => (img as unknown as { readonly naturalWidth: number }).naturalWidth,
          ),
        WAIT,
      )
      .toBeGreaterThan(0);
    await checkPage(page, 'try-image-result');
  });

  it('a tool the server does not have is refused with the server and tool named', async () => {
    const response = await web.api('/api/mcp/shop/tools/nothing/call', {
      method: 'POST',
      json: {},
    });
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('unknown_tool');
    expect(error.message).toContain('MCP server "shop" has no tool "nothing"');
    const notObject = await web.api('/api/mcp/shop/tools/order/call', {
      method: 'POST',
      json: { arguments: [1] },
    });
    expect(notObject.status).toBe(400);
    const tooLarge = await web.api('/api/mcp/shop/tools/order/call', {
      method: 'POST',
      json: { arguments: { customer: 'x'.repeat(1024 * 1024) } },
    });
    expect(tooLarge.status).toBe(413);
  });
});

describe('find a tool', () => {
  it('finds a tool by a word of its description and hides the others; clearing restores the page', async () => {
    await card('everything').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    const filter = page.getByRole('searchbox', { name: 'Find a tool' });
    const all = await page.locator('#tool-filter-count').textContent();
    expect(all).toMatch(/^\d+ tools on 4 servers$/);
    // Closed, its row shows what matches (earlier tests opened it).
    const everything = card('everything').locator('button.row');
    if ((await everything.getAttribute('aria-expanded')) === 'true') await everything.click();
    await filter.fill('logo');
    await expect
      .poll(() => page.locator('#tool-filter-count').textContent(), WAIT)
      .toMatch(/^1 of \d+ tools match, on 1 server$/);
    await expect(page.locator('article.server').count()).resolves.toBe(1);
    // Its row names the tool that matches; its card, opened, lists only that one, open.
    await expect(
      card('everything').locator('.matches [data-tool]').allTextContents(),
    ).resolves.toEqual(['get-tiny-image']);
    await openCard(page, 'everything');
    const rows = card('everything').locator('li[data-tool]');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.getAttribute('data-tool')).resolves.toBe('mcp__everything__get-tiny-image');
    await expect(rows.isVisible()).resolves.toBe(true);
    await checkPage(page, 'find-tool-filtered');

    await filter.press('Escape');
    await expect.poll(() => page.locator('#tool-filter-count').textContent(), WAIT).toBe(all);
    await expect(page.locator('article.server').count()).resolves.toBe(4);
  });

  it("a tool's full input and output schema on demand; the live view carries neither", async () => {
    const view = (await (await web.api('/api/mcp')).json()) as McpView;
    expect(JSON.stringify(view)).not.toContain('inputSchema');
    const row = await toolRow('shop', 'order');
    // Named after their tool for a screen reader, which lists every row's Schema and Try at once.
    const details = await row.locator('.tool-details').ariaSnapshot();
    expect(details).toContain('group: Schema of mcp__shop__order');
    expect(details).toContain('group: Try mcp__shop__order');
    await row.locator('details.schema > summary').click();
    const output = row.locator('pre.output-schema');
    await output.waitFor(WAIT);
    expect(JSON.parse((await output.textContent()) ?? '')).toEqual({
      type: 'object',
      description: 'The arguments it was given',
    });
    const input = JSON.parse((await row.locator('pre.input-schema').textContent()) ?? '');
    expect(input.$defs.address.required).toEqual(['street']);
    await checkPage(page, 'tool-schema-open');
  });
});
