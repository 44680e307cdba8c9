// `epoch mcp import`, a real process, against what a hostile or merely large machine holds: 2,000
// servers in one client's file go in as one edit (the import parses the file once, not twice per
// server: 1,000 took minutes), a dry run of them writes nothing; a client file nested far too deep,
// one over 4 MiB, a FIFO, a directory and one it may not read are each a problem naming that file
// while every other client's servers import, with no stack trace; and a server called `__proto__`
// is imported.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EpochProcess, type EpochRun, startEpoch } from './epoch-process.js';

const EMPTY = '{\n  "servers": {}\n}\n';

let dir: string;
let home: string;
let file: string;
const running = new Set<EpochProcess>();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-import-hostile-'));
  home = join(dir, 'home');
  await mkdir(home);
  file = join(dir, 'mcp.json');
  await writeFile(file, EMPTY);
});

afterEach(async () => {
  // A command a failed test left running (an import that never ends) ends with it.
  for (const epoch of running) epoch.child.kill('SIGKILL');
  await Promise.allSettled([...running].map((epoch) => epoch.done));
  running.clear();
  await rm(dir, { recursive: true, force: true });
});

/** `epoch mcp <args>`, a real process, on the test's file and home; the project an empty directory. */
async function epoch(...args: string[]): Promise<EpochRun> {
  const project = args[0] === 'import' ? ['--project', join(dir, 'project')] : [];
  const started = startEpoch(['mcp', ...args, '--config', file, ...project], { HOME: home });
  running.add(started);
  const run = await started.done;
  running.delete(started);
  return run;
}

/** Writes `text` at `path` under the home, making its directories. */
async function homeFile(path: string, text: string): Promise<string> {
  const at = join(home, path);
  await mkdir(join(at, '..'), { recursive: true });
  await writeFile(at, text);
  return at;
}

async function listed(): Promise<string[]> {
  const list = await epoch('list', '--json');
  expect(list.err).toBe('');
  return JSON.parse(list.out).servers.map((server: { name: string }) => server.name);
}

describe('epoch mcp import at scale and against hostile files', () => {
  it('imports 2,000 servers of one file in one edit; the dry run of them writes nothing', async () => {
    const count = 2_000;
    const servers = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `s${i}`,
        { command: 'node', args: [`server-${i}.js`], env: { TOKEN: `not-a-secret-${i}` } },
      ]),
    );
    await homeFile('.cursor/mcp.json', JSON.stringify({ mcpServers: servers }, null, 2));
    const before = await stat(file);
    const dry = await epoch('import', '--dry-run');
    expect([dry.code, dry.err]).toEqual([0, '']);
    expect(dry.out).toMatch(/Would import 2000 servers into .* Dry run: nothing was written\.\n$/);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    const run = await epoch('import');
    expect([run.code, run.err]).toEqual([0, '']);
    expect(run.out).toMatch(/Imported 2000 servers into .*mcp\.json\.\n$/);
    expect(run.out).not.toContain('not-a-secret');
    const names = await listed();
    expect(names).toHaveLength(count);
    expect(names.at(-1)).toBe(`s${count - 1}`);
  });

  it('reports each bad client file as its problem, with no stack trace, and imports every other file', async () => {
    const depth = 100_000;
    const claude = await homeFile(
      '.claude.json',
      `{"tips": ${'['.repeat(depth)}${']'.repeat(depth)}, "mcpServers": {"deep": {"command": "x"}}}`,
    );
    const cursor = await homeFile(
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: { big: { command: 'x', args: ['y'.repeat(4.5 * 1024 * 1024)] } },
      }),
    );
    const gemini = join(home, '.gemini', 'settings.json');
    await mkdir(join(home, '.gemini'));
    execFileSync('mkfifo', [gemini]);
    const windsurf = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    await mkdir(windsurf, { recursive: true });
    await homeFile(
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { desktop: { command: 'desktop-mcp' } } }),
    );
    await homeFile(
      '.config/Code/User/mcp.json',
      '// mine\n{ "servers": { "editor": { "type": "stdio", "command": "editor-mcp" } } }',
    );
    const run = await epoch('import');
    expect(run.code).toBe(1);
    expect(run.err).toBe('');
    expect(run.out).not.toMatch(/RangeError|call stack|\n\s+at /);
    expect(run.out).toContain(`${claude}:1: objects and lists nest more than 256 levels deep`);
    expect(run.out).toContain(`${cursor} is larger than 4 MiB`);
    expect(run.out).toContain(`${gemini} is a named pipe (FIFO), not a regular file`);
    expect(run.out).toContain(`${windsurf} is a directory, not a regular file`);
    expect(run.out).toMatch(/Imported 2 servers into /);
    expect(await listed()).toEqual(['desktop', 'editor']);
  });

  it('reports a client file it may not read as its problem, and reads the others', async () => {
    const cursor = await homeFile(
      '.cursor/mcp.json',
      '{"mcpServers": {"hidden": {"command": "x"}}}',
    );
    await homeFile(
      '.config/Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { desktop: { command: 'desktop-mcp' } } }),
    );
    // Root reads any file: as root the command runs as nobody, for whom the dry run needs only to
    // read the home and the mcp.json, and an EPOCH_HOME of its own.
    const root = process.getuid?.() === 0;
    await chmod(cursor, 0o000);
    if (root) {
      for (const path of [
        dir,
        home,
        join(home, '.cursor'),
        join(home, '.config'),
        join(home, '.config', 'Claude'),
      ]) {
        await chmod(path, 0o755);
      }
      await chmod(file, 0o644);
    }
    const epochHome = join(dir, 'epoch-home');
    await mkdir(epochHome, { mode: 0o777 });
    await chmod(epochHome, 0o777);
    const started = startEpoch(
      ['mcp', 'import', '--dry-run', '--config', file, '--project', join(dir, 'project')],
      { HOME: home, EPOCH_HOME: epochHome },
      root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [],
    );
    running.add(started);
    const run = await started.done;
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `${cursor} cannot be read (permission denied), so nothing of it was imported`,
    );
    expect(run.out).toContain('desktop: would be added');
    expect(run.out).toMatch(/Would import 1 server into /);
  });

  it('imports a server called __proto__ (and constructor) under its own name', async () => {
    await homeFile(
      '.codex/config.toml',
      '[mcp_servers.__proto__]\ncommand = "proto-mcp"\n\n[mcp_servers.constructor]\ncommand = "ctor-mcp"\n',
    );
    await homeFile(
      '.cursor/mcp.json',
      '{"mcpServers": {"__proto__": {"command": "cursor-proto", "env": {"__proto__": "kept"}}}}',
    );
    const run = await epoch('import', '--rename');
    expect([run.code, run.err]).toEqual([0, '']);
    expect(run.out).toContain('__proto__: added');
    expect(run.out).toContain('__proto__-codex: added under this name, since "__proto__" is taken');
    expect(await listed()).toEqual(['__proto__', '__proto__-codex', 'constructor']);
    // Not `.__proto__`, which is the prototype: the key JSON.parse made.
    const own = (value: object, key: string) => Object.getOwnPropertyDescriptor(value, key)?.value;
    const proto = own(JSON.parse(await readFile(file, 'utf8')).servers, '__proto__');
    expect(own(proto.env, '__proto__')).toBe('kept');
  });
});
