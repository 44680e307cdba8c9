// What a second review of the connectors page in real Chromium found, each fixed and proved here
// against epoch web with real servers: Run, Add server, Add from JSON and Import keep keyboard
// focus while busy (never `disabled`), an Add puts focus on the new row and a refused one on the
// first field in error; a row switched off or on stays where it is and the page does not scroll;
// Escape closes a card and the bar's panels, focus back where they were opened; a server that
// exits as it starts shows its exit code; a description's Markdown list is not drawn as tool rows;
// the group heading's total and the budget line's agree on screen; a secret of a server's never
// shows in its command line; the Add from JSON box scrolled back after an add.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { epochHome } from '@epoch-agent/infra';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard, openPanel } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import {
  ANNOTATED_SERVER,
  CHANGING_TOOLS_SERVER,
  fixtureEntry,
  PID_SERVER,
} from './web-helpers.js';

const WAIT = { timeout: 20_000 };
// A GitHub token's shape; the value is the test's own.
const TOKEN = 'ghp_reviewTokenValue1234567890abcdefABCD';
const MARKDOWN_TOOL = {
  name: 'listed',
  description: 'Does two things:\n\n- the first\n- the second',
  inputSchema: { type: 'object', properties: {} },
};

const ANSWER_THEN_EXIT = `
const fs = require('node:fs');
let buffer = '';
const answer = (reply) => fs.writeSync(1, JSON.stringify({ jsonrpc: '2.0', ...reply }) + '\\n');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let at = buffer.indexOf('\\n'); at >= 0; at = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (message.method !== 'initialize') {
      if (message.id !== undefined) answer({ id: message.id, error: { code: -32601, message: 'no' } });
      continue;
    }
    const { protocolVersion } = message.params;
    answer({ id: message.id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } });
    console.error('x');
    process.stdin.destroy();
    fs.closeSync(0);
    fs.closeSync(1);
    setTimeout(() => process.exit(3), 300);
  }
});`;

let session: PageSession;
let page: Page;
let home: string;
let machine: string;

beforeAll(async () => {
  home = epochHome();
  // Another client's file for Import: one server, a fixture that starts at once.
  machine = await mkdtemp(join(tmpdir(), 'epoch-review-'));
  await mkdir(join(machine, '.cursor'));
  await writeFile(
    join(machine, '.cursor', 'mcp.json'),
    JSON.stringify({
      mcpServers: { imported: { command: process.execPath, args: [PID_SERVER, '--tool=beta'] } },
    }),
  );
  const toolsFile = join(home, 'listed.tools.json');
  await writeFile(toolsFile, JSON.stringify([MARKDOWN_TOOL]));
  const fillers = Object.fromEntries(
    ['s1', 's2', 's3', 's4', 's5', 's6', 's7'].map((name) => [
      name,
      fixtureEntry(ANNOTATED_SERVER),
    ]),
  );
  session = await openPage(
    {
      tool_budget_tokens: 9000,
      servers: {
        // Exits at once, before it reads a byte.
        quick: { command: process.execPath, args: ['-e', "console.error('x'); process.exit(3)"] },
        // Closes its pipes, then exits: the connect fails before the exit is known.
        closing: {
          command: process.execPath,
          args: [
            '-e',
            "const fs = require('node:fs'); console.error('x'); fs.closeSync(0); fs.closeSync(1); setTimeout(() => process.exit(3), 300);",
          ],
        },
        // Answers initialize, then closes its pipes and exits: the client's next message meets
        // the closed pipe, which fails the connect before the exit is known.
        answered: { command: process.execPath, args: ['-e', ANSWER_THEN_EXIT] },
        work: fixtureEntry(fixtureServerArgs('progress'), {
          env: { RECORD_FILE: join(home, 'work-messages.jsonl') },
        }),
        ...fillers,
        md: fixtureEntry([CHANGING_TOOLS_SERVER, toolsFile, join(home, 'md.jsonl')]),
        later: { command: process.execPath, args: [PID_SERVER, '--tool=alpha'], defer: true },
        tokened: {
          command: process.execPath,
          args: [PID_SERVER, '--tool=gamma', `--note=${TOKEN}`],
          env: { GITHUB_TOKEN: TOKEN },
        },
      },
    },
    { importPlaces: { home: machine, platform: 'linux' } },
  );
  ({ page } = session);
  await session.web.settled();
});

afterAll(async () => {
  await session?.close();
  await rm(machine, { recursive: true, force: true });
});

const card = (name: string) => page.locator(`article[data-server="${name}"]`);
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);
const rowNames = () =>
  page
    .locator('section[data-group="user"] article.server')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-server')));

/**
 * Watches `button` for a `disabled` attribute from now on; the function returns whether it ever
 * had one (a disabled button drops focus to <body>). Marked on the button itself.
 */
