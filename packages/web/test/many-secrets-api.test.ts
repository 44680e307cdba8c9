// Large inputs on the connectors page's API, over real HTTP on 127.0.0.1 with real server processes:
// a server whose env_file gives 80,000 values (each with a space: three spellings of each to look
// for) connects (it used to stay "connecting" past its connect_timeout, its start having thrown)
// and its tools are listed; a server with 100,000 unset `${VAR}`s has the first ten warnings on its
// card and one that counts the rest (the loader bounds each kind of problem per server).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { McpView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const WARNINGS = 100_000;

let web: TestWeb;
let warnedWeb: TestWeb;
let warnedDir: string;

beforeAll(async () => {
  const file = mcpConfigPath();
  const lines = Array.from({ length: 80_000 }, (_, i) => `K${base62(i)}=a b${base62(i)}\n`);
  await writeFile(join(dirname(file), 'many.env'), lines.join(''));
  await writeFile(
    file,
    JSON.stringify({
      servers: {
        many: fixtureEntry(ANNOTATED_SERVER, { env_file: 'many.env', connect_timeout: 60 }),
      },
    }),
  );
  web = await startTestWeb({ registry: { reconnectDelaysMs: [] } });
  // A page of its own: a view of 100,000 problems is some 80 MB, each time the feed sends one.
  warnedDir = await mkdtemp(join(tmpdir(), 'epoch-web-warned-'));
  const warned = {
    // Off: it never starts; only its warnings matter here.
    command: 'node',
    enabled: false,
    env: Object.fromEntries(Array.from({ length: WARNINGS }, (_, i) => [`K${i}`, `\${U${i}}`])),
  };
  const configFile = join(warnedDir, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ servers: { warned } }));
  warnedWeb = await startTestWeb({ configFile, projectDir: null });
}, 60_000);

afterAll(async () => {
  await web?.close();
  await warnedWeb?.close();
  if (warnedDir !== undefined) await rm(warnedDir, { recursive: true, force: true });
});

describe('large inputs on the page', () => {
  it('a server with an env_file of 80,000 values connects and lists its tools, no value in the view', async () => {
    const view = await web.settled();
    const [many] = view.groups.user;
    expect(many?.status).toMatchObject({ state: 'connected' });
    expect(many?.tools.map((tool) => tool.name).sort()).toEqual([
      'mcp__many__forget',
      'mcp__many__lookup',
    ]);
    expect(JSON.stringify(view)).not.toMatch(/a(?: |%20)b[A-Za-z0-9]{3}/);
  }, 60_000);

  it('a server with 100,000 unset variables: GET /api/mcp has ten warnings and a count on its card', async () => {
    const response = await warnedWeb.api('/api/mcp');
    expect(response.status).toBe(200);
    const view = (await response.json()) as McpView;
    const [warned] = view.groups.user;
    expect(warned?.problems).toHaveLength(11);
    expect(warned?.problems[10]).toMatchObject({ code: 'unset_variable' });
    expect(warned?.problems[10]?.message).toContain('and 99,990 more like the 10 above');
  });
});

/** Three letters or digits for `i` under 238,328: short distinct keys and values. */
function base62(i: number): string {
  const digits = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [i % 62, Math.floor(i / 62) % 62, Math.floor(i / 3844) % 62]
    .map((d) => digits[d])
    .join('');
}
