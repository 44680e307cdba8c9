// The connectors page in real Chromium shows which protocol each connected server speaks: a
// 2026-07-28 server (testkit's modern-server.mjs, built on the official server SDK) and a 2025-era
// one (testkit's fixture server), side by side.
import { MODERN_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let session: PageSession;
let page: Page;

beforeAll(async () => {
  const servers = {
    modern: fixtureEntry(MODERN_SERVER),
    legacy: fixtureEntry(ANNOTATED_SERVER),
  };
  session = await openPage({ servers });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('the protocol of a connected server on the connectors page', () => {
  it('names the revision each server speaks', async () => {
    const detail = async (name: string): Promise<string | null> => {
      const card = page.locator(`article[data-server="${name}"][data-state="connected"]`);
      await card.waitFor(WAIT);
      return card.locator('.detail').textContent();
    };
    await expect(detail('modern')).resolves.toBe('modern-server 2.4.0 · MCP 2026-07-28');
    await expect(detail('legacy')).resolves.toBe('annotated-server 1.0.0 · MCP 2025-11-25');
  });
});
