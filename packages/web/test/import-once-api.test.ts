// The import routes over real HTTP with the home directory as the project: Cursor's user and
// project file are then one file, listed once, and its server imported once (never also as
// `a-cursor`); two clients holding one server under two names, both chosen, give one entry, the
// other answered as not imported, naming the one that runs the same.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportDone, ImportView } from '../src/api-types.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

let home: string;
let web: TestWeb;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-import-once-'));
  await mkdir(join(home, '.cursor'));
  await writeFile(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { a: { command: 'node', args: ['x'] } } }),
  );
  await writeFile(
    join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { b: { command: 'node', args: ['x'] } } }),
  );
  await writeFile(mcpConfigPath(), '{\n  "servers": {}\n}\n');
  web = await startTestWeb({ importPlaces: { home, project: home, platform: 'linux' } });
});

afterAll(async () => {
  await web?.close();
  await rm(home, { recursive: true, force: true });
});

describe('import routes: each server once', () => {
  it('lists one file once and imports one of two servers that run the same', async () => {
    const view = (await (await web.api('/api/import')).json()) as ImportView;
    const cursorFiles = view.files.filter((file) => file.client === 'cursor');
    expect(cursorFiles.map((file) => file.path)).toEqual([join(home, '.cursor', 'mcp.json')]);

    const servers = view.files.flatMap((file) =>
      file.servers.map((server) => ({
        client: file.client,
        path: file.path,
        scope: file.scope,
        original: server.original,
      })),
    );
    expect(servers).toHaveLength(2);
    const response = await web.api('/api/import', { method: 'POST', json: { servers } });
    expect(response.status).toBe(201);
    const done = (await response.json()) as ImportDone;
    expect(done.servers.filter((server) => server.added)).toHaveLength(1);
    const skipped = done.servers.find((server) => !server.added);
    expect(skipped?.message).toMatch(
      /^it runs exactly what (Cursor|Claude Code)'s "[ab]" \(\S+\), chosen too, runs: that one is imported instead\.$/,
    );
    const written = JSON.parse(await readFile(mcpConfigPath(), 'utf8'));
    expect(Object.keys(written.servers)).toHaveLength(1);
  });
});
