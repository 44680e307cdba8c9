// Removing a server on the page takes the comment written directly above its entry along (it
// describes that entry), keeps a comment a blank line away, and leaves every other byte of the
// hand-written file as it was.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const entry = JSON.stringify(fixtureEntry(ANNOTATED_SERVER));

const ORIGINAL = `// my servers
{
  "servers": {
    // Kept: a blank line separates it from the entry below

    // GitHub, work account
    /* rotated monthly */
    "first": ${entry},
    "middle": ${entry},
    // the last one
    "last": ${entry}
  }
}
`;

let chromium: Chromium;
let web: TestWeb;
let file: string;

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, ORIGINAL);
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
});

afterAll(async () => {
  await chromium?.close();
  await web?.close();
});

describe('Remove on the page', () => {
  it('takes the comment block directly above the entry with it, first and last entry alike', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.goto(web.url);
      const remove = async (name: string) => {
        const card = page.locator(`article[data-server="${name}"]`);
        await card.locator('button', { hasText: 'Remove' }).click();
        await card.locator('button', { hasText: 'Remove from mcp.json' }).click();
        await card.waitFor({ state: 'detached', ...WAIT });
      };

      await remove('first');
      expect(await readFile(file, 'utf8')).toBe(`// my servers
{
  "servers": {
    // Kept: a blank line separates it from the entry below

    "middle": ${entry},
    // the last one
    "last": ${entry}
  }
}
`);
      await remove('last');
      expect(await readFile(file, 'utf8')).toBe(`// my servers
{
  "servers": {
    // Kept: a blank line separates it from the entry below

    "middle": ${entry}
  }
}
`);
      await remove('middle');
      expect(await readFile(file, 'utf8')).toBe(`// my servers
{
  "servers": {
    // Kept: a blank line separates it from the entry below

  }
}
`);
    } finally {
      await page.close();
    }
  });
});
