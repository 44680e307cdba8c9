// `${VAR}` on the connectors page in real Chromium: a server's settings show the value as written
// and whether each variable is set (or the default it will use), never the value; the server whose
// variable is unset is failed naming it, and nothing on the page holds the secret.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

const TOKEN = 'sk-page-var-token-must-not-show-6t';
const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  process.env.VARS_PAGE_TOKEN = TOKEN;
  session = await openPage({
    servers: {
      ok: fixtureEntry(ANNOTATED_SERVER, {
        env: { API_KEY: `\${VARS_PAGE_TOKEN}`, LEVEL: `\${VARS_PAGE_LEVEL:-info}` },
      }),
      unset: fixtureEntry(ANNOTATED_SERVER, { env: { KEY: `\${VARS_PAGE_NEVER_SET}` } }),
    },
  });
  ({ page } = session);
});

afterAll(async () => {
  delete process.env.VARS_PAGE_TOKEN;
  await session?.close();
});

describe(`a server with \${VAR}s on the page`, () => {
  it('its settings say which variables are set, the unset one fails naming it, and no value is shown', async () => {
    const ok = page.locator('article[data-server="ok"][data-state="connected"]');
    await ok.waitFor(WAIT);
    await openCard(page, 'ok');
    await ok.locator('details.fields summary').click();
    const variables = ok.locator('ul.variables li');
    await expect(variables.allTextContents()).resolves.toEqual([
      `\${VARS_PAGE_TOKEN} set`,
      `\${VARS_PAGE_LEVEL} not set, so "info" (its default)`,
    ]);
    const unset = page.locator('article[data-server="unset"][data-state="failed"]');
    await unset.waitFor(WAIT);
    await expect(unset.textContent()).resolves.toContain('VARS_PAGE_NEVER_SET is not set');
    await expect(page.content()).resolves.not.toContain(TOKEN);
    await checkPage(page, 'variables');
  });
});
