// `epoch mcp import`'s runtime half on hand-written files of each client (test/fixtures/import):
// every field translated or named in a note, references as ours, and the import into a user's
// mcp.json with comments and CRLF as one insertion that removeServer undoes byte for byte.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeServer } from '../src/config-edit/index.js';
import { findClientServers, readFileAs } from '../src/import/clients.js';
import type { ClientName, FoundServer, ImportPlaces } from '../src/import/found-server.js';
import { importServers } from '../src/import/import-servers.js';
import { FIXTURE_SECRETS, fixtureMachine, USER_MCP_JSON } from './import-places.js';

let machine: ImportPlaces & { dir: string; project: string };
let found: FoundServer[];

beforeEach(async () => {
  machine = await fixtureMachine();
  found = (await findClientServers(machine)).flatMap((read) => (read.ok ? read.servers : []));
});

afterEach(async () => {
  await rm(machine.dir, { recursive: true, force: true });
});

function server(client: ClientName, original: string, scope?: 'user' | 'project'): FoundServer {
  const match = found.find(
    (s) =>
      s.client === client && s.original === original && (scope === undefined || s.scope === scope),
  );
  if (match === undefined) throw new Error(`no ${client} server ${original}`);
  return match;
}

describe('reading each client', () => {
  it('finds every fixture file of the machine, each client in its own place', async () => {
    const reads = await findClientServers(machine);
    expect(reads.map((r) => [r.client, r.scope, r.path.slice(machine.dir.length)])).toEqual([
      ['claude-desktop', 'user', '/home/.config/Claude/claude_desktop_config.json'],
      ['claude-code', 'user', '/home/.claude.json'],
      ['claude-code', 'project', '/home/.claude.json'],
      ['claude-code', 'project', '/project/.mcp.json'],
      ['cursor', 'user', '/home/.cursor/mcp.json'],
      ['cursor', 'project', '/project/.cursor/mcp.json'],
      ['vscode', 'user', '/home/.config/Code/User/mcp.json'],
      ['vscode', 'project', '/project/.vscode/mcp.json'],
      ['windsurf', 'user', '/home/.codeium/windsurf/mcp_config.json'],
      ['gemini', 'user', '/home/.gemini/settings.json'],
      ['codex', 'user', '/home/.codex/config.toml'],
    ]);
    expect(reads.every((r) => r.ok)).toBe(true);
    // Another OS keeps the desktop apps' files elsewhere.
    const mac = await findClientServers({ ...machine, platform: 'darwin' }, ['claude-desktop']);
    expect(mac).toEqual([]);
  });

  it('Claude Desktop: Windows paths and cmd /c kept as written, with a note; $ escaped; a name made ours', () => {
    expect(server('claude-desktop', 'filesystem').entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'],
    });
    const github = server('claude-desktop', 'github');
    expect(github.entry).toMatchObject({
      command: 'cmd',
      args: ['/c', 'npx', '-y', '@modelcontextprotocol/server-github'],
    });
    expect(github.notes).toEqual([
      expect.stringContaining('command "cmd" is a Windows command, kept as written'),
    ]);
    const weather = server('claude-desktop', 'node weather');
    expect(weather.name).toBe('node-weather');
    expect(weather.entry).toMatchObject({
      command: 'C:\\Program Files\\nodejs\\node.exe',
      env: { PRICE: '$$5 a month' },
    });
    expect(weather.notes).toEqual([
      expect.stringContaining('its name "node weather" is written "node-weather"'),
      expect.stringContaining('env.PRICE: each "$"'),
      expect.stringContaining('is a Windows command'),
    ]);
  });

  it("Claude Code: user and project scopes of ~/.claude.json and the project's .mcp.json", () => {
    expect(server('claude-code', 'sentry').entry).toEqual({
      transport: 'http',
      url: 'https://mcp.sentry.dev/mcp',
      headers: { Authorization: `Bearer \${SENTRY_TOKEN}` },
    });
    expect(server('claude-code', 'local-db').entry).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'db-mcp'],
      env: { DB_URL: `\${DB_URL:-postgres://localhost/dev}` },
    });
    const github = server('claude-code', 'github');
    expect(github.entry).toEqual({
      transport: 'http',
      url: 'https://api.githubcopilot.com/mcp/',
      headers_helper: ['/usr/local/bin/github-token-headers'],
    });
    expect(github.notes).toEqual([]);
  });

  it("Claude Code's headersHelper: plain words as words, a shell line as sh -c (said), none on Windows", async () => {
    const file = join(machine.dir, 'helpers.mcp.json');
    const remote = (headersHelper: string) => ({
      type: 'http',
      url: 'https://x.example/mcp',
      headersHelper,
    });
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          words: remote('gcloud auth print-access-token --format=json'),
          relative: remote('./get-token.sh prod'),
          shell: remote(`printf '{"Authorization":"Bearer %s"}' "$(cat ~/.token)"`),
        },
      }),
    );
    const read = async (platform: NodeJS.Platform) => {
      const got = await readFileAs(file, 'claude-code', { ...machine, platform });
      if (got?.ok !== true) throw new Error('not read');
      return new Map(got.servers.map((s) => [s.name, s]));
    };
    const linux = await read('linux');
    expect(linux.get('words')?.entry.headers_helper).toEqual([
      'gcloud',
      'auth',
      'print-access-token',
      '--format=json',
    ]);
    expect(linux.get('words')?.notes).toEqual([]);
    expect(linux.get('relative')?.entry.headers_helper).toEqual(['./get-token.sh', 'prod']);
    expect(linux.get('relative')?.notes).toEqual([expect.stringContaining('is a relative path')]);
    expect(linux.get('shell')?.entry.headers_helper).toEqual([
      'sh',
      '-c',
      `printf '{"Authorization":"Bearer %s"}' "$(cat ~/.token)"`,
    ]);
    expect(linux.get('shell')?.notes).toEqual([expect.stringContaining('["sh", "-c", …]')]);
    // What was imported is an entry epoch reads, helper and all.
    const entries = Object.fromEntries([...linux].map(([name, s]) => [name, s.entry]));
    const parsed = parseMcpConfig(
      JSON.stringify({ servers: entries }),
      join(machine.dir, 'mcp.json'),
    );
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.servers.map((c) => (c.transport === 'stdio' ? [] : c.headersHelper))).toEqual([
      ['gcloud', 'auth', 'print-access-token', '--format=json'],
      [join(machine.dir, 'get-token.sh'), 'prod'],
      ['sh', '-c', `printf '{"Authorization":"Bearer %s"}' "$(cat ~/.token)"`],
    ]);
    const windows = await read('win32');
    expect(windows.get('shell')?.entry.headers_helper).toBeUndefined();
    expect(windows.get('shell')?.notes).toEqual([expect.stringContaining('is not imported')]);
  });

  it(`Cursor: \${env:X} as ours, \${workspaceFolder} of a project file as its path, envFile as env_file, auth named`, () => {
    expect(server('cursor', 'linear').entry).toEqual({ url: 'https://mcp.linear.app/sse' });
    expect(server('cursor', 'brave-search').entry).toMatchObject({
      env: { BRAVE_API_KEY: `\${BRAVE_API_KEY}`, SAFE_SEARCH: 'cursorSecretSafe42' },
    });
    const docs = server('cursor', 'docs');
    expect(docs.entry).toEqual({
      command: 'node',
      args: [join(machine.project, 'tools/docs-server.js')],
      env_file: join(machine.project, '.env'),
    });
    expect(docs.notes).toEqual([
      expect.stringContaining('auth (its OAuth client settings) is not imported'),
    ]);
  });

  it(`VS Code: inputs (a password) as variables named in the notes, \${workspaceFolder} in a user file named, dev named`, () => {
    const github = server('vscode', 'github');
    expect(github.entry).toEqual({
      transport: 'http',
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: `Bearer \${GITHUB_TOKEN}`, 'X-Region': `\${REGION}` },
    });
    expect(github.notes).toEqual([
      expect.stringMatching(
        /^headers\.Authorization: "\$\{input:github-token\}" is a password .* set GITHUB_TOKEN/,
      ),
      expect.stringMatching(/^headers\.X-Region: "\$\{input:region\}" is an input .* set REGION/),
    ]);
    const fetch = server('vscode', 'fetch');
    expect(fetch.entry).toMatchObject({
      transport: 'stdio',
      command: 'uvx',
      cwd: `$\${workspaceFolder}`,
    });
    expect(fetch.notes).toEqual([
      expect.stringContaining(`"\${workspaceFolder}" has no meaning outside a workspace`),
    ]);
    const playwright = server('vscode', 'playwright');
    expect(playwright.entry).toMatchObject({
      env: { HOME_DIR: join(machine.home, 'pw'), TOKEN: `\${PW_TOKEN}` },
    });
    expect(playwright.notes).toEqual([expect.stringContaining('dev (')]);
    expect(server('vscode', 'repo-tools', 'project').entry).toMatchObject({
      args: [join(machine.project, 'scripts/mcp.js')],
    });
  });

  it('Windsurf: serverUrl, disabled, disabledTools; alwaysAllow named', () => {
    expect(server('windsurf', 'context7').entry).toEqual({
      url: 'https://mcp.context7.com/mcp',
      headers: { CONTEXT7_API_KEY: `\${CONTEXT7_API_KEY}` },
    });
    const puppeteer = server('windsurf', 'puppeteer');
    expect(puppeteer.entry).toMatchObject({
      enabled: false,
      exclude_tools: ['puppeteer_evaluate'],
    });
    expect(puppeteer.notes).toEqual([expect.stringContaining('alwaysAllow is not imported')]);
  });

  it('Gemini CLI: $VAR as ours, timeout ms as seconds, httpUrl as Streamable HTTP, tool filters; trust named', () => {
    const python = server('gemini', 'pythonTools');
    expect(python.entry).toEqual({
      command: 'python',
      args: ['-m', 'my_mcp_server'],
      cwd: './mcp-servers/python',
      env: { API_KEY: `\${MY_API_TOKEN}`, REGION: `\${GEMINI_REGION}` },
      timeout: 15,
      include_tools: ['safe_tool', 'file_reader'],
    });
    expect(python.notes).toEqual([
      expect.stringContaining('cwd "./mcp-servers/python" is relative'),
      expect.stringContaining('trust is not imported'),
    ]);
    expect(server('gemini', 'httpServer').entry).toEqual({
      transport: 'http',
      url: 'http://localhost:3000/mcp',
      headers: { 'X-Api-Key': 'geminiSecretValue123456' },
      timeout: 5,
      exclude_tools: ['dangerous_tool'],
    });
  });

  it(`Codex: env_vars, bearer_token_env_var and env_http_headers as \${VAR}; timeouts; tool lists; required named`, () => {
    expect(server('codex', 'docs').entry).toEqual({
      command: 'docs-server',
      args: ['--port', '4000'],
      env: { API_KEY: 'codexEnvSecret987654', HOME_TOKEN: `\${HOME_TOKEN}` },
      connect_timeout: 20,
      timeout: 90,
      include_tools: ['search', 'open'],
    });
    const figma = server('codex', 'figma');
    expect(figma.entry).toEqual({
      transport: 'http',
      url: 'https://mcp.figma.com/mcp',
      headers: {
        Authorization: `Bearer \${FIGMA_OAUTH_TOKEN}`,
        'X-Figma-Region': 'us-east-1',
        'X-Team': `\${FIGMA_TEAM_ID}`,
      },
      enabled: false,
      exclude_tools: ['delete_file'],
    });
    expect(figma.notes).toEqual([expect.stringContaining('required is not imported')]);
  });

  it('a file given by path is read as the client its name or content says', async () => {
    const cases: [string, ClientName][] = [
      ['home/.config/Claude/claude_desktop_config.json', 'claude-desktop'],
      ['project/.mcp.json', 'claude-code'],
      ['project/.cursor/mcp.json', 'cursor'],
      ['home/.config/Code/User/mcp.json', 'vscode'],
      ['home/.codeium/windsurf/mcp_config.json', 'windsurf'],
      ['home/.gemini/settings.json', 'gemini'],
      ['home/.codex/config.toml', 'codex'],
    ];
    for (const [path, client] of cases) {
      const read = await readFileAs(join(machine.dir, path), undefined, machine);
      expect([path, read?.client, read?.ok]).toEqual([path, client, true]);
    }
    // A project file read by path resolves ${workspaceFolder} against its own project.
    const docs = await readFileAs(join(machine.dir, 'project/.cursor/mcp.json'), undefined, {
      ...machine,
      project: undefined,
    });
    expect(docs?.ok && docs.servers[0]?.entry.env_file).toBe(join(machine.project, '.env'));
  });

  it('a file that does not parse is a problem naming its line, never its text', async () => {
    const file = join(machine.dir, 'broken.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "x": { "env": { "K": "brokenSecret999" } \n');
    const read = await readFileAs(file, 'claude-desktop', machine);
    expect(read).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/broken\.json:4:\d+: JSON syntax error: /),
    });
    expect(JSON.stringify(read)).not.toContain('brokenSecret999');
    const toml = join(machine.dir, 'config.toml');
    await writeFile(toml, '[mcp_servers.x]\ncommand = "a"\nenv = { K = "tomlSecret777" \n');
    const tomlRead = await readFileAs(toml, undefined, machine);
    expect(tomlRead).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/config\.toml:4:\d+: not valid TOML/),
    });
    expect(JSON.stringify(tomlRead)).not.toContain('tomlSecret777');
  });
});

