// Long text on the connectors page at a 360 px phone, in real Chromium against epoch web with real
// servers: a long server name wraps in its card instead of widening the page, a 120-character
// parameter name wraps in its own column and leaves the type beside it its room, and the "Import
// from…" dialog fits the phone, a long server name and command in it included.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome } from '@epoch-agent/infra';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureMachine } from '../../runtime/test/import-places.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { CHANGING_TOOLS_SERVER, fixtureEntry } from './web-helpers.js';

const WAIT = { timeout: 20_000 };
const PHONE = { width: 360, height: 740 };
const LONG_NAME = `a_server_with_a_long_name_${'x'.repeat(90)}`;
const LONG_PARAMETER = `the_parameter_${'y'.repeat(106)}`;

let machine: Awaited<ReturnType<typeof fixtureMachine>>;
let session: PageSession;
let page: Page;

beforeAll(async () => {
  machine = await fixtureMachine();
  // Another client's server with a long name and a long unbroken argument, to import.
  const cursor = join(machine.home, '.cursor', 'mcp.json');
  const config = JSON.parse(await readFile(cursor, 'utf8')) as {
    mcpServers: Record<string, object>;
  };
  config.mcpServers[`imported_${'z'.repeat(100)}`] = {
    command: 'node',
    args: [`/opt/servers/${'w'.repeat(150)}.mjs`],
  };
  await writeFile(cursor, JSON.stringify(config));
  const home = epochHome();
  const toolsFile = join(home, 'long.tools.json');
  const tool = {
    name: 'takes_a_long_one',
    description: 'A tool with a parameter of a very long name.',
    inputSchema: {
      type: 'object',
      properties: { [LONG_PARAMETER]: { type: 'string', description: 'what it is' } },
    },
  };
  await writeFile(toolsFile, JSON.stringify([tool]));
  session = await openPage(
    {
      servers: {
        [LONG_NAME]: fixtureEntry([CHANGING_TOOLS_SERVER, toolsFile, join(home, 'long.jsonl')]),
      },
    },
    { importPlaces: machine },
  );
  ({ page } = session);
  await page.setViewportSize(PHONE);
});

afterAll(async () => {
  await session?.close();
  await rm(machine.dir, { recursive: true, force: true });
});

/** How much wider than the phone the page is: 0 when it fits. */
const overflow = () => page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);

describe('long text at 360 px', () => {
  it('a long server name wraps in its card; the page is no wider than the phone', async () => {
    const card = page.locator(`article[data-server="${LONG_NAME}"]`);
    await card.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    const name = await card.locator('h3').boundingBox();
    expect(name?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((name?.x ?? 0) + (name?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
      PHONE.width,
    );
  });

  it('a 120-character parameter name wraps in its column and leaves the type its room', async () => {
    const card = await openCard(page, LONG_NAME);
    await card.locator('details.tools > summary').click();
    const table = card.locator('table.parameters');
    await table.waitFor(WAIT);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    const type = table.locator('td').first();
    // The type's cell holds "string" whole, on one line, and is not a sliver.
    const [cell, word] = await type.evaluate((td) => [
      td.getBoundingClientRect().width,
      td.querySelector('code')?.getBoundingClientRect().width ?? Number.POSITIVE_INFINITY,
    ]);
    expect(cell).toBeGreaterThanOrEqual(word);
    expect(cell).toBeGreaterThanOrEqual(60);
    const box = await table.boundingBox();
    const cardBox = await card.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(
      (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
    );
  });

  it('the Import from… dialog fits the phone, with no sideways scroll inside it', async () => {
    await page.getByRole('button', { name: 'Import from…' }).click();
    const dialog = page.locator('dialog.import-dialog');
    await dialog.locator('li[data-server^="imported_"]').waitFor(WAIT);
    const box = await dialog.boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.y ?? 0) + (box?.height ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
      PHONE.height,
    );
    await expect(
      dialog.evaluate((element) => element.scrollWidth - element.clientWidth),
    ).resolves.toBeLessThanOrEqual(0);
    // Its actions are reachable: the import button lies within the dialog's width.
    const button = await dialog
      .getByRole('button', { name: /^Import/ })
      .last()
      .boundingBox();
    expect((button?.x ?? 0) + (button?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
      PHONE.width,
    );
  });
});
