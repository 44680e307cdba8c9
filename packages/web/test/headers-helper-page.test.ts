// A remote server whose headers come from a command, written into mcp.json while `epoch web` runs,
// in real Chromium: it waits for approval, its dialog shows the headers helper it would run (word
// by word, as a command is shown), and the helper is not run while it waits.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import type { ServerView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type PageSession } from './page-session.js';

const WAIT = { timeout: 20_000 };
const RUNS = join(process.env.EPOCH_HOME as string, 'helper-runs.log');
const HELPER = [
  process.execPath,
  '-e',
  `require('node:fs').appendFileSync(${JSON.stringify(RUNS)}, 'ran\\n'); process.stdout.write('{}')`,
];

let session: PageSession;

beforeAll(async () => {
  session = await openPage({ servers: {} });
});

afterAll(async () => {
  await session?.close();
});

describe('a headers helper on the page', () => {
  it('is shown in the approval dialog of a server that waits, and not run', async () => {
    const { page, web } = session;
    await writeFileAtomic(
      mcpConfigPath(),
      JSON.stringify({
        servers: {
          tokened: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers_helper: HELPER },
        },
      }),
    );
    const view = await web.viewWhen(
      (v) =>
        v.groups.user.find((s: ServerView) => s.name === 'tokened')?.status?.state ===
        'needsApproval',
    );
    expect(view.groups.user[0]?.status).toMatchObject({ launch: { headersHelper: HELPER } });
    const card = page.locator('article[data-server="tokened"]');
    await card.and(page.locator('[data-state="needsApproval"]')).waitFor(WAIT);
    await card.getByRole('button', { name: 'Review…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start tokened?' });
    await dialog.waitFor(WAIT);
    const row = dialog.locator('dt', { hasText: 'Headers from (runs here)' });
    await row.waitFor(WAIT);
    const words = dialog.locator('dd .launch-command').last().locator('.word');
    expect(await words.allTextContents()).toEqual(HELPER);
    await expect(readFile(RUNS, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
