// The project's servers (`.epoch/mcp.json`): found from a subdirectory, the search stopped at a
// repository root and at the user's home, listed and connected with source `project`, a name the
// user's file holds left with the user, and written by addServer with scope `project`. Real files
// in a temp project directory (EPOCH_HOME elsewhere) and real fixture-server processes.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { isMcpConfigWriteError, type McpConfigApplied, watchMcpConfig } from '@epoch-agent/runtime';
import { findProjectConfig, readMcpServers } from '@epoch-agent/runtime/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectConfigFor } from '../src/servers/project-file.js';
import {
  approveEverything,
  isAlive,
  pidOf,
  pidServer,
  rejection,
  useRuntimeHome,
} from './runtime-helpers.js';

const test = useRuntimeHome();
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-project-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Writes `<dir>/.epoch/mcp.json` with these servers (or this text); returns its path. */
async function writeProject(dir: string, servers: Record<string, unknown> | string) {
  const file = join(dir, '.epoch', 'mcp.json');
  await mkdir(dirname(file), { recursive: true });
  const text = typeof servers === 'string' ? servers : JSON.stringify({ servers }, null, 2);
  await writeFile(file, text);
  return file;
}

/** `<root>/<path>` as a repository root (`.git` in it), made; returns it. */
async function repo(path: string): Promise<string> {
  const dir = join(root, path);
  await mkdir(join(dir, '.git'), { recursive: true });
  return dir;
}

async function subdir(dir: string, path: string): Promise<string> {
  const sub = join(dir, path);
  await mkdir(sub, { recursive: true });
  return sub;
}

describe('the project file', () => {
  it('is found from a subdirectory of the project', async () => {
    const project = await repo('app');
    const file = await writeProject(project, { docs: pidServer() });
    const home = await subdir(root, 'home');
    const deep = await subdir(project, 'src/lib');
    expect(await findProjectConfig(deep, { home })).toBe(file);
    expect(await findProjectConfig(project, { home })).toBe(file);
  });

  it('the nearest one wins: a package of a monorepo with its own', async () => {
    const project = await repo('mono');
    await writeProject(project, { top: pidServer() });
    const pkg = await subdir(project, 'packages/web');
    const own = await writeProject(pkg, { web: pidServer() });
    expect(await findProjectConfig(join(pkg, 'src'), { home: '/nowhere' })).toBe(own);
  });

  it('stops at a repository root: a file above the repository is not read', async () => {
    const outer = await subdir(root, 'outer');
    await writeProject(outer, { planted: pidServer() });
    const inner = await repo('outer/clone');
    expect(await findProjectConfig(await subdir(inner, 'sub'), { home: '/nowhere' })).toBe(
      undefined,
    );
    // A worktree's or submodule's `.git` is a file: a root all the same.
    const worktree = await subdir(outer, 'worktree');
    await writeFile(join(worktree, '.git'), 'gitdir: /elsewhere\n');
    expect(await findProjectConfig(worktree, { home: '/nowhere' })).toBe(undefined);
    // Without a root below it the outer file is the project's.
    const plain = await subdir(outer, 'plain/deeper');
    expect(await findProjectConfig(plain, { home: '/nowhere' })).toBe(
      join(outer, '.epoch', 'mcp.json'),
    );
  });

  it("stops at the user's home, unread: ~/.epoch/mcp.json is epoch's own home", async () => {
    const home = await subdir(root, 'home');
    await writeProject(home, { mine: pidServer() });
    await writeProject(root, { above: pidServer() });
    expect(await findProjectConfig(await subdir(home, 'work/notes'), { home })).toBe(undefined);
    expect(await findProjectConfig(home, { home })).toBe(undefined);
  });

  it("is never the user's own file (an EPOCH_HOME inside a project)", async () => {
    const project = await repo('p');
    const file = await writeProject(project, { x: pidServer() });
    expect(await findProjectConfig(project, { home: '/nowhere', userFile: file })).toBe(undefined);
  });
});

describe('where a project-scoped write goes', () => {
  it('the file that applies, else a new one where it runs; never in the home or as your own file', async () => {
    const project = await repo('app');
    const home = await subdir(root, 'home');
    const sub = await subdir(project, 'src');
    expect(await projectConfigFor(sub, { home })).toBe(join(sub, '.epoch', 'mcp.json'));
    const file = await writeProject(project, {});
    expect(await projectConfigFor(sub, { home })).toBe(file);
    expect(await projectConfigFor(home, { home })).toBe(undefined);
    expect(await projectConfigFor(root, { home, userFile: join(root, '.epoch', 'mcp.json') })).toBe(
      undefined,
    );
  });
});

