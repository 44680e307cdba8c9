// "Log in" is offered on the card of a server that asks for a login, and nowhere else: not on a
// remote server connected with a static Authorization header, not on one that cannot be reached.
// And a login that fails says why as everything else does: which server, which URL, what happened
// and what to do, never a bare `fetch failed`.

import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpConfigPath } from '@epoch-agent/infra';
import { freeLoopbackPort, type RunningEverything, startEverything } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let chromium: Chromium;
let web: TestWeb;
let everything: RunningEverything;
/** An MCP endpoint that refuses every request without a token: it asks for a login. */
let asking: Server;
let askingUrl: string;
let gonePort: number;

beforeAll(async () => {
  asking = createServer((_request, response) => {
    response.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
  });
  await new Promise<void>((resolve) => asking.listen(0, '127.0.0.1', resolve));
  askingUrl = `http://127.0.0.1:${(asking.address() as AddressInfo).port}/mcp`;
  [everything, gonePort] = await Promise.all([startEverything('http'), freeLoopbackPort()]);
  if (everything.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
  await writeFile(
    mcpConfigPath(),
    JSON.stringify({
      servers: {
        keyed: {
          type: 'http',
          url: everything.endpoint.url,
          headers: { Authorization: 'Bearer static-key' },
        },
        gone: { type: 'http', url: `http://127.0.0.1:${gonePort}/mcp`, connect_timeout: 5 },
        asking: { type: 'http', url: askingUrl },
      },
    }),
  );
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
});

afterAll(async () => {
  await chromium?.close();
  await web?.close();
  await everything?.stop();
  if (asking?.listening) await new Promise((resolve) => asking.close(resolve));
});

describe('Log in on the connectors page', () => {
  it('is offered only where the server asks for a login, and its failure names server, URL and cause', async () => {
    const page = await chromium.context.newPage();
    try {
      await page.goto(web.url);
      const card = (name: string) => page.locator(`article[data-server="${name}"]`);
      const logIn = (name: string) => card(name).locator('button', { hasText: 'Log in' });
      await card('keyed').and(page.locator('[data-state="connected"]')).waitFor(WAIT);
      await card('gone').and(page.locator('[data-state="failed"]')).waitFor(WAIT);
      await card('asking').and(page.locator('[data-state="needsLogin"]')).waitFor(WAIT);
      for (const name of ['keyed', 'gone', 'asking']) await openCard(page, name);
      await expect(logIn('keyed').count()).resolves.toBe(0);
      await expect(logIn('gone').count()).resolves.toBe(0);
      await expect(logIn('asking').count()).resolves.toBe(1);

      // The server goes away between the card and the click: the login cannot reach it.
      asking.closeAllConnections();
      await new Promise((resolve) => asking.close(resolve));
      await logIn('asking').click();
      const problem = card('asking').locator('p.problem[role="alert"]');
      await problem.waitFor(WAIT);
      const text = (await problem.textContent()) ?? '';
      expect(text).toContain('Login to MCP server "asking" failed');
      expect(text).toContain(new URL(askingUrl).origin);
      expect(text).toContain('the connection was refused');
      expect(text).toContain('is running');
      expect(text).not.toContain('fetch failed');
      await checkPage(page, 'login-failed');
    } finally {
      await page.close();
    }
  });
});
