// The smaller defects of the connectors page, in real Chromium against epoch web with real
// servers: one token total (the summary and the budget line agree), the exit code of a server
// that exits as it starts again, a Try form kept with what was typed when its tool leaves the
// list, the add form's errors tied to their inputs, "Add a variable" focusing its row, a required
// field named right to a screen reader, a Markdown description rendered without its HTML or
// script links, and "getsum" finding get-sum.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome } from '@epoch-agent/infra';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpView } from '../src/api-types.js';
import { checkPage } from './page-check.js';
import { openCard, openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import {
  ANNOTATED_SERVER,
  CHANGING_TOOLS_SERVER,
  fixtureEntry,
  PID_SERVER,
  type TestWeb,
} from './web-helpers.js';

const WAIT = { timeout: 20_000 };

const tool = (name: string, description: string, properties: object, required?: string[]) => ({
  name,
  description,
  inputSchema: { type: 'object', properties, ...(required === undefined ? {} : { required }) },
});
const CHANGE_TOOLS = tool('change_tools', 'Replaces the tool list and sends list_changed.', {
  tools: { type: 'array' },
});
const GET_SUM = tool(
  'get-sum',
  [
    'Adds **two** numbers, `a` and `b`.',
    '',
    'See [the docs](https://example.com/docs) or [this](javascript:alert(1)).',
    '',
    '- the first item',
    '- the second item',
    '',
    '<img src=x onerror="document.title=`pwned`">',
  ].join('\n'),
  { a: { type: 'number', description: 'the first' }, b: { type: 'number' } },
  ['a'],
);

let session: PageSession;
let web: TestWeb;
let page: Page;
/** While this file exists, the `flaky` server exits with code 3 as it starts. */
let dies: string;

beforeAll(async () => {
  const home = epochHome();
  dies = join(home, 'flaky-dies');
  const toolsFile = join(home, 'sums.tools.json');
  await writeFile(toolsFile, JSON.stringify([CHANGE_TOOLS, GET_SUM]));
  session = await openPage(
    {
      tool_budget_tokens: 9000,
      servers: {
        sums: fixtureEntry([CHANGING_TOOLS_SERVER, toolsFile, join(home, 'sums.jsonl')]),
        words: fixtureEntry(ANNOTATED_SERVER),
        later: { command: process.execPath, args: [PID_SERVER, '--tool=alpha'], defer: true },
        flaky: fixtureEntry([FIXTURE_SERVER, `--exit-at-start-if=${dies}`]),
      },
    },
    // A series' next attempt far off: the server stays reconnecting while the test looks.
    { registry: { reconnectDelaysMs: [120_000] } },
  );
  ({ web, page } = session);
  await web.viewWhen((v) => (serverOf(v, 'sums')?.tools.length ?? 0) === 2);
});

afterAll(async () => {
  await session?.close();
  await rm(dies, { force: true });
});

const serverOf = (view: McpView, name: string) =>
  Object.values(view.groups)
    .flat()
    .find((s) => s.name === name);
const card = (name: string) => page.locator(`article[data-server="${name}"]`);
const connected = (name: string) => card(name).and(page.locator('[data-state="connected"]'));
const focused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** Opens the card of `server`, then its tool list. */
async function openTools(server: string): Promise<void> {
  await openCard(page, server);
  const summary = card(server).locator('details.tools > summary');
  if ((await card(server).locator('details.tools[open]').count()) === 0) await summary.click();
}

describe('the smaller defects', () => {
  it('the summary and the budget line give one total of what every request carries', async () => {
    await web.viewWhen((v) => (serverOf(v, 'later')?.tools.length ?? 0) === 2);
    await connected('words').waitFor(WAIT);
    const total = (text: string | null) => /≈ ([\d.]+k? tokens)/.exec(text ?? '')?.[1];
    const view = (await (await web.api('/api/mcp')).json()) as McpView;
    const summary = total(await page.locator('.summary-line').textContent());
    expect(summary).toBeDefined();
    expect(summary).toBe(total(await page.locator('.budget').textContent()));
    expect(await page.locator('.summary-line').textContent()).toContain('2 on demand');
    // A server whose tools are all on demand is not said to cost "≈ 0" in every request: not on
    // its row, nor in its card.
    const facts = await card('later').locator('.row .facts').textContent();
    expect(facts).toBe('2 tools');
    await openCard(page, 'later');
    const later = await card('later').locator('.tokens').textContent();
    expect(later).toContain('2 tools, all on demand: none in every request');
    expect(later).not.toContain('≈ 0 tokens');
    expect(view.offeredTokens).toBeGreaterThan(0);
  });

  it('a server that exits as it starts again shows its exit code while it is reconnecting', async () => {
    await connected('flaky').waitFor(WAIT);
    await writeFile(dies, '');
    await openCard(page, 'flaky');
    await card('flaky').getByRole('button', { name: 'Reconnect', exact: true }).click();
    const reconnecting = card('flaky').and(page.locator('[data-state="reconnecting"]'));
    await reconnecting.waitFor(WAIT);
    await expect(reconnecting.locator('.exit').textContent()).resolves.toBe(
      'The server exited with code 3.',
    );
  });

  it('"getsum" finds get-sum in Find a tool', async () => {
    const filter = page.locator('#tool-filter');
    // Emptied however the test ends: the later tests need every server shown.
    try {
      await filter.fill('getsum');
      await expect(page.locator('#tool-filter-count').textContent()).resolves.toMatch(
        /^1 of \d+ tools match, on 1 server$/,
      );
      // The closed row names the tool that matches; its card, opened, lists it.
      await expect(
        card('sums').locator('.matches code[data-tool="mcp__sums__get-sum"]').count(),
      ).resolves.toBe(1);
      await openCard(page, 'sums');
      await expect(
        card('sums').locator('li[data-tool="mcp__sums__get-sum"]').count(),
      ).resolves.toBe(1);
    } finally {
      await filter.fill('');
    }
  });

  it('a Markdown description is rendered, its HTML shown as text and a script link not a link', async () => {
    await openTools('sums');
    const description = card('sums').locator('li[data-tool="mcp__sums__get-sum"] .description');
    await expect(description.locator('strong').textContent()).resolves.toBe('two');
    await expect(description.locator('li').allTextContents()).resolves.toEqual([
      'the first item',
      'the second item',
    ]);
    const links = description.locator('a');
    await expect(links.count()).resolves.toBe(1);
    await expect(links.getAttribute('href')).resolves.toBe('https://example.com/docs');
    await expect(links.getAttribute('rel')).resolves.toContain('noopener');
    await expect(description.textContent()).resolves.toContain('[this](javascript:alert(1))');
    await expect(description.locator('img').count()).resolves.toBe(0);
    await expect(description.textContent()).resolves.toContain('<img src=x');
    expect(await page.title()).not.toBe('pwned');
  });

  it('a required field\'s name reads with a space before "required"', async () => {
    await openTools('sums');
    const row = card('sums').locator('li[data-tool="mcp__sums__get-sum"]');
    await expect(
      row.getByRole('rowheader', { name: 'a required', exact: true }).count(),
    ).resolves.toBe(1);
    await row.locator('details.try > summary').click();
    await row.getByRole('spinbutton', { name: 'a required', exact: true }).waitFor(WAIT);
  });

  it('a Try whose tool leaves the list keeps what was typed and says the tool is gone', async () => {
    await openTools('sums');
    const row = card('sums').locator('li[data-tool="mcp__sums__get-sum"]');
    if ((await row.locator('details.try[open]').count()) === 0) {
      await row.locator('details.try > summary').click();
    }
    const input = row.getByRole('spinbutton', { name: 'a required', exact: true });
    await input.fill('42');
    const response = await web.api('/api/mcp/sums/tools/change_tools/call', {
      method: 'POST',
      json: { arguments: { tools: [CHANGE_TOOLS] } },
    });
    expect(response.status).toBe(200);
    await web.viewWhen((v) => serverOf(v, 'sums')?.tools.length === 1);
    await row.and(page.locator('[data-gone="true"]')).waitFor(WAIT);
    await expect(input.inputValue()).resolves.toBe('42');
    await checkPage(page, 'try-tool-gone');
    await expect(row.locator('.gone').textContent()).resolves.toContain(
      "get-sum is no longer in sums's tool list",
    );
    // aria-disabled, so clicked past Playwright's wait for an enabled button: it says why.
    await row.getByRole('button', { name: 'Run' }).click({ force: true });
    await row.locator('.problem', { hasText: 'cannot be run' }).nth(1).waitFor(WAIT);
    await row.getByRole('button', { name: 'Dismiss' }).click();
    await expect(row.count()).resolves.toBe(0);
  });

  it("the add form's errors are tied to their inputs, and Add a variable focuses its row", async () => {
    const form = (await openPanel(page, 'Add server')).locator('form');
    await form.locator('input[name="name"]').fill('has a space');
    await form.getByRole('button', { name: 'Add server' }).click();
    for (const input of ['name', 'target']) {
      const field = form.locator(`[name="${input}"]`);
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      const described = await field.getAttribute('aria-describedby');
      expect(described).toBeTruthy();
      const error = page.locator(`[id="${described}"]`);
      await expect(error.textContent()).resolves.toMatch(/.+/);
    }
    await expect(
      page
        .locator(`[id="${await form.locator('[name="name"]').getAttribute('aria-describedby')}"]`)
        .textContent(),
    ).resolves.toContain('Only letters, digits');

    await form.getByRole('button', { name: 'Add a variable' }).click();
    const rowName = form.getByRole('textbox', { name: 'Variable name' }).last();
    await expect.poll(() => focused(rowName), WAIT).toBe(true);
    await form.getByRole('button', { name: 'Add a variable' }).click();
    const second = form.getByRole('textbox', { name: 'Variable name' }).nth(1);
    await expect.poll(() => focused(second), WAIT).toBe(true);
  });
});
