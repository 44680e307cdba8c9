// A server's recent output on the connectors page, from real servers: its log messages
// (notifications/message) and what it wrote to stderr, through GET /api/mcp/:name/output and in
// its card's Output, redacted; new lines come in while Output is open.
import type { McpServerOutput } from '@epoch-agent/runtime';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import type { ApiErrorBody } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage } from './page-check.js';
import { openCard } from './page-rows.js';
import { openPage, type PageSession } from './page-session.js';
import { FAILING_SERVER, fixtureEntry } from './web-helpers.js';

const SECRET = 'sk-output-page-SECRET-3131';
const WAIT = { timeout: 20_000 };

let session: PageSession;

beforeAll(async () => {
  session = await openPage({
    servers: {
      chatty: fixtureEntry(fixtureServerArgs('progress'), { env: { API_TOKEN: SECRET } }),
      broken: fixtureEntry(FAILING_SERVER),
    },
  });
  await session.web.settled();
});

afterAll(async () => {
  await session?.close();
});

async function log(count: number, text: string, level = 'info'): Promise<void> {
  const response = await session.web.api('/api/mcp/chatty/tools/log/call', {
    method: 'POST',
    json: { arguments: { count, text, level } },
  });
  expect(response.status).toBe(200);
}

describe("a server's output", () => {
  it('GET …/output: its log messages with level and logger, redacted; only the newer ones after a seq', async () => {
    await log(2, `key ${SECRET}`, 'warning');
    const response = await session.web.api('/api/mcp/chatty/output');
    const output = (await response.json()) as McpServerOutput;
    expect(output.lines.map((line) => [line.stream, line.text])).toEqual([
      ['log', 'key <redacted> 1'],
      ['log', 'key <redacted> 2'],
    ]);
    expect(output.lines[0]).toMatchObject({ level: 'warning', logger: 'fixture' });
    expect(JSON.stringify(output)).not.toContain(SECRET);
    const newer = (await (
      await session.web.api(`/api/mcp/chatty/output?after=${output.last}`)
    ).json()) as McpServerOutput;
    expect(newer).toEqual({ lines: [], dropped: 0, last: output.last });

    const stderr = (await (
      await session.web.api('/api/mcp/broken/output')
    ).json()) as McpServerOutput;
    expect(stderr.lines.map((line) => [line.stream, line.text])).toContainEqual([
      'stderr',
      'error: WEATHER_API_KEY is not set; get one at https://weather.example/keys',
    ]);
  });

  it('refuses an unknown server and an "after" that is not a seq, saying which', async () => {
    const unknown = await session.web.api('/api/mcp/nobody/output');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiErrorBody).error.message).toContain('"nobody"');
    const bad = await session.web.api('/api/mcp/chatty/output?after=-1');
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as ApiErrorBody;
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('"after"');
    expect(error.message).toContain('"chatty"');
  });

  it("shows in the card's Output, and lines logged while it is open come in", async () => {
    const { page } = session;
    const card = await openCard(page, 'chatty');
    await card.locator('details.logs > summary').click();
    const lines = card.locator('.logs li');
    await lines.first().waitFor(WAIT);
    await expect(lines.first().textContent()).resolves.toMatch(/warning fixture key <redacted> 1$/);
    await log(1, 'while open', 'error');
    await card.locator('.logs li[data-level="error"]').waitFor(WAIT);
    await expect(card.locator('.logs li').last().textContent()).resolves.toMatch(
      /error fixture while open 1$/,
    );
    await expect(page.content()).resolves.not.toContain(SECRET);

    const broken = await openCard(page, 'broken');
    await broken.locator('details.logs > summary').click();
    await broken
      .locator('.logs li[data-stream="stderr"]', { hasText: 'WEATHER_API_KEY is not set' })
      .waitFor(WAIT);
    await checkPage(page, 'server-output');
  });
});
