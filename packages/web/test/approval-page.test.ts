// A server written into mcp.json while `epoch web` runs (as a prompt-injected agent would write
// it), in real Chromium over real HTTP with real processes: it waits for approval and starts
// nothing; its dialog shows what it would run (the whole command, its variables by name, never a
// value; a launcher that downloads code said plainly; a rewrite while it is open said, not swapped
// in); Escape leaves it off with focus back where it was; Approve starts it. Over the API: approving takes the launch that was shown, and a
// revoke stops a server that needs an approval.
import { readFile } from 'node:fs/promises';
import { mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import type { ApiErrorBody, McpView, RevokedAnswer, ServerView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, processesWith } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const KEPT = `--kept-${process.pid}`;
const WRITTEN = `--written-${process.pid}`;
const SECRET = 'approvalSecretValue8642';
const entry = (marker: string, extra: object = {}) => ({
  command: process.execPath,
  args: [...ANNOTATED_SERVER, marker],
  ...extra,
});
// Never started by this test: approving it would download and run a package.
const DOWNLOADER = { command: 'npx', args: ['-y', '@example/never-run-mcp'] };
const REWRITTEN = { command: 'npx', args: ['-y', '@example/never-run-either'] };

let session: PageSession;

beforeAll(async () => {
  session = await openPage({ servers: { kept: entry(KEPT) } });
  await session.web.viewWhen((v) => v.groups.user[0]?.status?.state === 'connected');
});

afterAll(async () => {
  await session?.close();
});

// Replaced as an editor's safe save does (see hand-edit.test.ts).
const save = (servers: object) =>
  writeFileAtomic(mcpConfigPath(), JSON.stringify({ servers }, null, 2));

const serverIn = (view: McpView, name: string): ServerView | undefined =>
  view.groups.user.find((s) => s.name === name);

describe('approving a server written while epoch web runs', () => {
  it('waits for approval and starts nothing until Approve in its dialog, which shows what it would run', async () => {
    const { page, web } = session;
    await save({
      kept: entry(KEPT),
      written: entry(WRITTEN, { env: { API_TOKEN: SECRET } }),
      fetcher: DOWNLOADER,
    });
    const view = await web.viewWhen(
      (v) =>
        serverIn(v, 'written')?.status?.state === 'needsApproval' &&
        serverIn(v, 'fetcher')?.status?.state === 'needsApproval',
    );
    expect(serverIn(view, 'written')).toMatchObject({ tools: [] });
    expect(serverIn(view, 'kept')?.status?.state).toBe('connected');
    expect(processesWith(WRITTEN)).toEqual([]);

    const card = page.locator('article[data-server="written"]');
    await card.and(page.locator('[data-state="needsApproval"]')).waitFor(WAIT);
    await expect(card.locator('.state').textContent()).resolves.toBe('needs approval');
    const review = card.getByRole('button', { name: 'Review…' });
    await review.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Start written?' });
    await dialog.waitFor(WAIT);
    // Focus goes into the dialog, on Cancel: Enter alone approves nothing.
    await expect
      .poll(() =>
        dialog
          .getByRole('button', { name: 'Cancel' })
          .evaluate((b) => b === b.ownerDocument.activeElement),
      )
      .toBe(true);
    expect(await dialog.locator('.launch-command .word').allTextContents()).toEqual([
      process.execPath,
      ...ANNOTATED_SERVER,
      WRITTEN,
    ]);
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('API_TOKEN');
    expect(text).toContain('(values hidden)');
    expect(text).not.toContain('downloads');
    for (const shown of [text, await page.content(), await (await web.api('/api/mcp')).text()]) {
      expect(shown).not.toContain(SECRET);
    }
    await checkPage(page, 'approval-dialog');

    // Escape is Cancel: nothing starts, focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await expect.poll(() => review.evaluate((b) => b === b.ownerDocument.activeElement)).toBe(true);
    expect(processesWith(WRITTEN)).toEqual([]);

    // A launcher that downloads code is said plainly.
    await page
      .locator('article[data-server="fetcher"]')
      .getByRole('button', { name: 'Review…' })
      .click();
    const fetcher = page.getByRole('dialog', { name: 'Start fetcher?' });
    await expect(fetcher.locator('.launch-download').textContent()).resolves.toMatch(
      /^Starting it downloads and runs code: npx -y fetches @example\/never-run-mcp/,
    );
    // Rewritten while its dialog is open: said, and nothing is approved until the new one is shown.
    await save({
      kept: entry(KEPT),
      written: entry(WRITTEN, { env: { API_TOKEN: SECRET } }),
      fetcher: REWRITTEN,
    });
    await fetcher
      .getByRole('alert')
      .filter({ hasText: 'changed while this was open' })
      .waitFor(WAIT);
    const approveFetcher = fetcher.getByRole('button', { name: 'Approve and start' });
    expect(await approveFetcher.isDisabled()).toBe(true);
    const words = fetcher.locator('.launch-command .word');
    expect(await words.allTextContents()).toEqual(['npx', ...DOWNLOADER.args]);
    await fetcher.getByRole('button', { name: 'Show what it runs now' }).click();
    expect(await words.allTextContents()).toEqual(['npx', ...REWRITTEN.args]);
    expect(await approveFetcher.isDisabled()).toBe(false);
    await expect
      .poll(() =>
        fetcher
          .getByRole('button', { name: 'Cancel' })
          .evaluate((b) => b === b.ownerDocument.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('Enter');
    await fetcher.waitFor({ state: 'hidden', ...WAIT });

    await review.click();
    await dialog.getByRole('button', { name: 'Approve and start' }).click();
    await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    expect(processesWith(WRITTEN)).toHaveLength(1);
    // The button that opened the dialog went with the state: focus waits on the card.
    await expect
      .poll(() => card.evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    // The approval is stored by its hash: no value of the entry's env is in it.
    const store = await readFile(`${process.env.EPOCH_HOME}/approvals.json`, 'utf8');
    expect(store).not.toContain(SECRET);
    expect(processesWith(DOWNLOADER.args[1] as string)).toEqual([]);
    expect(processesWith(REWRITTEN.args[1] as string)).toEqual([]);
  });

  it('approves only the launch that was shown, waits on nothing else, and a revoke stops it again', async () => {
    const { web } = session;
    const approve = (name: string, launch: unknown) =>
      web.api(`/api/mcp/${name}/approve`, { method: 'POST', json: { launch } });
    const codeOf = async (response: Response) =>
      ((await response.json()) as ApiErrorBody).error.code;

    const before = (await (await web.api('/api/mcp')).json()) as McpView;
    const fetcher = serverIn(before, 'fetcher')?.status;
    if (fetcher?.state !== 'needsApproval') throw new Error('fetcher should wait for approval');
    const other = { ...fetcher.launch, command: ['npx', '-y', '@example/another'] };
    const changed = await approve('fetcher', other);
    expect(changed.status).toBe(409);
    expect(await codeOf(changed)).toBe('launch_changed');
    const connected = await approve('kept', fetcher.launch);
    expect(connected.status).toBe(409);
    expect(await codeOf(connected)).toBe('not_waiting');
    const unknown = await approve('nobody', fetcher.launch);
    expect(unknown.status).toBe(404);
    const noLaunch = await web.api('/api/mcp/fetcher/approve', { method: 'POST', json: {} });
    expect(noLaunch.status).toBe(400);
    // Another site's page cannot approve, even with the key.
    const foreign = await web.api('/api/mcp/fetcher/approve', {
      method: 'POST',
      json: { launch: fetcher.launch },
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const keyless = await web.api('/api/mcp/fetcher/approve', {
      method: 'POST',
      json: { launch: fetcher.launch },
      headers: { authorization: '' },
    });
    expect(keyless.status).toBe(401);

    const revoked = await web.api('/api/mcp/written/revoke', { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({
      status: { state: 'needsApproval' },
      needsApproval: true,
    });
    await expect.poll(() => processesWith(WRITTEN), WAIT).toEqual([]);

    // An entry that was in the file when epoch web started is the user's own: it runs on.
    const keptPids = processesWith(KEPT);
    expect(keptPids).toHaveLength(1);
    const own = await web.api('/api/mcp/kept/revoke', { method: 'POST' });
    const answer = (await own.json()) as RevokedAnswer;
    expect(answer).toMatchObject({ needsApproval: false, status: { state: 'connected' } });
    expect(processesWith(KEPT)).toEqual(keptPids);
  });
});