async function watchDisabled(button: Locator): Promise<() => Promise<boolean>> {
  await button.evaluate((element) => {
    const view = element.ownerDocument.defaultView as unknown as {
      MutationObserver: new (
        seen: () => void,
      ) => { observe(target: unknown, options: { attributeFilter: string[] }): void };
    };
    const seen = () => {
      if (element.hasAttribute('disabled')) element.setAttribute('data-was-disabled', 'true');
    };
    seen();
    new view.MutationObserver(seen).observe(element, { attributeFilter: ['disabled'] });
  });
  return async () => (await button.getAttribute('data-was-disabled')) === 'true';
}

describe('busy buttons keep focus', () => {
  it('Run keeps focus while its call runs; a second Enter is ignored, and once done Enter runs again', async () => {
    await card('work').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'work');
    await card('work').locator('details.tools > summary').click();
    const row = card('work').locator('li[data-tool="mcp__work__until_file"]');
    await row.locator('details.try > summary').click();
    const form = row.getByRole('form', { name: 'Try mcp__work__until_file' });
    const release = join(home, 'release-run');
    await form.getByRole('textbox', { name: /^file/ }).fill(release);
    await form.getByRole('spinbutton', { name: /^every_ms/ }).fill('50');
    const run = form.locator('button[type="submit"]');
    const disabled = await watchDisabled(run);
    await run.focus();
    await page.keyboard.press('Enter');
    await form.getByRole('progressbar').waitFor(WAIT);
    await expect(run.getAttribute('aria-busy')).resolves.toBe('true');
    await expect(isFocused(run)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await checkPage(page, 'review-run-busy');
    await writeFile(release, '');
    await expect.poll(() => form.locator('.result').textContent(), WAIT).toContain('released');
    await expect(isFocused(run)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => {
        const text = await readFile(join(home, 'work-messages.jsonl'), 'utf8');
        return text.split('"method":"tools/call"').length - 1;
      }, WAIT)
      .toBe(2);
    await expect(disabled()).resolves.toBe(false);
  });

  it('Add server: a refused Add focuses the first field in error; an Add never disables its button and focuses the new row', async () => {
    const form = (await openPanel(page, 'Add server')).locator('form');
    const submit = form.getByRole('button', { name: 'Add server' });
    const disabled = await watchDisabled(submit);
    await form.locator('input[name="name"]').fill('has a space');
    await submit.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(form.locator('input[name="name"]')), WAIT).toBe(true);

    await form.locator('input[name="name"]').fill('added');
    await form
      .locator('input[name="target"]')
      .fill(`'${process.execPath}' '${PID_SERVER}' --tool=delta`);
    await submit.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(card('added').locator('button.row')), WAIT).toBe(true);
    await expect(disabled()).resolves.toBe(false);
  });

  it('Add from JSON at 360 px: a refusal focuses the box; never disabled, focus on the new row, and the box scrolled back to its start', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    try {
      const panel = await openPanel(page, 'Add from JSON');
      const submit = panel.getByRole('button', { name: 'Add from JSON' });
      const disabled = await watchDisabled(submit);
      await panel.locator('input[name="paste-name"]').fill('pasted');
      const box = panel.locator('textarea[name="paste-json"]');
      // JSON that does not parse: the error goes above the button, focus to the box it is about.
      await box.fill('{"x": ');
      await submit.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => isFocused(box), WAIT).toBe(true);
      await expect(box.getAttribute('aria-invalid')).resolves.toBe('true');
      await box.fill(
        JSON.stringify({
          command: process.execPath,
          args: [PID_SERVER, `--tool=${'e'.repeat(200)}`],
        }),
      );
      await box.evaluate((element) => {
        element.scrollLeft = element.scrollWidth;
      });
      await expect(box.evaluate((element) => element.scrollLeft)).resolves.toBeGreaterThan(0);
      await submit.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => isFocused(card('pasted').locator('button.row')), WAIT).toBe(true);
      await expect(box.inputValue()).resolves.toBe('');
      await expect(box.evaluate((element) => element.scrollLeft)).resolves.toBe(0);
      await expect(disabled()).resolves.toBe(false);
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  });

  it('Import keeps focus on its button through the import', async () => {
    await page.getByRole('button', { name: 'Import from…' }).click();
    const dialog = page.locator('dialog.import-dialog');
    const submit = dialog.locator('.import-actions button.primary');
    await expect.poll(() => submit.textContent(), WAIT).toBe('Import 1 selected');
    const disabled = await watchDisabled(submit);
    await submit.focus();
    await page.keyboard.press('Enter');
    await dialog.locator('.notice', { hasText: 'Added 1 server' }).waitFor(WAIT);
    // Nothing left to import: "Import 0 selected", still the focused element.
    await expect.poll(() => submit.textContent(), WAIT).toBe('Import 0 selected');
    await expect(isFocused(submit)).resolves.toBe(true);
    await expect(submit.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(disabled()).resolves.toBe(false);
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
  });
});

