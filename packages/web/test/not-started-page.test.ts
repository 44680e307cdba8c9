// A server started on demand on the connectors page, in real Chromium against epoch web and real
// servers: with its tools cached it is "not started" (its own chip, the row's word and detail, its
// tools counted), no process of it runs, and a Try of one of its tools starts it: the page then
// shows it connected.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { buildRuntime } from '@epoch-agent/runtime';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, type PageSession } from './page-session.js';
import { ANNOTATED_SERVER, fixtureEntry, processesWith } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const MARKER = `--tag=${randomUUID()}`;

describe('a server started on demand', () => {
  let session: PageSession;
  let page: Page;
  const servers = {
    good: fixtureEntry(ANNOTATED_SERVER),
    lazy: fixtureEntry([FIXTURE_SERVER, MARKER], { start: 'on_demand' }),
  };

  beforeAll(async () => {
    // An earlier start left each server's tools in the schema cache.
    await writeFile(mcpConfigPath(), JSON.stringify({ servers }));
    await (await buildRuntime({ registry: { start: 'at_start' } })).close();
    session = await openPage({ servers });
    ({ page } = session);
    await page.locator('article[data-server="good"][data-state="connected"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('is "not started" under its own chip, with no process, until a call starts it', async () => {
    const lazy = page.locator('article[data-server="lazy"]');
    await expect(lazy.getAttribute('data-state')).resolves.toBe('notStarted');
    await expect(lazy.locator('button.row').textContent()).resolves.toContain('not started');
    await expect(lazy.locator('button.row').textContent()).resolves.toContain(
      'starts at its first call',
    );
    const chip = page.locator('.chips button[data-filter="notStarted"]');
    await expect(chip.textContent()).resolves.toBe('Not started 1');
    await chip.click();
    await expect(
      page.locator('article.server').evaluateAll((rows) => rows.map((row) => row.dataset.server)),
    ).resolves.toEqual(['lazy']);
    await chip.click();
    expect(processesWith(MARKER)).toEqual([]);

    const called = await session.web.api('/api/mcp/lazy/tools/whoami/call', {
      method: 'POST',
      json: { arguments: {} },
    });
    expect(called.status).toBe(200);
    await page.locator('article[data-server="lazy"][data-state="connected"]').waitFor(WAIT);
    expect(processesWith(MARKER)).toHaveLength(1);
  });
});
