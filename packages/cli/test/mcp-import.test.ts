// `epoch mcp import` on a temp machine laid out from the runtime's import fixtures (a home with
// each client's file, a project with its own): what it adds, skips, renames and shows, that a dry
// run writes nothing, that `remove` of each imported server gives back the file byte for byte, and
// that no secret of the other clients' files reaches any output.
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIXTURE_SECRETS,
  fixtureMachine,
  USER_MCP_JSON,
} from '../../runtime/test/import-places.js';
import { type CliRun, runCli } from './run-cli.js';

let machine: Awaited<ReturnType<typeof fixtureMachine>>;
let file: string;
const ORIGINAL = USER_MCP_JSON;

beforeEach(async () => {
  machine = await fixtureMachine();
  // Without Cursor's project file (its servers, an env_file among them, are the runtime import
  // test's): the counts below are of the other files.
  await rm(join(machine.project, '.cursor'), { recursive: true });
  file = join(machine.dir, 'mcp.json');
  await writeFile(file, ORIGINAL);
});

afterEach(async () => {
  await rm(machine.dir, { recursive: true, force: true });
});

/** `epoch mcp <args>` on the test's file, with the machine's home (and project, for import). */
function epoch(...args: string[]): Promise<CliRun> {
  const project = args[0] === 'import' ? ['--project', machine.project] : [];
  return runCli(['mcp', ...args, '--config', file, ...project], { env: { HOME: machine.home } });
}

function expectNoSecret(...runs: CliRun[]): void {
  const all = runs.map((run) => run.out + run.err).join('\n');
  for (const secret of FIXTURE_SECRETS) expect(all).not.toContain(secret);
}

