// The import routes on a machine whose clients' files are hostile: a ~/.claude.json nested far too
// deep, a ~/.cursor/mcp.json over 4 MiB and a Gemini settings file that is a FIFO are each a problem
// named by its file (never a 500), while a project file of 1,000 servers and a file with a server
// called `__proto__` are listed and imported whole; a POST body over the bound is 413; and the
// page's dialog shows a file's problem under that file.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { ImportPlaces } from '@epoch-agent/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportView } from '../src/api-types.js';
import { type Chromium, launchChromium } from './chromium.js';
import { startTestWeb, type TestWeb } from './web-helpers.js';

const PROJECT_SERVERS = 1_000;

let dir: string;
let places: ImportPlaces;
let web: TestWeb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-import-hostile-'));
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  await mkdir(join(home, '.cursor'), { recursive: true });
  await mkdir(join(home, '.gemini'), { recursive: true });
  await mkdir(join(home, '.codeium', 'windsurf'), { recursive: true });
  await mkdir(project, { recursive: true });
  const depth = 100_000;
  await writeFile(
    join(home, '.claude.json'),
    `{"tips": ${'['.repeat(depth)}${']'.repeat(depth)}, "mcpServers": {"deep": {"command": "x"}}}`,
  );
  await writeFile(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({
      mcpServers: { big: { command: 'x', args: ['y'.repeat(4.5 * 1024 * 1024)] } },
    }),
  );
  execFileSync('mkfifo', [join(home, '.gemini', 'settings.json')]);
  await writeFile(
    join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    '{"mcpServers": {"__proto__": {"command": "proto-mcp"}, "constructor": {"command": "ctor-mcp"}}}',
  );
  const servers = Object.fromEntries(
    Array.from({ length: PROJECT_SERVERS }, (_, i) => [
      `p${i}`,
      { command: 'node', args: [`server-${i}.js`] },
    ]),
  );
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  places = { home, project, platform: 'linux' };
  await writeFile(mcpConfigPath(), '{\n  "servers": {}\n}\n');
  web = await startTestWeb({ importPlaces: places });
});

afterAll(async () => {
  await web?.close();
  await rm(dir, { recursive: true, force: true });
});

async function importView(): Promise<ImportView> {
  const response = await web.api('/api/import');
  expect(response.status).toBe(200);
  return (await response.json()) as ImportView;
}

describe('/api/import with hostile client files', () => {
  it('names each bad file in its problem and lists every other file whole', async () => {
    const view = await importView();
    const byPath = new Map(view.files.map((file) => [file.path, file]));
    const problem = (path: string) => byPath.get(join(places.home, path))?.problem;
    expect(problem('.claude.json')).toMatch(/\.claude\.json:1: objects and lists nest more than/);
    expect(problem('.cursor/mcp.json')).toContain('is larger than 4 MiB');
    expect(problem('.gemini/settings.json')).toContain('a named pipe (FIFO)');
    for (const file of view.files) expect(file.problem ?? '').not.toMatch(/call stack|RangeError/);
    const projectFile = byPath.get(join(places.project ?? '', '.mcp.json'));
    expect(projectFile?.servers).toHaveLength(PROJECT_SERVERS);
    const windsurf = byPath.get(join(places.home, '.codeium', 'windsurf', 'mcp_config.json'));
    expect(windsurf?.servers.map((server) => [server.name, server.state])).toEqual([
      ['__proto__', 'new'],
      ['constructor', 'new'],
    ]);
  });

  it("the page's dialog shows a bad file's problem under that file", async () => {
    let chromium: Chromium | undefined;
    try {
      chromium = await launchChromium();
      const page = await chromium.context.newPage();
      await page.goto(web.url);
      await page.getByRole('button', { name: 'Import from…' }).click();
      const claude = page.locator('dialog.import-dialog .import-file[data-client="claude-code"]');
      await claude.first().locator('.field-error').waitFor({ timeout: 20_000 });
      expect(await claude.first().locator('.field-error').textContent()).toContain(
        `${join(places.home, '.claude.json')}:1: objects and lists nest more than`,
      );
    } finally {
      await chromium?.close();
    }
  });
  it('refuses a body over the bound with 413, before it is read, and writes nothing', async () => {
    const before = await readFile(mcpConfigPath(), 'utf8');
    const response = await web.api('/api/import', {
      method: 'POST',
      json: {
        servers: [
          { client: 'cursor', path: 'x'.repeat(5 * 1024 * 1024), scope: 'user', original: 'x' },
        ],
      },
    });
    expect(response.status).toBe(413);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('too_large');
    expect(error.message).toContain('Nothing was imported: the request body is over 4 MiB');
    expect(await readFile(mcpConfigPath(), 'utf8')).toBe(before);
  });

  it('imports the 1,000 servers of the project file and the one called __proto__ in one edit', async () => {
    const view = await importView();
    const chosen = view.files.flatMap((file) =>
      file.servers.map((server) => ({
        client: file.client,
        path: file.path,
        scope: file.scope,
        original: server.original,
      })),
    );
    const response = await web.api('/api/import', { method: 'POST', json: { servers: chosen } });
    expect(response.status).toBe(201);
    const done = (await response.json()) as { servers: { name: string; added: boolean }[] };
    expect(done.servers.filter((server) => !server.added)).toEqual([]);
    expect(done.servers).toHaveLength(PROJECT_SERVERS + 2);
    const written = JSON.parse(await readFile(mcpConfigPath(), 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(Object.hasOwn(written.servers, '__proto__')).toBe(true);
    expect(Object.keys(written.servers)).toHaveLength(PROJECT_SERVERS + 2);
  });
});
