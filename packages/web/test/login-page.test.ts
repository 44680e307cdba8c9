// "Log in" on the connectors page, end to end in real Chromium: a remote server that needs OAuth
// (the testkit's fixture: a real authorization server, oidc-provider, and an MCP server that takes
// only its tokens, both on 127.0.0.1) shows `needs login`; the button sends the tab to the
// authorization server, whose login and consent go through by themselves, and the login's
// callback sends the tab back to the page, where the server is connected with its tools.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { type OAuthFixture, startOAuthFixture } from '@epoch-agent/testkit';
import type { LoginStarted, McpView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { openCard } from './page-rows.js';
import { startTestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let fixture: OAuthFixture;
let chromium: Chromium;

beforeAll(async () => {
  [fixture, chromium] = await Promise.all([
    startOAuthFixture({ accessTokenTtlSeconds: 300 }),
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

describe('logging in from the connectors page', () => {
  it('needs login, then Log in goes through the authorization server and back to the page, connected', async () => {
    const web = await startTestWeb();
    const page = await chromium.context.newPage();
    try {
      await page.goto(web.url);
      const card = page.locator('article[data-server="secured"]');
      await card.and(page.locator('[data-state="needsLogin"]')).waitFor(WAIT);
      await expect(card.locator('.state').textContent()).resolves.toBe('needs login');
      const visited: string[] = [];
      // Every hop of the tab, redirects included (they commit no page of their own).
      page.on('request', (request) => {
        if (request.isNavigationRequest()) visited.push(request.url());
      });

      await openCard(page, 'secured');
      await card.locator('button', { hasText: 'Log in' }).click();
      await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      // It went to the authorization server, then the login's callback, then back to this page
      // (its key rides in the fragment, which a request never carries).
      const origins = [...new Set(visited.map((url) => new URL(url).origin))];
      expect(origins).toHaveLength(3);
      expect(origins[0]).toBe(fixture.issuer);
      expect(visited.at(-2)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
      expect(visited.at(-1)).toBe(`${web.origin}/`);
      expect(page.url()).toBe(`${web.origin}/`);
      // Back from the authorization server, a new load of the page: the card is open as it was.
      await expect(card.locator('.tokens').textContent()).resolves.toMatch(/^[1-9]\d* tools? ·/);
      await expect(card.locator('[role="alert"]').count()).resolves.toBe(0);
    } finally {
      await page.close();
      await web.close();
    }
  });

  it('a login waiting for the browser is joined by a second click, shown as pending, and stopped by close()', async () => {
    const web = await startTestWeb();
    try {
      const start = () => web.api('/api/mcp/secured/login', { method: 'POST' });
      const first = (await (await start()).json()) as LoginStarted;
      const second = (await (await start()).json()) as LoginStarted;
      expect(first.authorizationUrl).toBeDefined();
      expect(second.authorizationUrl).toBe(first.authorizationUrl);
      const view = (await (await web.api('/api/mcp')).json()) as McpView;
      expect(view.groups.user[0]?.login).toEqual({
        state: 'pending',
        authorizationUrl: first.authorizationUrl,
      });
      const callback = new URL(first.authorizationUrl as string).searchParams.get('redirect_uri');
      expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      await web.close();
      // Nothing listens for that login any more.
      await expect(fetch(`${callback}?code=late`)).rejects.toThrow();
    } finally {
      await web.close();
    }
  });
});
