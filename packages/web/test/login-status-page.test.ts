// Who is logged in where, on the connectors page in real Chromium, with the testkit's real OAuth
// fixture (oidc-provider and an MCP server that takes only its tokens, on 127.0.0.1): after a
// login the card names the authorization server and when the token expires; Log out deletes the
// stored login (its file goes, the authorization server is asked to revoke) and the card says
// so. No token ever reaches the page's HTML or an API answer.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome, mcpConfigPath } from '@epoch-agent/infra';
import { type OAuthFixture, startOAuthFixture } from '@epoch-agent/testkit';
import type { OAuthStatus } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { startTestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let fixture: OAuthFixture;
let chromium: Chromium;

beforeAll(async () => {
  [fixture, chromium] = await Promise.all([
    // 52 minutes, as a person would read it.
    startOAuthFixture({ accessTokenTtlSeconds: 52 * 60 }),
    launchChromium(),
  ]);
  await writeFile(
    mcpConfigPath(),
    JSON.stringify({ servers: { secured: { type: 'http', url: fixture.mcpUrl } } }),
  );
});

afterAll(async () => {
  await chromium?.close();
  await fixture?.stop();
});

/** Every token in the stored login files (empty when there are none). */
async function storedTokens(): Promise<string[]> {
  const dir = join(epochHome(), 'oauth');
  const names = await readdir(dir).catch(() => [] as string[]);
  const tokens: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const login = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
      tokens?: { access_token: string; refresh_token?: string };
    };
    if (login.tokens !== undefined) {
      tokens.push(login.tokens.access_token);
      if (login.tokens.refresh_token !== undefined) tokens.push(login.tokens.refresh_token);
    }
  }
  return tokens;
}

describe('the stored OAuth login on the connectors page', () => {
  it('shows who is logged in where and until when, and Log out deletes the login', async () => {
    const web = await startTestWeb();
    const page = await chromium.context.newPage();
    try {
      await page.goto(web.url);
      const card = page.locator('article[data-server="secured"]');
      const line = card.locator('.login-line');
      await card.and(page.locator('[data-state="needsLogin"]')).waitFor(WAIT);
      await openCard(page, 'secured');
      await line.filter({ hasText: 'no stored login' }).waitFor(WAIT);
      await expect(line.textContent()).resolves.toBe('OAuth: no stored login.');

      await card.locator('button', { hasText: 'Log in' }).click();
      await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await card.locator('.login-status[data-logged-in="yes"]').waitFor(WAIT);
      await expect(line.textContent()).resolves.toMatch(
        new RegExp(
          `^OAuth: logged in at ${fixture.issuer.replace(/[.]/g, '\\.')}, expires in 5[12] min(, scopes .+)?\\. Log out$`,
        ),
      );
      const tokens = await storedTokens();
      expect(tokens.length).toBeGreaterThan(0);
      const status = await (await web.api('/api/mcp/secured/oauth')).text();
      const view = await (await web.api('/api/mcp')).text();
      const html = await page.content();
      for (const token of tokens) {
        expect(status).not.toContain(token);
        expect(view).not.toContain(token);
        expect(html).not.toContain(token);
      }
      expect(JSON.parse(status) as OAuthStatus).toMatchObject({
        login: { issuer: fixture.issuer, hasTokens: true },
      });
      await checkPage(page, 'logged-in-expiry');

      await card.getByRole('button', { name: 'Log out' }).click();
      const report = card.locator('.login-status [role="status"]');
      await report.waitFor(WAIT);
      await expect(report.textContent()).resolves.toMatch(
        /^Logged out: the stored login is deleted/,
      );
      // Focus moved to what the logout did: the button went with the login.
      await expect(report.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(
        true,
      );
      await expect(storedTokens()).resolves.toEqual([]);
      await card.locator('.login-status[data-logged-in="no"]').waitFor(WAIT);
      await expect(line.textContent()).resolves.toBe('OAuth: no stored login.');
      // The server was reconnected without its tokens: it needs a login again.
      await card.and(page.locator('[data-state="needsLogin"]')).waitFor(WAIT);
      const after = (await (await web.api('/api/mcp/secured/oauth')).json()) as OAuthStatus;
      expect(after).toEqual({});
      expect(fixture.events.some((event) => event.event === 'revocation')).toBe(true);
      await checkPage(page, 'logged-out');
    } finally {
      await page.close();
      await web.close();
    }
  });
});
