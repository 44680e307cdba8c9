// "Import from…" in real Chromium over a machine laid out from the runtime's import fixtures: the
// dialog shows each client's file, its servers with a checkbox each, what each would run (every
// command or URL above the import button, a launcher that downloads code said plainly), their
// notes, a taken name marked, env and header keys with their values hidden (no secret reaches the
// page or its API), and imports the checked servers into the user's file with comments and CRLF,
// said on the page; a server imported before is recognised by what it runs and not offered again.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SECRETS, fixtureMachine } from '../../runtime/test/import-places.js';
import { checkPage } from './page-check.js';
import { openPage, type PageSession } from './page-session.js';

const WAIT = { timeout: 20_000 };
const ORIGINAL = [
  '// my servers',
  '{',
  '  "servers": {',
  '    "GitHub": { "command": "gh-mcp" }',
  '  }',
  '}',
  '',
].join('\r\n');

let machine: Awaited<ReturnType<typeof fixtureMachine>>;
let session: PageSession;

beforeAll(async () => {
  machine = await fixtureMachine();
  // Its env_file is not read by this loader yet: left out, so every listed server can be imported.
  await rm(join(machine.project, '.cursor'), { recursive: true });
  session = await openPage(ORIGINAL, { importPlaces: machine });
});

afterAll(async () => {
  await session?.close();
  await rm(machine.dir, { recursive: true, force: true });
});

describe('Import from… on the page', () => {
  it('lists each client with its servers, notes and taken names, values hidden, and imports the checked ones', async () => {
    const { page, web } = session;
    await page.getByRole('button', { name: 'Import from…' }).click();
    const dialog = page.locator('dialog.import-dialog');
    await dialog.locator('.import-file').first().waitFor(WAIT);
    expect(await dialog.locator('.import-file h3').allTextContents()).toEqual([
      'Claude Desktop',
      'Claude Code',
      'Claude Code (project)',
      'Claude Code (project)',
      'Cursor',
      'VS Code',
      'VS Code (project)',
      'Windsurf',
      'Gemini CLI',
      'Codex',
    ]);
    const server = (client: string, name: string) =>
      dialog.locator(`.import-file[data-client="${client}"] li[data-server="${name}"]`).first();
    const github = server('claude-desktop', 'github');
    expect(await github.getAttribute('data-state')).toBe('taken');
    expect(await github.textContent()).toContain(
      'Name taken by GitHub in your file: imported as github-claude if checked.',
    );
    expect(await github.getByRole('checkbox').isChecked()).toBe(false);
    const brave = server('cursor', 'brave-search');
    expect(await brave.getByRole('checkbox').isChecked()).toBe(true);
    expect(await brave.locator('.launch-command .word').allTextContents()).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-brave-search',
    ]);
    expect(await brave.locator('.launch-download').textContent()).toContain(
      'Starting it downloads and runs code: npx -y fetches @modelcontextprotocol/server-brave-search',
    );
    expect(await brave.textContent()).toContain('BRAVE_API_KEY, SAFE_SEARCH (values hidden)');
    expect(await server('cursor', 'linear').locator('.launch-url').textContent()).toBe(
      'https://mcp.linear.app/sse',
    );
    // Every server that can be imported shows its command or URL, above the import button.
    const unshown = await dialog.evaluate((element) => {
      const button = [...element.querySelectorAll('button')].find((b) =>
        b.textContent?.startsWith('Import '),
      );
      return [...element.querySelectorAll('li.import-server:not([data-state="refused"])')]
        .filter((li) => {
          const launch = li.querySelector('.launch-command, .launch-url');
          return (
            launch === null ||
            button === undefined ||
            // 4: Node.DOCUMENT_POSITION_FOLLOWING, the button comes after it.
            !(launch.compareDocumentPosition(button) & 4)
          );
        })
        .map((li) => li.getAttribute('data-server'));
    });
    expect(unshown).toEqual([]);
    expect(await dialog.locator('li.import-server').count()).toBeGreaterThan(10);
    expect(await server('windsurf', 'puppeteer').textContent()).toContain(
      'alwaysAllow is not imported',
    );
    expect(await server('vscode', 'github').textContent()).toContain(
      `"\${input:github-token}" is a password`,
    );
    // No value of the other clients' files reaches the page or its API.
    const api = await (await web.api('/api/import')).text();
    const html = await page.content();
    for (const secret of FIXTURE_SECRETS) {
      expect(api).not.toContain(secret);
      expect(html).not.toContain(secret);
    }
    await checkPage(page, 'import-dialog');

    await server('claude-desktop', 'filesystem').getByRole('checkbox').uncheck();
    await github.getByRole('checkbox').check();
    const total = await dialog.locator('input[type="checkbox"]:checked').count();
    await dialog.getByRole('button', { name: `Import ${total} selected` }).click();
    const notice = dialog.getByRole('status').filter({ hasText: 'Added' });
    await notice.waitFor(WAIT);
    expect(await notice.textContent()).toContain(`Added ${total} servers to ${mcpConfigPath()}`);
    expect(await notice.textContent()).toContain('github-claude');

    const text = await readFile(mcpConfigPath(), 'utf8');
    expect(
      text.startsWith(
        '// my servers\r\n{\r\n  "servers": {\r\n    "GitHub": { "command": "gh-mcp" }',
      ),
    ).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const names = parseMcpConfig(text, mcpConfigPath()).servers.map((s) => s.name);
    expect(names).toHaveLength(total + 1);
    expect(names).toContain('github-claude');
    expect(names).not.toContain('filesystem');
    // Read again, the dialog knows what is now in the file by what it runs: not offered again.
    await expect
      .poll(() => server('cursor', 'brave-search').getAttribute('data-state'), WAIT)
      .toBe('imported');
    expect(await server('cursor', 'brave-search').getByRole('checkbox').isDisabled()).toBe(true);
    expect(await server('cursor', 'brave-search').textContent()).toContain(
      'Already set up as brave-search, which runs exactly this: not imported again.',
    );
    await checkPage(page, 'import-done');
  });

  it('POST /api/import refuses a request naming no server, and reads no file the clients do not keep', async () => {
    const { web } = session;
    const before = await readFile(mcpConfigPath(), 'utf8');
    const empty = await web.api('/api/import', { method: 'POST', json: { servers: [] } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe(
      'invalid_request',
    );
    // A file of a client's format the clients do not keep: naming it imports nothing.
    const other = join(machine.dir, 'elsewhere.toml');
    await writeFile(other, '[mcp_servers.elsewhere]\ncommand = "srv"\n');
    const elsewhere = await web.api('/api/import', {
      method: 'POST',
      json: { servers: [{ client: 'codex', path: other, scope: 'user', original: 'elsewhere' }] },
    });
    expect(elsewhere.status).toBe(201);
    expect(((await elsewhere.json()) as { servers: unknown[] }).servers).toEqual([]);
    // Imported by the first test: asked for again, under any name, it is not added twice.
    const cursorFile = join(machine.home, '.cursor', 'mcp.json');
    const again = await web.api('/api/import', {
      method: 'POST',
      json: {
        servers: [{ client: 'cursor', path: cursorFile, scope: 'user', original: 'brave-search' }],
      },
    });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { servers: unknown[] }).servers).toEqual([
      {
        original: 'brave-search',
        name: 'brave-search',
        label: 'Cursor',
        added: false,
        message: 'server "brave-search" runs exactly this already.',
      },
    ]);
    expect(await readFile(mcpConfigPath(), 'utf8')).toBe(before);
  });
});
