// The connectors page in real Chromium shows which protocol each connected server speaks: a
// 2026-07-28 server (testkit's modern-server.mjs, built on the official server SDK) and a 2025-era
// one (testkit's fixture server), side by side.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { MODERN_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const WAIT = { timeout: 20_000 };

let chromium: Chromium;
let web: TestWeb;
let page: Page;

beforeAll(async () => {
  const servers = {
    modern: fixtureEntry(MODERN_SERVER),
    legacy: fixtureEntry(ANNOTATED_SERVER),
  };
  await writeFile(mcpConfigPath(), JSON.stringify({ servers }));
  [chromium, web] = await Promise.all([launchChromium(), startTestWeb()]);
  page = await chromium.context.newPage();
  await page.goto(web.url);
});

afterAll(async () => {
  await page?.close();
  await chromium?.close();
  await web?.close();
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