describe('project servers', () => {
  it('are listed and connected with source project, each with its file', async () => {
    const project = await repo('app');
    const file = await writeProject(project, { docs: pidServer() });
    await test.home.writeUserConfig({ mine: pidServer() });
    const projectDir = await subdir(project, 'src');

    const read = await readMcpServers({ projectDir });
    expect(read.projectFile).toBe(file);
    expect(read.servers.map(({ config, origin }) => [config.name, origin])).toEqual([
      ['mine', { source: 'user', file: mcpConfigPath() }],
      ['docs', { source: 'project', file }],
    ]);

    // A host that approves every server: this is about the listing (approvals.test.ts is about who
    // approves what).
    const runtime = await test.build({ projectDir, approve: approveEverything });
    const docs = runtime.mcp.statuses().find(({ name }) => name === 'docs');
    expect(docs).toMatchObject({ source: 'project', state: 'connected' });
    expect(isAlive(await pidOf(runtime, 'docs'))).toBe(true);
    expect(runtime.tools.get('mcp__docs__whoami')?.source).toBe('project');
    expect(runtime.projectFile).toBe(file);
  });

  it("is not read while the user's file cannot be: a project entry could take one of its names", async () => {
    const project = await repo('app');
    const file = await writeProject(project, { mine: pidServer() });
    await test.home.writeUserConfig('{ "servers": { "mine": ');
    const read = await readMcpServers({ projectDir: project });
    expect(read.servers).toEqual([]);
    expect(read.diagnostics.project).toMatchObject([
      { code: 'project_not_read', severity: 'warning', file, source: 'project' },
    ]);
    expect(read.diagnostics.user).toMatchObject([{ code: 'syntax_error' }]);
  });

  it('projectDir null reads no project file', async () => {
    const project = await repo('app');
    await writeProject(project, { docs: pidServer() });
    const read = await readMcpServers({ projectDir: null });
    expect(read.projectFile).toBe(undefined);
    expect(read.servers).toEqual([]);
  });

  it("a name the user's file has stays the user's; the project's entry is left out, saying so", async () => {
    const project = await repo('app');
    const file = await writeProject(
      project,
      `{\n  "servers": {\n    "pids": ${JSON.stringify(pidServer('--from=project'))},\n    "extra": ${JSON.stringify(pidServer())}\n  }\n}\n`,
    );
    await test.home.writeUserConfig({ pids: pidServer() });

    const runtime = await test.build({ projectDir: project });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual(
      expect.arrayContaining([
        ['pids', 'user'],
        ['extra', 'project'],
      ]),
    );
    // The user's entry runs, not the project's (which has one argument more).
    expect(runtime.mcp.configOf('pids')).toMatchObject({ args: pidServer().args });
    const [taken] = runtime.diagnostics().filter(({ code }) => code === 'server_name_taken');
    expect(taken).toMatchObject({
      source: 'project',
      severity: 'error',
      file,
      path: 'servers.pids',
      line: 3,
    });
    expect(taken?.message).toContain('a user server already has that name and keeps it');
    expect(taken?.message).toContain(file);
  });

  it("a user server added under a running project server's name replaces it at the next apply", async () => {
    const project = await repo('app');
    await writeProject(project, { pids: pidServer() });
    // Approving every server: both entries must run for the replacement to be seen.
    const runtime = await test.build({ projectDir: project, approve: approveEverything });
    const before = await pidOf(runtime, 'pids');
    expect(runtime.mcp.statuses()).toMatchObject([{ name: 'pids', source: 'project' }]);

    await test.home.writeUserConfig({ pids: pidServer() });
    const applied = await runtime.applyMcpConfig();
    expect(applied.added).toEqual(['pids']);
    expect(applied.project?.removed).toEqual(['pids']);
    expect(isAlive(before)).toBe(false);
    expect(runtime.mcp.statuses()).toMatchObject([
      { name: 'pids', source: 'user', state: 'connected' },
    ]);
    expect(await pidOf(runtime, 'pids')).not.toBe(before);
    expect(runtime.server('pids')?.origin.source).toBe('user');
  });

  it('a project file that appears while the runtime runs is read at the next apply', async () => {
    const project = await repo('app');
    const runtime = await test.build({ projectDir: project });
    expect(runtime.projectFile).toBe(undefined);
    const file = await writeProject(project, { late: pidServer() });
    const applied = await runtime.applyMcpConfig();
    expect(applied.project).toMatchObject({ file, added: ['late'] });
    expect(runtime.projectFile).toBe(file);
    expect(runtime.mcp.statuses()).toMatchObject([{ name: 'late', source: 'project' }]);
  });

  it('a save of the project file is applied by the watcher, as a save of the user file is', async () => {
    const project = await repo('app');
    const file = await writeProject(project, { first: pidServer() });
    const runtime = await test.build({ projectDir: project });
    let applied: (value: McpConfigApplied) => void = () => {};
    const seen = new Promise<McpConfigApplied>((resolve) => {
      applied = resolve;
    });
    const stop = watchMcpConfig(runtime, { onApplied: (value) => applied(value) });
    try {
      await writeFile(
        file,
        JSON.stringify({ servers: { first: pidServer(), second: pidServer() } }),
      );
      expect((await seen).project).toMatchObject({ file, added: ['second'] });
      expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
        ['first', 'project'],
        ['second', 'project'],
      ]);
    } finally {
      stop();
    }
  });

  it("its own overrides and tool budget are warnings, and ignored: only the user's file sets them", async () => {
    const project = await repo('app');
    const file = await writeProject(
      project,
      JSON.stringify({ servers: {}, overrides: { x: { enabled: false } }, tool_budget_tokens: 5 }),
    );
    const read = await readMcpServers({ projectDir: project });
    expect(read.diagnostics.project.map(({ code, path, file: at }) => [code, path, at])).toEqual([
      ['project_file_field', 'overrides', file],
      ['project_file_field', 'tool_budget_tokens', file],
    ]);
    expect(read.toolBudgetTokens).toBe(undefined);
  });
});

