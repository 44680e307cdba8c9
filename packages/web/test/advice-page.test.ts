// What to do about a server's error is the page's to say: the status says a connect timed out, in
// words that name no front end, and the card adds the line of the user's mcp.json to change, in
// real Chromium against a real server that never finishes connecting.
import { mcpConfigPath } from '@epoch-agent/infra';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type PageSession } from './page-session.js';

const WAIT = { timeout: 20_000 };
// The connect timeout is what this test is about: the server never answers initialize.
const CONFIG = `{
  "servers": {
    "stuck": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(FIXTURE_SERVER)}, "--never-start"],
      "connect_timeout": 1
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
    await expect(stuck.locator('.error .message').textContent()).resolves.toContain(
      'a longer connect timeout',
    );
    await expect(stuck.locator('.error .hint').first().textContent()).resolves.toBe(
      `If it is just slow, raise "connect_timeout" for it at ${mcpConfigPath()}:6.`,
    );
  });
});