describe('epoch mcp import', () => {
  it('adds the new servers of every client in one edit (CRLF kept), skips clashes, and remove of each gives the file back', async () => {
    const run = await epoch('import');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      `Claude Desktop: ${join(machine.home, '.config/Claude/claude_desktop_config.json')}`,
    );
    expect(run.out).toContain('github: skipped, "GitHub" already has that name (case aside)');
    expect(run.out).toContain('fetch: skipped, "fetch" already has that name');
    expect(run.out).toContain('note: alwaysAllow is not imported');
    expect(run.out).toMatch(
      /Imported 14 servers into .*mcp\.json\. 4 skipped: their names are taken; --rename imports them under new names\.\n$/,
    );
    const after = await readFile(file, 'utf8');
    expect(after.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const list = await epoch('list', '--json');
    const names: string[] = JSON.parse(list.out).servers.map((s: { name: string }) => s.name);
    expect(names).toHaveLength(16);
    const imported = names.slice(2);
    for (const name of imported.reverse()) {
      const removed = await epoch('remove', name);
      expect([name, removed.code, removed.err]).toEqual([name, 0, '']);
    }
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expectNoSecret(run, list);
  });

  it('--dry-run shows each entry and its notes, secrets as placeholders, and writes nothing', async () => {
    const before = await stat(file);
    const run = await epoch('import', '--dry-run');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      [
        '  brave-search: would be added',
        '    runs: npx -y @modelcontextprotocol/server-brave-search',
        '    env: BRAVE_API_KEY, SAFE_SEARCH (values not shown)',
        '    Warning: starting it downloads code and runs it with your rights (npx -y: @modelcontextprotocol/server-brave-search); whoever publishes that decides what it does.',
        '      "brave-search": {',
        '        "command": "npx",',
        '        "args": ["-y", "@modelcontextprotocol/server-brave-search"],',
        '        "env": { "BRAVE_API_KEY": "<secret: env.BRAVE_API_KEY>", "SAFE_SEARCH": "<secret: env.SAFE_SEARCH>" }',
        '      }',
      ].join('\n'),
    );
    expect(run.out).toContain(
      `note: headers.Authorization: "\${input:github-token}" is a password`,
    );
    expect(run.out).toMatch(/Would import 14 servers .* Dry run: nothing was written\.\n$/);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    const json = await epoch('import', '--dry-run', '--json');
    const parsed = JSON.parse(json.out);
    expect(parsed).toMatchObject({ written: false, file });
    expect(parsed.servers.find((s: { original: string }) => s.original === 'figma')).toMatchObject({
      client: 'codex',
      outcome: { kind: 'added' },
      notes: [expect.stringContaining('required is not imported')],
    });
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expectNoSecret(run, json);
  });

  it('shows what every server runs, in the dry run and the import, and never imports one twice', async () => {
    const dry = await epoch('import', '--dry-run', '--json');
    const { servers } = JSON.parse(dry.out) as {
      servers: {
        name: string;
        outcome: { kind: string };
        launch?: { command?: string[]; url?: string };
      }[];
    };
    const shown = servers.filter(({ outcome }) => outcome.kind !== 'refused');
    expect(shown.length).toBeGreaterThan(10);
    for (const { name, launch } of shown) {
      expect([name, launch?.command ?? launch?.url]).toEqual([name, expect.anything()]);
    }
    const text = await epoch('import', '--dry-run');
    for (const { launch } of shown) {
      const what = launch?.url ?? launch?.command?.at(-1) ?? '';
      expect(text.out).toContain(what);
    }
    const run = await epoch('import');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      [
        '  brave-search: added',
        '    runs: npx -y @modelcontextprotocol/server-brave-search',
        '    env: BRAVE_API_KEY, SAFE_SEARCH (values not shown)',
        '    Warning: starting it downloads code and runs it with your rights (npx -y: @modelcontextprotocol/server-brave-search); whoever publishes that decides what it does.',
      ].join('\n'),
    );
    const written = await readFile(file, 'utf8');
    // Imported before: recognised by what it runs, so --rename does not add it under a new name.
    const again = await epoch('import', '--rename');
    expect(again.code).toBe(0);
    expect(again.out).toContain(
      '  brave-search: already there as "brave-search", which runs exactly the same; not imported again',
    );
    expect(again.out).toMatch(
      / \d+ already there: epoch has a server that runs exactly the same\./,
    );
    expect(await readFile(file, 'utf8')).not.toContain('"brave-search-');
    expect(written).toContain('"brave-search"');
    expectNoSecret(dry, text, run, again);
  });

  it('--rename adds a clashing server as <name>-<client>', async () => {
    const run = await epoch('import', '--rename', '--from', 'vscode');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'github-vscode: added under this name, since "GitHub" is taken (was "github")',
    );
    expect(run.out).toContain(
      'fetch-vscode: added under this name, since "fetch" is taken (was "fetch")',
    );
    const list = JSON.parse((await epoch('list', '--json')).out);
    expect(list.servers.map((s: { name: string }) => s.name)).toEqual([
      'GitHub',
      'fetch',
      'github-vscode',
      'fetch-vscode',
      'playwright',
      'repo-tools',
    ]);
  });

  it('--file reads one file, its client recognized; --from names the client; bad ones are exit 2', async () => {
    const other = join(machine.dir, 'servers.toml');
    await writeFile(other, '[mcp_servers.toml-server]\ncommand = "srv"\nenv_vars = ["TOKEN"]\n');
    const run = await epoch('import', '--file', other, '--json');
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.out);
    expect(parsed.files).toEqual([{ client: 'codex', path: other, scope: 'user', servers: 1 }]);
    expect(parsed.servers[0].entry).toBe(
      '"toml-server": {\n  "command": "srv",\n  "env": { "TOKEN": "<secret: env.TOKEN>" }\n}',
    );
    const from = await epoch('import', '--from', 'gemini', '--dry-run');
    expect(from.out.split('\n')[0]).toBe(
      `Gemini CLI: ${join(machine.home, '.gemini/settings.json')}`,
    );
    expect(from.out).not.toContain('Codex');
    const unknown = await epoch('import', '--from', 'atom');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(
      '--from "atom" is not a client epoch reads; use one of claude-desktop, claude-code',
    );
    const missing = await epoch('import', '--file', join(machine.dir, 'nope.json'));
    expect(missing.code).toBe(2);
  });

  it('a file that does not parse is said with its line and exits 1; the others still import', async () => {
    await writeFile(
      join(machine.home, '.cursor/mcp.json'),
      '{\n  "mcpServers": {\n    "x": { "env": { "K": "cursorBroken12345" }\n',
    );
    const run = await epoch('import');
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /\.cursor\/mcp\.json:4:\d+: JSON syntax error: .*; nothing of it was imported\./,
    );
    expect(run.out).toContain('Imported 12 servers');
    expect(run.out + run.err).not.toContain('cursorBroken12345');
  });

  it('says where it looked when no client has a file, writes nothing and exits 0', async () => {
    const empty = join(machine.dir, 'empty-home');
    const run = await runCli(['mcp', 'import', '--config', file, '--project', empty], {
      env: { HOME: empty },
    });
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `No MCP client's file was found (home ${empty}, project ${empty}). Name one with --file PATH.\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it("--scope project writes the project's own files' servers into its .epoch/mcp.json, a name of your file taken there too", async () => {
    // A repository: the search for its project file stops at it.
    await mkdir(join(machine.project, '.git'));
    const run = await epoch('import', '--scope', 'project');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const projectFile = join(machine.project, '.epoch', 'mcp.json');
    expect(run.out).toContain(`Claude Code, project: ${join(machine.project, '.mcp.json')}`);
    expect(run.out).toContain(`VS Code, project: ${join(machine.project, '.vscode', 'mcp.json')}`);
    // Claude Code's per-project part of ~/.claude.json is the person's, not the project's.
    expect(run.out).not.toContain('.claude.json');
    expect(run.out).not.toContain('local-db');
    expect(run.out).toContain('github: skipped, "GitHub" already has that name (case aside)');
    expect(run.out).toContain(
      `Imported 1 server into ${projectFile} (a new file). 1 skipped: their names are taken`,
    );
    expect(Object.keys(JSON.parse(await readFile(projectFile, 'utf8')).servers)).toEqual([
      'repo-tools',
    ]);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expectNoSecret(run);
  });
});
