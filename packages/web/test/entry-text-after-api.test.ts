// The page's entry editor over real HTTP: a PUT whose text has more after the entry (a second
// server pasted after the first) is refused, the file untouched, and the answer says that there is
// text after the entry — not that the JSON should be written in double quotes, which it is.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEntry } from '../src/api-types.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

let web: TestWeb;

beforeAll(async () => {
  await writeFile(
    mcpConfigPath(),
    `${JSON.stringify({ servers: { s: { command: 'node', enabled: false } } }, null, 2)}\n`,
  );
  web = await startTestWeb();
});

afterAll(async () => {
  await web?.close();
});

describe('entry PUT', () => {
  it('text after the entry: refused, saying so', async () => {
    const before = await readFile(mcpConfigPath(), 'utf8');
    const entry = (await (await web.api('/api/mcp/s/entry')).json()) as ServerEntry;
    const put = await web.api('/api/mcp/s/entry', {
      method: 'PUT',
      json: { text: '{ "command": "node" }, "evil": { "command": "x" }', basedOn: entry.version },
    });
    expect(put.status).toBe(400);
    const { error } = (await put.json()) as { error: { message: string } };
    expect(error.message).toContain(
      `does not parse at line 1, column 22: there is text after the entry's closing "}"`,
    );
    expect(error.message).not.toContain('double quotes');
    expect(await readFile(mcpConfigPath(), 'utf8')).toBe(before);
  });
});
