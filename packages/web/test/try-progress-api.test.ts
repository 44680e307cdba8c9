// The page's Try answered as it runs (NDJSON) of a tool whose server floods it with progress
// reports, over real HTTP on 127.0.0.1 to a real stdio server: the answer carries the latest
// report a few times a second, not one line per report, and ends with the result.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ToolCallLine } from '../src/api-types.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

const REPORTS = 100_000;

let web: TestWeb;

beforeAll(async () => {
  const servers = { work: fixtureServerEntry('progress') };
  await writeFile(mcpConfigPath(), JSON.stringify({ servers }, null, 2));
  web = await startTestWeb();
});

afterAll(async () => {
  await web?.close();
});

it('100,000 reports reach the page as a few lines, in order, then the result', async () => {
  await web.viewWhen((v) => v.groups.user[0]?.status?.state === 'connected');
  const response = await web.api('/api/mcp/work/tools/flood/call', {
    method: 'POST',
    json: { arguments: { reports: REPORTS } },
    headers: { accept: 'application/x-ndjson' },
  });
  expect(response.status).toBe(200);
  const lines = (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ToolCallLine);
  const last = lines.at(-1);
  expect(last).toHaveProperty('result');
  expect(JSON.stringify(last)).toContain(`flooded ${REPORTS}`);
  const reports = lines.slice(0, -1).map((line) => ('progress' in line ? line.progress : null));
  // The first at once; then one per interval at most: the flood takes seconds, not hours.
  expect(reports[0]).toMatchObject({ progress: 1, total: REPORTS, message: 'flood' });
  expect(reports.length).toBeLessThan(REPORTS / 100);
  const counts = reports.map((report) => report?.progress ?? -1);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
}, 120_000);
