// Parameters defined by `$ref` on the connectors page, in real Chromium against epoch web with the
// fixture server's `refs` tool: each row shows the type and description its refs lead to and the
// refs it came from, or says why there is none (a cycle, a missing target, another document) — as
// GET /api/mcp says it. The other document is a listener on 127.0.0.1 that nothing may touch, the
// server, epoch web and the browser included.
import { fixtureServerArgs, startTripwire, type Tripwire } from '@epoch-agent/testkit';
import type { McpView } from '@epoch-agent/web';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { fixtureEntry, type TestWeb } from './web-helpers.js';

// Long enough for a server to connect on a loaded machine; a wait that runs out fails the test.
const WAIT = { timeout: 20_000 };

let tripwire: Tripwire;
let session: PageSession;
let web: TestWeb;
let page: Page;
let airline: string;

beforeAll(async () => {
  tripwire = await startTripwire();
  airline = `${tripwire.origin}/airline.json`;
  const args = fixtureServerArgs('refs', `--network-ref=${airline}`);
  session = await openPage({ servers: { trips: fixtureEntry(args) } });
  ({ web, page } = session);
});

afterAll(async () => {
  await session?.close();
  // Last, once everything that could have fetched it is gone.
  expect(tripwire.hits()).toEqual([]);
  await tripwire.close();
});

const CYCLE = 'its $refs go round in a circle (#/$defs/loop → #/$defs/round → #/$defs/loop)';
const MISSING = `$ref "#/$defs/nowhere" names nothing in the tool's input schema`;
const remote = () => `$ref "${airline}" is in another document, which is never fetched`;

describe('parameters defined by $ref on the connectors page', () => {
  it('the API gives each one the type and description its refs lead to, and the refs', async () => {
    const view = (await (await web.api('/api/mcp')).json()) as McpView;
    const [tool] = view.groups.user.find((s) => s.name === 'trips')?.tools ?? [];
    expect(tool?.parameters).toContainEqual({
      name: 'nights',
      type: 'integer',
      required: false,
      description: 'Nights away',
      refs: ['#/$defs/nights', '#/$defs/count'],
    });
    expect(tool?.parameters).toContainEqual({
      name: 'lost',
      type: 'any',
      required: false,
      refs: ['#/$defs/nowhere'],
      problem: MISSING,
    });
  });

  it('the table shows the resolved type, where it came from and the description; a ref that leads nowhere says why', async () => {
    const trips = page.locator('article[data-server="trips"]');
    await trips.and(page.locator('[data-state="connected"]')).waitFor(WAIT);
    await openCard(page, 'trips');
    await trips.locator('summary', { hasText: 'Tools (1)' }).click();
    const rows = trips.locator('table.parameters tr');
    await rows.first().waitFor(WAIT);
    const table = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
    );
    expect(table).toEqual([
      ['from required', 'stringfrom #/$defs/city', 'A city, as the ticket names it'],
      ['to required', 'stringfrom #city', 'Where to'],
      ['nights', 'integerfrom #/$defs/nights → #/$defs/count', 'Nights away'],
      ['class', '"1" | "2"from #/$defs/seat~1class~0', ''],
      ['party', 'objectfrom #/$defs/party', 'Who travels'],
      ['insured', 'booleanfrom #/definitions/flag', 'Travel insurance'],
      ['airline', `any${remote()}`, ''],
      ['circular', `any${CYCLE}`, ''],
      ['lost', `any${MISSING}`, ''],
      ['note', 'string', ''],
    ]);
    // The three that lead nowhere are marked as problems, not as where a type came from.
    await expect(trips.locator('table.parameters .ref.problem').allTextContents()).resolves.toEqual(
      [remote(), CYCLE, MISSING],
    );
  });
});
