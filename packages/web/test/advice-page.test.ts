// What to do about a server's error is the page's to say: the status says a connect timed out, in
// words that name no front end, and the card (or a tool's Try) adds the line of the user's mcp.json
// to change, in real Chromium against real servers that never answer.
import { mcpConfigPath } from '@epoch-agent/infra';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';

const WAIT = { timeout: 20_000 };
// The timeouts are what this test is about: "stuck" never answers initialize, and "patient"'s
// `slow` tool never answers a call.
const CONFIG = `{
  "servers": {
    "stuck": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(FIXTURE_SERVER)}, "--never-start"],
      "connect_timeout": 1
    },
    "patient": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(FIXTURE_SERVER)}, "--catalog=cli"],
      "timeout": 1
    }
  }
}
`;

let session: PageSession;
let page: Page;

beforeAll(async () => {
  session = await openPage(CONFIG);
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe("advice on a server's error", () => {
  it('a connect that timed out: the message, then where connect_timeout is written', async () => {
    const stuck = page.locator('article[data-server="stuck"][data-state="failed"]');
    await stuck.waitFor(WAIT);
    await openCard(page, 'stuck');
    await expect(stuck.locator('.error .message').textContent()).resolves.toContain(
      'a longer connect timeout',
    );
    await expect(stuck.locator('.error .hint').first().textContent()).resolves.toBe(
      `If it is just slow, raise "connect_timeout" for it at ${mcpConfigPath()}:6.`,
    );
  });

  it('a call that timed out in Try: the message, then where timeout is written', async () => {
    const card = page.locator('article[data-server="patient"][data-state="connected"]');
    await card.waitFor(WAIT);
    await openCard(page, 'patient');
    await card.locator('details.tools > summary').click();
    const row = card.locator('li[data-tool="mcp__patient__slow"]');
    await row.locator('details.try > summary').click();
    const form = row.getByRole('form', { name: 'Try mcp__patient__slow' });
    await form.getByRole('button', { name: 'Run' }).click();
    const refused = form.locator('p.problem[role="alert"]');
    await refused.waitFor(WAIT);
    await expect(refused.textContent()).resolves.toContain('a longer request timeout');
    await expect(form.locator('p.hint').textContent()).resolves.toBe(
      `If it needs longer, raise "timeout" for it at ${mcpConfigPath()}:11.`,
    );
  });
});