describe('addServer with scope project', () => {
  it('creates .epoch/mcp.json in the project directory when none applies, and connects the server there', async () => {
    const project = await repo('app');
    const runtime = await test.build({ projectDir: project });
    const added = await runtime.addServer(
      { name: 'docs', transport: 'stdio', command: process.execPath, args: pidServer().args ?? [] },
      { scope: 'project' },
    );
    const file = join(project, '.epoch', 'mcp.json');
    expect(added).toMatchObject({ file, created: true });
    expect(added.status).toMatchObject({ name: 'docs', source: 'project', state: 'connected' });
    expect(JSON.parse(await readFile(file, 'utf8')).servers.docs.command).toBe(process.execPath);
    await expect(readFile(mcpConfigPath(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(runtime.projectFile).toBe(file);
  });

  it('writes into the project file found above the directory it runs in', async () => {
    const project = await repo('app');
    const file = await writeProject(project, { first: pidServer() });
    const runtime = await test.build({ projectDir: await subdir(project, 'src/deep') });
    const added = await runtime.addServer(
      {
        name: 'second',
        transport: 'stdio',
        command: process.execPath,
        args: pidServer().args ?? [],
      },
      { scope: 'project' },
    );
    expect(added).toMatchObject({ file, created: false });
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).servers)).toEqual([
      'first',
      'second',
    ]);
  });

  it("refuses a name the user's file has, and writes nothing", async () => {
    const project = await repo('app');
    await test.home.writeUserConfig({ Mine: pidServer() });
    const runtime = await test.build({ projectDir: project });
    const error = await rejection(
      runtime.addServer(
        { name: 'mine', transport: 'stdio', command: process.execPath, args: [] },
        { scope: 'project' },
      ),
    );
    expect(isMcpConfigWriteError(error) && error.code).toBe('duplicate_server');
    expect((error as Error).message).toContain(mcpConfigPath());
    await expect(readFile(join(project, '.epoch', 'mcp.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it("refuses to write in the user's home, which is no project", async () => {
    const runtime = await test.build({ projectDir: homedir() });
    const error = await rejection(
      runtime.addServer(
        { name: 'x', transport: 'stdio', command: process.execPath, args: [] },
        { scope: 'project' },
      ),
    );
    expect(isMcpConfigWriteError(error) && error.code).toBe('unusable_file');
    expect((error as Error).message).toContain('is not in a project (it is your home');
  });

  it('turning a project server off writes your overrides, never the shared project file', async () => {
    const project = await repo('app');
    const text = `{ "servers": { "docs": ${JSON.stringify(pidServer())} } }\n`;
    const file = await writeProject(project, text);
    // Approving every server: a running project server is what is turned off here.
    const runtime = await test.build({ projectDir: project, approve: approveEverything });
    const pid = await pidOf(runtime, 'docs');
    const set = await runtime.setServerChoice('docs', { kind: 'server', enabled: false });
    expect(set.file).toBe(mcpConfigPath());
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(JSON.parse(await readFile(mcpConfigPath(), 'utf8')).overrides.docs.enabled).toBe(false);
    expect(set.status).toMatchObject({ name: 'docs', source: 'project', state: 'disabled' });
    expect(isAlive(pid)).toBe(false);
  });

  it('removeServer takes a project server out of the project file', async () => {
    const project = await repo('app');
    const file = await writeProject(project, { docs: pidServer(), keep: pidServer() });
    const runtime = await test.build({ projectDir: project });
    const removed = await runtime.removeServer('docs');
    expect(removed.file).toBe(file);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).servers)).toEqual(['keep']);
    expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['keep']);
  });
});