describe('importing into mcp.json', () => {
  let dir: string;
  let file: string;
  const ORIGINAL = USER_MCP_JSON;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'epoch-import-into-'));
    file = join(dir, 'mcp.json');
    await writeFile(file, ORIGINAL);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Cursor's docs server names an env_file that is not on this machine: the write tests leave it out.
  const importable = () => found.filter((s) => s.entry.env_file === undefined);

  it('adds every new server as one insertion, in CRLF, clashes skipped; remove of each gives back the file', async () => {
    const result = await importServers(file, importable());
    const after = await readFile(file, 'utf8');
    expect(result.written).toBe(true);
    const outcome = Object.fromEntries(
      result.servers.map((s) => [`${s.client}/${s.original}`, s.outcome.kind]),
    );
    expect(outcome).toMatchObject({
      'claude-desktop/github': 'clash',
      'claude-code/github': 'clash',
      'vscode/github': 'clash',
      'vscode/fetch': 'clash',
      'claude-desktop/filesystem': 'added',
      'codex/figma': 'added',
    });
    expect(result.servers.find((s) => s.original === 'github')?.outcome).toEqual({
      kind: 'clash',
      clashWith: 'GitHub',
    });
    const added = result.servers.filter((s) => s.outcome.kind === 'added').map((s) => s.name);
    expect(
      result.servers.filter((s) => s.outcome.kind === 'refused').map((s) => s.outcome),
    ).toEqual([]);
    expect(added).toHaveLength(14);
    // One piece: the old text, cut once, with the new entries in the cut.
    let at = 0;
    while (ORIGINAL[at] === after[at]) at++;
    expect(after.slice(0, at) + after.slice(at + after.length - ORIGINAL.length)).toBe(ORIGINAL);
    expect(after.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const load = parseMcpConfig(after, file);
    // Its only word: a variable the other client read is not set in this test's environment.
    const words = load.diagnostics.filter((d) =>
      added.some((n) => d.path.startsWith(`servers.${n}`)),
    );
    expect(words.filter((d) => d.code !== 'unset_variable')).toEqual([]);
    expect(words.map((d) => d.path)).toContain('servers.sentry.headers.Authorization');
    expect(load.servers.map((s) => s.name)).toEqual(['GitHub', 'fetch', ...added]);
    for (const name of [...added].reverse()) await removeServer(file, name);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it('--rename imports a clashing server as <name>-<client>, and a clash inside the import too', async () => {
    const result = await importServers(file, importable(), { rename: true });
    const named = result.servers
      .filter((s) => s.outcome.kind === 'renamed')
      .map((s) => [s.client, s.original, s.name, s.outcome]);
    expect(named).toEqual([
      ['claude-desktop', 'github', 'github-claude', { kind: 'renamed', clashWith: 'GitHub' }],
      ['claude-code', 'github', 'github-claude-code', { kind: 'renamed', clashWith: 'GitHub' }],
      ['vscode', 'github', 'github-vscode', { kind: 'renamed', clashWith: 'GitHub' }],
      ['vscode', 'fetch', 'fetch-vscode', { kind: 'renamed', clashWith: 'fetch' }],
    ]);
    const names = parseMcpConfig(await readFile(file, 'utf8'), file).servers.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'github-claude',
        'github-claude-code',
        'github-vscode',
        'fetch-vscode',
      ]),
    );
    // Names of the host and plugins count as taken too.
    const again = await importServers(join(dir, 'other.json'), [server('codex', 'docs')], {
      taken: ['DOCS'],
    });
    expect(again.servers[0]?.outcome).toEqual({ kind: 'clash', clashWith: 'DOCS' });
    expect(again.written).toBe(false);
  });

  it('--rename numbers the servers whose names become one name, past the numbers taken', async () => {
    const docs = server('codex', 'docs');
    const many = ['docs', 'docs!', 'docs?', 'docs.'].map((original) => ({
      ...docs,
      original,
      name: 'docs',
    }));
    const result = await importServers(join(dir, 'many.json'), many, {
      rename: true,
      dryRun: true,
      taken: ['docs-codex-3'],
    });
    expect(result.servers.map((s) => s.name)).toEqual([
      'docs',
      'docs-codex',
      'docs-codex-2',
      'docs-codex-4',
    ]);
  });

  it('a dry run writes nothing, not even a missing file or its directory', async () => {
    const before = await stat(file);
    const result = await importServers(file, importable(), { dryRun: true });
    expect(result.written).toBe(false);
    expect(result.servers.filter((s) => s.outcome.kind === 'added')).toHaveLength(14);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    const missing = join(dir, 'new', 'mcp.json');
    const dry = await importServers(missing, importable(), { dryRun: true });
    expect(dry.created).toBe(true);
    await expect(stat(join(dir, 'new'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates a missing file, and an entry that would not load is refused alone', async () => {
    const missing = join(dir, 'new', 'mcp.json');
    const broken: FoundServer = {
      ...server('codex', 'docs'),
      name: 'broken',
      entry: { args: ['x'] },
    };
    const twin: FoundServer = { ...server('gemini', 'pythonTools'), name: 'broken' };
    const result = await importServers(missing, [server('codex', 'docs'), broken, twin]);
    expect(result).toMatchObject({ created: true, written: true });
    // The twin was skipped, not tried: the refusal is the broken one's alone.
    expect(result.servers.map((s) => s.outcome.kind)).toEqual(['added', 'refused', 'clash']);
    expect(
      parseMcpConfig(await readFile(missing, 'utf8'), missing).servers.map((s) => s.name),
    ).toEqual(['docs']);
  });

  it('shows each entry with its secrets as placeholders, and no note holds a secret', async () => {
    const result = await importServers(file, found, { dryRun: true });
    const shown = JSON.stringify(result);
    const visible = JSON.stringify(result.servers.map((s) => [s.shown, s.notes]));
    for (const secret of FIXTURE_SECRETS) {
      expect(shown).toContain(secret); // the entries themselves carry them, to be written
      expect(visible).not.toContain(secret);
    }
    expect(result.servers.find((s) => s.original === 'brave-search')?.shown).toContain(
      '"SAFE_SEARCH": "<secret: env.SAFE_SEARCH>"',
    );
  });
});
