// A server's entry as JSON on the connectors page, in real Chromium against epoch web with real
// servers: edited on its card (only that entry's bytes change, the server restarts, the others run
// on), copied to the clipboard, and pasted to add a server. No secret of the file reaches the page.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { waitUntil } from '@epoch-agent/testkit';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerEntry, ServerEntryWritten } from '../src/api-types.js';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard, openPanel } from './page-rows.js';
import {
  ANNOTATED_SERVER,
  fixtureEntry,
  oneInsertion,
  processesWith,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const SECRET = 'sk-live-entry-editor-4f1d9a7c';
const WORDS_MARK = `--words-${process.pid}`;
const OTHER_MARK = `--other-${process.pid}`;

let chromium: Chromium;
let web: TestWeb;
let page: Page;
let file: string;

/** Written by hand: comments around and inside the entry, `type` and camelCase aliases. */
function handWritten(): string {
  const words = JSON.stringify(fixtureEntry([...ANNOTATED_SERVER, WORDS_MARK]).args);
  const other = JSON.stringify(fixtureEntry([...ANNOTATED_SERVER, OTHER_MARK]));
  return [
    '// My servers. The page must keep every byte of this but the entry it edits.',
    '{',
    '  "servers": {',
    '    // The words server, with its key.',
    '    "words": {',
    '      "type": "stdio", // alias of transport',
    `      "command": ${JSON.stringify(process.execPath)},`,
    `      "args": ${words},`,
    '      /* the key of the test account */',
    `      "env": { "WORDS_API_KEY": "${SECRET}" },`,
    '      "connectTimeout": 30,',
    '    },',
    `    "other": ${other}, // left alone`,
    '  },',
    '  "overrides": {},',
    '}',
    '',
  ].join('\n');
}

/** The UTF-16 span of server `name`'s object `{ … }` in `text`. */
function entrySpan(text: string, name: string): { start: number; end: number } {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root === undefined ? undefined : findNodeAtLocation(root, ['servers', name]);
  if (node === undefined) throw new Error(`no server ${name} in the file`);
  return { start: node.offset, end: node.offset + node.length };
}

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, handWritten());
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
  await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: web.origin,
  });
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
const connected = (name: string) => card(name).and(page.locator('[data-state="connected"]'));

