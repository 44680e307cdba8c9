// A server whose env_file gives 80,000 values (each with a space: three spellings of each to look
// for) on the connectors page's API, over real HTTP on 127.0.0.1 with a real server process: it
// connects (it used to stay "connecting" past its connect_timeout, its start having thrown), and
// its tools are listed.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

let web: TestWeb;

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
}, 60_000);

afterAll(async () => {
  await web?.close();
});

describe('a server with an env_file of 80,000 values, on the page', () => {
  it('connects and lists its tools, no value in the view', async () => {
    const view = await web.settled();
    const [many] = view.groups.user;
    expect(many?.status).toMatchObject({ state: 'connected' });
    expect(many?.tools.map((tool) => tool.name).sort()).toEqual([
      'mcp__many__forget',
      'mcp__many__lookup',
    ]);
    expect(JSON.stringify(view)).not.toMatch(/a(?: |%20)b[A-Za-z0-9]{3}/);
  }, 60_000);
});

/** Three letters or digits for `i` under 238,328: short distinct keys and values. */
function base62(i: number): string {
  const digits = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [i % 62, Math.floor(i / 62) % 62, Math.floor(i / 3844) % 62]
    .map((d) => digits[d])
    .join('');
}
