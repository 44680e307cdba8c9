// Tools found on demand on the connectors page, in real Chromium against epoch web with real
// fixture servers: a server written with `"defer": true` has its tools marked "on demand", its cost
// line counts them apart, and the page says what every request carries against the tool budget —
// as GET /api/mcp says it.
import type { McpView, ServerView } from '@epoch-agent/web';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry, PID_SERVER, type TestWeb } from './web-helpers.js';

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let session: PageSession;
let web: TestWeb;
let page: Page;

beforeAll(async () => {
  session = await openPage({
    tool_budget_tokens: 9000,
    servers: {
      words: fixtureEntry(ANNOTATED_SERVER),
      later: {
        command: process.execPath,
        args: [PID_SERVER, '--tool=alpha'],
        defer: true,
      },
    },
  });
  ({ web, page } = session);
});

afterAll(async () => {
  await session?.close();
});

const server = (v: McpView, name: string) =>
  v.groups.user.find((s) => s.name === name) as ServerView;
const toolsOf = (v: McpView, name: string) =>
  v.groups.user.find((s) => s.name === name)?.tools.length ?? 0;

describe('tools found on demand on the connectors page', () => {
  it('the API marks them, counts them apart and gives the budget', async () => {
    // `epoch web` connects in the background: both servers' tools are waited for, not assumed.
    const v = await web.viewWhen(
      (each) => toolsOf(each, 'later') === 2 && toolsOf(each, 'words') > 0,
    );
    expect(v.toolBudgetTokens).toBe(9000);
    const later = server(v, 'later');
    expect(later.tools.map(({ name, onDemand }) => [name, onDemand])).toEqual([
      ['mcp__later__whoami', true],
      ['mcp__later__alpha', true],
    ]);
    expect(later.contextTokens).toBe(0);
    expect(later.contextTokensOnDemand).toBeGreaterThan(0);
    const words = server(v, 'words');
    expect(words.tools.every(({ onDemand }) => !onDemand)).toBe(true);
    // What a request carries: words' tools and the two that stand for the deferred ones.
    expect(v.offeredTokens).toBeGreaterThan(words.contextTokens);
  });

  it('the page marks them "on demand", says their cost apart and the budget', async () => {
    const later = page.locator('article[data-server="later"]');
    await later.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'later');
    await expect(later.locator('.tokens').textContent()).resolves.toMatch(
      /^2 tools, all on demand: none in every request; the 2 on demand would add ≈ \d+ tokens if offered$/,
    );
    await later.locator('summary', { hasText: 'Tools (2)' }).click();
    const alpha = later.locator('li[data-tool="mcp__later__alpha"]');
    await expect(alpha.locator('.badge.on-demand').textContent()).resolves.toBe('on demand');
    await expect(alpha.locator('.cost').textContent()).resolves.toMatch(
      /^if offered, would add ≈ \d+ tokens$/,
    );
    await expect(page.locator('.budget').textContent()).resolves.toMatch(
      /^Tool definitions in every request: ≈ [\d.k]+ tokens of a budget of 9\.0k tokens \(tool_budget_tokens\): the servers' tools ≈ [\d.k]+ tokens, and mcp_search_tools ≈ [\d.k]+ tokens, through which 2 tools are found on demand\.$/,
    );
  });
});
