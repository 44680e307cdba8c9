// Remove takes out the entry a person saw, or nothing: in real Chromium against epoch web with a
// real server, a hand edit made while the remove is being confirmed is not removed unseen (409,
// "changed since you opened it — reload"), and the file keeps the edit. Over the API, DELETE
// carries the entry's version: refused without one (400, naming the server and `basedOn`) and with
// one the entry has moved on from (409 `changed_since`), nothing written either way.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEntry } from '../src/api-types.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry, removeAsRead } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

const original = () =>
  `${JSON.stringify({ servers: { words: fixtureEntry(ANNOTATED_SERVER) } }, null, 2)}\n`;
/** The file with a comment written by hand into the entry of words. */
const byHand = (comment: string) =>
  original().replace('"words": {', `"words": {\n    // ${comment}`);

let session: PageSession;
let file: string;

beforeAll(async () => {
  file = mcpConfigPath();
  session = await openPage(original());
});

afterAll(async () => {
  await session?.close();
});

/** The version GET …/entry gives for words now. */
async function versionNow(): Promise<string> {
  const entry = (await (await session.web.api('/api/mcp/words/entry')).json()) as ServerEntry;
  return entry.version;
}

describe('Remove of an entry changed since the page showed it', () => {
  it('is refused on the page with the notice, and the hand edit kept; asked again, it removes', async () => {
    const { page } = session;
    const card = await openCard(page, 'words');
    // Remove reads the entry's version as it is pressed: the hand edit comes after that read is
    // answered, as it would after a person pressed Remove (not in the same few milliseconds).
    const read = page.waitForResponse(
      (response) => response.url().endsWith('/api/mcp/words/entry'),
      WAIT,
    );
    await card.locator('button', { hasText: 'Remove' }).click();
    await read;
    const confirm = card.locator('button', { hasText: 'Remove from mcp.json' });
    await confirm.waitFor(WAIT);
    // While the remove is being confirmed, the entry is edited by hand.
    const edited = byHand('written by hand');
    await writeFile(file, edited);
    await confirm.click();
    const refusal = card.locator('.problem', { hasText: 'was not removed' });
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toContain('changed since you opened it — reload');
    expect(await readFile(file, 'utf8')).toBe(edited);

    // Seen as it is now and asked again: removed.
    await card.locator('button', { hasText: 'Remove' }).click();
    await confirm.click();
    await card.waitFor({ state: 'detached', ...WAIT });
    expect(await readFile(file, 'utf8')).not.toContain('"words"');
  });
});

describe('DELETE /api/mcp/:name', () => {
  it('without basedOn is refused with 400 naming the server and the field; nothing removed', async () => {
    const { web } = session;
    await writeFile(file, original());
    await web.viewWhen((view) => view.groups.user.some((s) => s.name === 'words'));
    for (const query of ['', '?basedOn=']) {
      const response = await web.api(`/api/mcp/words${query}`, { method: 'DELETE' });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('Server "words" was not removed');
      expect(error.message).toContain('basedOn');
    }
    expect(await readFile(file, 'utf8')).toBe(original());
  });

  it('of a version the entry has moved on from is refused with 409 changed_since; of the version now, removes', async () => {
    const { web } = session;
    await writeFile(file, original());
    await web.viewWhen((view) => view.groups.user.some((s) => s.name === 'words'));
    const read = await versionNow();
    const edited = byHand('changed after the read');
    await writeFile(file, edited);
    const stale = await web.api(`/api/mcp/words?basedOn=${read}`, { method: 'DELETE' });
    expect(stale.status).toBe(409);
    const { error } = (await stale.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('changed_since');
    expect(error.message).toContain('server "words" was not removed');
    expect(error.message).toContain(file);
    expect(error.message).toContain('reload');
    expect(await readFile(file, 'utf8')).toBe(edited);

    expect((await removeAsRead(web, 'words')).status).toBe(200);
    expect(await readFile(file, 'utf8')).not.toContain('"words"');
  });
});
