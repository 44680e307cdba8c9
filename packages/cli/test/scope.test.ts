// `--scope`, through the real binary run in a project's directory: `add --scope project` writes the
// project's .epoch/mcp.json (the one found from a subdirectory, or a new one), `list` shows its
// servers with source project, a name the user's own file has is refused there, and a scope epoch
// does not have (or --scope on a command that writes nothing) is exit 2 with what to do instead.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-cli-scope-'));
  // EPOCH_HOME and HOME apart from the project, which is a repository of its own.
  env = { EPOCH_HOME: join(root, 'epoch-home'), HOME: join(root, 'home') };
  await mkdir(env.EPOCH_HOME as string, { recursive: true });
  await mkdir(env.HOME as string, { recursive: true });
  project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const server = () => [process.execPath, ...fixtureServerArgs('pid')];

describe('--scope project', () => {
  it('add writes the project file found above the directory it runs in, and list shows its servers as project', async () => {
    const file = join(project, '.epoch', 'mcp.json');
    await mkdir(join(project, '.epoch'));
    await writeFile(file, '{\n  // the team\'s servers\n  "servers": {}\n}\n');
    const sub = join(project, 'src', 'lib');
    await mkdir(sub, { recursive: true });

    const add = await epochIn(sub, ['mcp', 'add', '--scope', 'project', 'pids', ...server()], env);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toContain(`Added pids (stdio) to ${file}.`);
    expect(add.out).toContain('It connects:');
    const written = await readFile(file, 'utf8');
    expect(written).toContain("// the team's servers");
    expect(written).toContain('"pids"');
    expect(existsSync(join(env.EPOCH_HOME as string, 'mcp.json'))).toBe(false);

    const list = await epochIn(sub, ['mcp', 'list'], env);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain(`the project's: ${file}`);
    expect(list.out).toMatch(/^pids\s+project\s+stdio\s/m);
    const json = await epochIn(sub, ['mcp', 'list', '--json'], env);
    expect(JSON.parse(json.out)).toMatchObject({
      projectFile: file,
      servers: [{ name: 'pids', origin: { source: 'project', file } }],
    });
    const get = await epochIn(sub, ['mcp', 'get', 'pids'], env);
    expect(get.out).toContain(`pids (project server, stdio) — ${file}:`);
    const status = await epochIn(sub, ['mcp', 'status'], env);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/^pids\s+project\s+stdio\s+connected/m);
    const statusJson = await epochIn(sub, ['mcp', 'status', '--json'], env);
    expect(JSON.parse(statusJson.out)).toMatchObject({
      projectFile: file,
      servers: [{ name: 'pids', source: 'project', state: 'connected' }],
    });
  });

  it('add-json creates .epoch/mcp.json in the directory it runs in when no project file applies', async () => {
    const entry = JSON.stringify({ command: process.execPath, args: fixtureServerArgs('pid') });
    const add = await epochIn(project, ['mcp', 'add-json', 'pids', entry, '-s', 'project'], env);
    expect(add.code, add.err).toBe(0);
    const file = join(project, '.epoch', 'mcp.json');
    expect(add.out).toContain(`to ${file} (a new file).`);
    expect(JSON.parse(await readFile(file, 'utf8')).servers.pids.command).toBe(process.execPath);
  });

  it("a name of the user's own file is refused there, and nothing is written", async () => {
    const user = await epochIn(project, ['mcp', 'add', 'pids', ...server()], env);
    expect(user.code, user.err).toBe(0);
    const add = await epochIn(project, ['mcp', 'add', '-s', 'project', 'PIDS', ...server()], env);
    expect(add.code).toBe(2);
    expect(add.err).toContain('same name but for case');
    expect(existsSync(join(project, '.epoch'))).toBe(false);
  });
});

describe('--scope', () => {
  it('a scope epoch does not have, or on a command that writes no server, is exit 2 saying what to do', async () => {
    const local = await epochIn(project, ['mcp', 'add', '--scope=local', 'p', ...server()], env);
    expect(local.code).toBe(2);
    expect(local.err).toContain('epoch has no "local" scope');
    const bogus = await epochIn(project, ['mcp', 'add', '-s', 'team', 'p', ...server()], env);
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain('--scope takes user or project (got "team")');
    const list = await epochIn(project, ['mcp', 'list', '-s', 'user'], env);
    expect(list.code).toBe(2);
    expect(list.err).toContain('--scope is for the commands that write a new server');
    expect(list.err).toContain('EPOCH_PROFILE=<name>');
    expect(existsSync(join(env.EPOCH_HOME as string, 'mcp.json'))).toBe(false);
    expect(existsSync(join(project, '.epoch'))).toBe(false);
  });
});