describe('a row stays where the person acted on it', () => {
  it('switching a server off and on again moves neither its row nor the page', async () => {
    // The servers added above have connected: no other row moves meanwhile.
    await session.web.settled();
    await page.setViewportSize({ width: 1100, height: 400 });
    try {
      const s2 = card('s2');
      await s2.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await s2.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      const before = await rowNames();
      const where = async () => ({
        scroll: await page
          .locator('html')
          .evaluate((root) => root.ownerDocument.defaultView?.scrollY),
        top: await s2.evaluate((element) => Math.round(element.getBoundingClientRect().top)),
      });
      const at = await where();
      expect(at.scroll).toBeGreaterThan(0);
      const toggle = s2.getByRole('switch', { name: 'Server s2' });
      await toggle.focus();
      await page.keyboard.press('Space');
      await s2.and(page.locator('[data-state="disabled"]')).waitFor(WAIT);
      await expect(rowNames()).resolves.toEqual(before);
      await expect(where()).resolves.toEqual(at);
      await expect(isFocused(toggle)).resolves.toBe(true);
      await page.keyboard.press('Space');
      await s2.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await expect(rowNames()).resolves.toEqual(before);
      await expect(where()).resolves.toEqual(at);
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  });
});

describe('Escape', () => {
  it('closes an open card, focus back on its row; the remove question takes its own Escape', async () => {
    const s3 = await openCard(page, 's3');
    await s3.getByRole('button', { name: 'Remove', exact: true }).click();
    const cancel = s3.getByRole('button', { name: 'Cancel' });
    await cancel.focus();
    await page.keyboard.press('Escape');
    // Only the question went.
    await expect.poll(() => cancel.count(), WAIT).toBe(0);
    await expect(s3.locator('.body').count()).resolves.toBe(1);
    await s3.getByRole('button', { name: 'Reconnect', exact: true }).focus();
    await page.keyboard.press('Escape');
    // Focus is handed back once the closed card has been drawn: waited for, not read at once.
    await expect.poll(() => isFocused(s3.locator('button.row')), WAIT).toBe(true);
    await expect(s3.locator('.body').count()).resolves.toBe(0);
    await expect(s3.locator('button.row').getAttribute('aria-expanded')).resolves.toBe('false');
  });

  it('closes the Add server and Add from JSON panels, focus back on their bar buttons', async () => {
    for (const label of ['Add server', 'Add from JSON'] as const) {
      const panel = await openPanel(page, label);
      await panel.locator('input').first().focus();
      await page.keyboard.press('Escape');
      await expect
        .poll(() => isFocused(page.locator('.bar-actions button', { hasText: label })), WAIT)
        .toBe(true);
      await expect(panel.isVisible()).resolves.toBe(false);
    }
  });
});

describe('what a card and the totals say', () => {
  it('a server that exits as it starts shows its exit code, failed', async () => {
    for (const name of ['quick', 'closing', 'answered']) {
      await card(name).and(page.locator('[data-state="failed"]')).waitFor(WAIT);
      await openCard(page, name);
      // The error is there at once; its exit line must be in it.
      await expect(card(name).locator('.error').textContent(), name).resolves.toContain(
        'The server exited with code 3.',
      );
    }
  });

  it("a description's Markdown list is not drawn as the tool list's rows", async () => {
    await openCard(page, 'md');
    await card('md').locator('details.tools > summary').click();
    const item = card('md').locator('li[data-tool="mcp__md__listed"] .description li').first();
    await item.waitFor(WAIT);
    const look = await item.evaluate((element) => {
      const style = element.ownerDocument.defaultView?.getComputedStyle(element);
      return { border: style?.borderTopStyle, padding: style?.paddingTop };
    });
    expect(look).toEqual({ border: 'none', padding: '0px' });
  });

  it("the group heading's total is the budget line's servers' tools, and the line says what else it counts", async () => {
    await session.web.viewWhen((v) =>
      v.groups.user.some((s) => s.name === 'later' && s.tools.length > 0),
    );
    const heading = await page.locator('section[data-group="user"] h2 .cost').textContent();
    const own = /≈ ([\d.]+k? tokens)/.exec(heading ?? '')?.[1];
    expect(own).toBeDefined();
    const budget = (await page.locator('.budget').textContent()) ?? '';
    expect(budget).toContain(`the servers' tools ≈ ${own}`);
    expect(budget).toMatch(/, and mcp_search_tools ≈ [\d.]+k? tokens, through which/);
  });

  it("a secret of the server's is blanked in its command line, as in its stderr", async () => {
    const tokened = await openCard(page, 'tokened');
    const target = (await tokened.locator('.target').textContent()) ?? '';
    expect(target).toContain('--note=<redacted>');
    await tokened.locator('details.fields > summary').click();
    await expect(tokened.locator('details.fields').textContent()).resolves.toContain(
      '--note=<redacted>',
    );
    expect(await page.content()).not.toContain(TOKEN);
  });
});
