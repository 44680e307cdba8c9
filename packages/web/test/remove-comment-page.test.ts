// Removing a server on the page takes the comment written directly above its entry along (it
// describes that entry), keeps a comment a blank line away, and leaves every other byte of the
// hand-written file as it was.
import { readFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

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

let session: PageSession;
let file: string;

beforeAll(async () => {
  file = mcpConfigPath();
  session = await openPage(ORIGINAL);
});

afterAll(async () => {
  await session?.close();
});

describe('Remove on the page', () => {
  it('takes the comment block directly above the entry with it, first and last entry alike', async () => {
    const { page } = session;
    const remove = async (name: string) => {
      const card = await openCard(page, name);
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
  });
});