describe('a server entry as JSON', () => {
  it('an edit of an entry written with comments and aliases changes only its bytes; the server restarts, the others run on', async () => {
    await connected('words').waitFor(WAIT);
    await connected('other').waitFor(WAIT);
    const before = await readFile(file, 'utf8');
    const [wordsPid] = processesWith(WORDS_MARK);
    const [otherPid] = processesWith(OTHER_MARK);
    expect(wordsPid).toBeDefined();

    const words = await openCard(page, 'words');
    await words.getByRole('button', { name: 'Edit JSON' }).click();
    const editor = words.locator('textarea[name="entry"]');
    await editor.waitFor(WAIT);
    const shown = await editor.inputValue();
    expect(shown).toContain('"WORDS_API_KEY": "<secret: env.WORDS_API_KEY>"');
    expect(shown).toContain('"type": "stdio", // alias of transport');
    expect(shown).toContain('"connectTimeout": 30,');
    expect(shown).not.toContain(SECRET);
    await expect(words.locator('.entry-editor').textContent()).resolves.toContain(
      'leave one as it is to keep the value in the file',
    );
    await expect(editor.evaluate((el) => el.ownerDocument.activeElement === el)).resolves.toBe(
      true,
    );
    await checkPage(page, 'entry-editor-open');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      // The editor fits its card at a phone's width (what else overflows is the card's own matter).
      const [form, box] = await words.evaluate((el) => [
        el.querySelector('.entry-editor')?.getBoundingClientRect().right ?? Number.NaN,
        el.getBoundingClientRect().right,
      ]);
      expect(form).toBeLessThanOrEqual(box as number);
    }
    await page.setViewportSize({ width: 1100, height: 900 });

    // A field the loader refuses: said with the field, nothing written.
    await editor.fill(shown.replace('"connectTimeout": 30', '"connectTimeout": "soon"'));
    await words.getByRole('button', { name: 'Save' }).click();
    const refusal = words.locator('.entry-editor .problem');
    await refusal.waitFor(WAIT);
    await expect(refusal.textContent()).resolves.toContain('servers.words.connectTimeout');
    await checkPage(page, 'entry-edit-refused');
    expect(await readFile(file, 'utf8')).toBe(before);

    await editor.fill(shown.replace('"connectTimeout": 30', '"connectTimeout": 45'));
    await words.getByRole('button', { name: 'Save' }).click();
    await words
      .locator('.entry-tools .notice', { hasText: 'Saved the entry of words' })
      .waitFor(WAIT);

    const after = await readFile(file, 'utf8');
    const { start, end } = entrySpan(before, 'words');
    const tail = before.length - end;
    expect(after.slice(0, start), 'every byte before the entry').toBe(before.slice(0, start));
    expect(after.slice(after.length - tail), 'every byte after the entry').toBe(before.slice(end));
    expect(after.slice(start, after.length - tail)).toBe(
      before.slice(start, end).replace('"connectTimeout": 30', '"connectTimeout": 45'),
    );
    expect(after).toContain(`"WORDS_API_KEY": "${SECRET}"`);

    // Its config changed: a new process; the other server's is the same one.
    await waitUntil(() => {
      const [pid] = processesWith(WORDS_MARK);
      return pid !== undefined && pid !== wordsPid;
    }, 'the edited server restarts');
    await connected('words').waitFor(WAIT);
    expect(processesWith(OTHER_MARK)).toEqual([otherPid]);
  });

  it('no secret reaches the page: its HTML, the entry and the view the API answers', async () => {
    await connected('words').waitFor(WAIT);
    await openCard(page, 'words');
    await card('words').getByRole('button', { name: 'Edit JSON' }).click();
    await card('words').locator('textarea[name="entry"]').waitFor(WAIT);
    expect(await page.content()).not.toContain(SECRET);
    const entry = (await (await web.api('/api/mcp/words/entry')).json()) as ServerEntry;
    expect(JSON.stringify(entry)).not.toContain(SECRET);
    expect(entry.hidden).toBeGreaterThan(0);
    expect(await (await web.api('/api/mcp')).text()).not.toContain(SECRET);
    // Sent back as it came, the placeholder keeps the value and nothing is written.
    const before = await readFile(file, 'utf8');
    const put = await web.api('/api/mcp/words/entry', {
      method: 'PUT',
      json: { text: entry.text, basedOn: entry.version },
    });
    const written = (await put.json()) as ServerEntryWritten;
    expect(put.status).toBe(200);
    expect(written.changed).toBe(false);
    expect(JSON.stringify(written)).not.toContain(SECRET);
    expect(await readFile(file, 'utf8')).toBe(before);
    // A rename is refused, saying how to rename.
    const renamed = await web.api('/api/mcp/words/entry', {
      method: 'PUT',
      json: { text: `{"words2": ${entry.text}}`, basedOn: entry.version },
    });
    expect(renamed.status).toBe(400);
    const body = (await renamed.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('renamed');
    expect(body.error.message).toContain('add the entry under the new name');
    // A body far over an entry's bound is refused before it is read.
    const huge = await web.api('/api/mcp/words/entry', {
      method: 'PUT',
      json: { text: 'x'.repeat(3 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('Escape closes the editor without saving, and focus goes back to its button', async () => {
    await connected('words').waitFor(WAIT);
    const before = await readFile(file, 'utf8');
    const words = await openCard(page, 'words');
    await words.getByRole('button', { name: 'Edit JSON' }).click();
    const editor = words.locator('textarea[name="entry"]');
    await editor.waitFor(WAIT);
    await editor.press('End');
    await editor.pressSequentially(' // typed, then thrown away');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached', ...WAIT });
    await expect(
      words
        .getByRole('button', { name: 'Edit JSON' })
        .evaluate((el) => el.ownerDocument.activeElement === el),
    ).resolves.toBe(true);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('copy puts the entry on the clipboard as JSON, secrets as placeholders; pasted back it is refused until they are filled in', async () => {
    await connected('words').waitFor(WAIT);
    await openCard(page, 'words');
    await card('words').getByRole('button', { name: 'Copy JSON' }).click();
    await card('words')
      .locator('.entry-tools .notice', { hasText: 'Its secret value is a placeholder' })
      .waitFor(WAIT);
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).not.toContain(SECRET);
    const parsed = JSON.parse(copied) as { words: { env: Record<string, string> } };
    expect(parsed.words.env).toEqual({ WORDS_API_KEY: '<secret: env.WORDS_API_KEY>' });
    await checkPage(page, 'entry-copied');

    const before = await readFile(file, 'utf8');
    const paste = (await openPanel(page, 'Add from JSON')).locator(
      'section[aria-labelledby="paste-title"]',
    );
    await paste.locator('input[name="paste-name"]').fill('copied');
    await paste.locator('textarea[name="paste-json"]').fill(copied);
    await paste.getByRole('button', { name: 'Add from JSON' }).click();
    const problem = paste.locator('.problem');
    await problem.waitFor(WAIT);
    await expect(problem.textContent()).resolves.toContain('env.WORDS_API_KEY');
    await expect(problem.textContent()).resolves.toContain('placeholder');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('paste JSON adds a server from an {"mcpServers": …} snippet, named by it, as one insertion', async () => {
    await connected('words').waitFor(WAIT);
    const before = await readFile(file, 'utf8');
    const snippet = JSON.stringify(
      { mcpServers: { pasted: fixtureEntry(ANNOTATED_SERVER) } },
      null,
      2,
    );
    const paste = (await openPanel(page, 'Add from JSON')).locator(
      'section[aria-labelledby="paste-title"]',
    );
    await paste.locator('textarea[name="paste-json"]').fill(snippet);
    await paste.getByRole('button', { name: 'Add from JSON' }).click();
    await paste.locator('.notice', { hasText: 'Added pasted' }).waitFor(WAIT);
    await connected('pasted').waitFor(WAIT);
    const inserted = oneInsertion(before, await readFile(file, 'utf8'));
    expect(inserted).toContain('"pasted": {');

    // Text that is not one entry: said under the JSON, nothing written.
    const now = await readFile(file, 'utf8');
    await paste.locator('input[name="paste-name"]').fill('broken');
    await paste.locator('textarea[name="paste-json"]').fill('{"command": "node",');
    await paste.getByRole('button', { name: 'Add from JSON' }).click();
    await paste.locator('.problem', { hasText: 'does not parse at line 1' }).waitFor(WAIT);
    // A field the loader refuses: said under the JSON with its path, not under the name.
    await paste.locator('input[name="paste-name"]').fill('typo');
    await paste.locator('textarea[name="paste-json"]').fill('{"command": "node", "timeot": 5}');
    await paste.getByRole('button', { name: 'Add from JSON' }).click();
    await paste.locator('.problem', { hasText: 'servers.typo.timeot' }).waitFor(WAIT);
    await expect(paste.locator('.field-error').count()).resolves.toBe(0);
    await checkPage(page, 'paste-add-refused');
    expect(await readFile(file, 'utf8')).toBe(now);
  });
});
