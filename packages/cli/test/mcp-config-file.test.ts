// The config file as the file system hands it over: whatever `--config` or EPOCH_HOME names (a
// FIFO, a device, a huge or deeply nested file, a write-protected file, a dangling link, a
// directory the user cannot write), the built `epoch mcp` answers at once with an error that names
// the file and what to do, exits 1, and never prints a stack trace.
import { execFileSync } from 'node:child_process';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { type EpochRun, epoch, startEpoch } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-config-file-'));
});
afterEach(async () => {
  await chmod(dir, 0o700);
  await rm(dir, { recursive: true, force: true });
});

const EMPTY = '{ "servers": {} }\n';
const ADD = ['mcp', 'add', 'files', '--', process.execPath, '-e', '1'];

function expectCleanError(run: EpochRun, ...says: string[]): void {
  expect(run.code).toBe(1);
  for (const text of says) expect(run.out + run.err).toContain(text);
  expect(run.err).not.toMatch(/\n\s+at |node:internal|Error: E[A-Z]+:/);
}

describe('what epoch mcp reads', () => {
  it('a FIFO as --config is refused at once, never waited on', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    // No writer ever opens it: before the fix, open(2) blocked for ever (SIGTERM ignored).
    const run = await unblocked(['mcp', 'list', '--config', fifo]);
    expectCleanError(run, `${fifo} is a named pipe (FIFO), not a regular file`);
  });

  it('a device as --config is refused without reading it', async () => {
    const run = await epoch(['mcp', 'list', '--config', '/dev/zero']);
    expectCleanError(run, '/dev/zero is a device, not a regular file');
  });

  it('a config file over 4 MiB is refused, naming the bound', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, `{ "servers": {} }${' '.repeat(4 * 1024 * 1024)}`);
    const run = await epoch(['mcp', 'list', '--config', file]);
    expectCleanError(run, `${file} is larger than 4 MiB`);
  });

  it('5,000 levels of nesting are a diagnostic with a line, not a stack overflow', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, `{\n  "servers": ${'['.repeat(5000)}${']'.repeat(5000)}\n}\n`);
    const list = await epoch(['mcp', 'list', '--config', file]);
    expectCleanError(list, `${file}:2:`, 'more than 64 levels deep (at line 2, column');
    for (const text of [
      `{ "servers": {}, "x": ${'['.repeat(5000)}${']'.repeat(5000)} }`,
      // Deep under "servers": said as too deep, not as "servers" of the wrong type.
      `{ "servers": ${'['.repeat(100_000)}${']'.repeat(100_000)} }`,
    ]) {
      await writeFile(file, text);
      const add = await epoch(ADD, { EPOCH_HOME: dir });
      expectCleanError(add, 'more than 64 levels deep');
      expect(add.err).not.toContain('RangeError');
      expect(add.err).not.toContain('keyed by server name');
      expect(add.err).not.toContain('  : ');
    }
    // The same in one entry given as JSON: refused before anything walks it.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const addJson = await epoch(
      ['mcp', 'add-json', 'deep', `{"command": "node", "env": {"A": ${deep}}}`, '--config', file],
      { EPOCH_HOME: dir },
    );
    expect(addJson.code).toBe(2);
    expect(addJson.err).toContain('servers.deep.env.A');
    expect(addJson.err).toContain('levels deep');
    expect(addJson.err).not.toContain('RangeError');
  });

  it('add to a FIFO mcp.json is refused and writes nothing', async () => {
    const fifo = join(dir, 'mcp.json');
    execFileSync('mkfifo', [fifo]);
    const run = await unblocked(ADD, { EPOCH_HOME: dir });
    expectCleanError(run, 'is a named pipe (FIFO), not a regular file', 'Nothing was written');
    expect((await lstat(fifo)).isFIFO()).toBe(true);
  });
});

describe('what epoch mcp add writes', () => {
  it('a write-protected mcp.json is refused, and says how to make it writable', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, EMPTY);
    await chmod(file, 0o444);
    const run = await epoch(ADD, { EPOCH_HOME: dir });
    expectCleanError(run, `${file} is write-protected (mode 0444)`, `chmod u+w ${file}`);
    expect(await readFile(file, 'utf8')).toBe(EMPTY);
    expect((await stat(file)).mode & 0o777).toBe(0o444);
  });

  it("an edit keeps the file's owner and mode (root editing nobody's file leaves it nobody's)", async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, EMPTY);
    await chmod(file, 0o640);
    // Only root can give a file away; anyone else edits a file of their own.
    const owner = process.getuid?.() === 0 ? 65534 : (await stat(file)).uid;
    if (process.getuid?.() === 0) await chown(file, owner, owner);
    const run = await epoch(ADD, { EPOCH_HOME: dir });
    expect(run.err).toBe('');
    const after = await stat(file);
    expect([after.uid, after.mode & 0o777]).toEqual([owner, 0o640]);
    expect(await readFile(file, 'utf8')).toContain('"files"');
  });

  it('a dangling mcp.json link is written through: the link stays, its target is created', async () => {
    const link = join(dir, 'mcp.json');
    const target = join(dir, 'dotfiles', 'mcp.json');
    await mkdir(join(dir, 'dotfiles'));
    await symlink(target, link);
    const run = await epoch(ADD, { EPOCH_HOME: dir });
    expect(run.err).toBe('');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toContain('"files"');
  });

  it('add in a directory the user cannot write names the lock file, no stack trace', async () => {
    const home = join(dir, 'home');
    await mkdir(home);
    const file = join(home, 'mcp.json');
    await writeFile(file, EMPTY);
    await chmod(file, 0o666);
    await chmod(dir, 0o755);
    const run = await asUnprivileged(home, ADD);
    expectCleanError(run, `cannot write ${file}.lock: permission denied`, 'Nothing was written');
    expect(await readFile(file, 'utf8')).toBe(EMPTY);
  });
});

describe('what a field of mcp.json may hold', () => {
  it('a NUL in an env value is refused where it is written, and status never prints the secret', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(
      file,
      `{\n  "servers": {\n    "files": { "command": "node", "env": { "API_TOKEN": "abc\\u0000def-token-7f3a" } }\n  }\n}\n`,
    );
    const run = await epoch(['mcp', 'status', '--config', file]);
    expectCleanError(
      run,
      `${file}:3:`,
      'the value of API_TOKEN in "env" of server "files" holds a NUL',
    );
    expect(run.out + run.err).not.toContain('def-token');
    expect(run.out + run.err).not.toContain('"command" and "args"');
  });

  it('a NUL in command, args or url, a line break in a header, and a bad port each name their field', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(
      file,
      `{ "servers": {
  "cmd": { "command": "no\\u0000de", "args": ["a\\u0000b"] },
  "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "X-Api-Key": "key-7f3a\\r\\nX-Evil: 1" } },
  "port": { "type": "http", "url": "https://mcp.example.com:99999999999/mcp" }
} }`,
    );
    const run = await epoch(['mcp', 'list', '--config', file]);
    expectCleanError(
      run,
      `${file}:2:`,
      '"command" of server "cmd" holds a NUL',
      'argument 0 of server "cmd" holds a NUL',
      `${file}:3:`,
      'the value of header "X-Api-Key" of server "remote" holds a line break',
      `${file}:4:`,
      'the port 99999999999 in "url" of server "port" is out of range',
    );
    expect(run.out + run.err).not.toContain('key-7f3a');
  });

  it('add --header with a line break in its value is refused, naming the header and not its value', async () => {
    const run = await epoch(
      [
        'mcp',
        'add',
        'remote',
        '--transport',
        'http',
        'https://mcp.example.com/mcp',
        '--header',
        'X-Api-Key: key-7f3a\r\nX-Evil: 1',
      ],
      { EPOCH_HOME: dir },
    );
    // A bad value on the command line: 2, not the 1 of a file that needs fixing.
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      'the value of header "X-Api-Key" of server "remote" holds a line break',
    );
    expect(run.out + run.err).not.toContain('key-7f3a');
    await expect(stat(join(dir, 'mcp.json'))).rejects.toThrow(/ENOENT/);
  });
});

/**
 * `epoch <argv>`, killed when the test ends: a process stuck in open(2) on a FIFO ignores SIGTERM,
 * so a regression would otherwise outlive the test that timed out on it.
 */
function unblocked(argv: readonly string[], env: Record<string, string> = {}): Promise<EpochRun> {
  const run = startEpoch(argv, env);
  onTestFinished(() => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
  });
  return run.done;
}

/**
 * `epoch <argv>` by a user who cannot write `home`. Root ignores modes, so as root it runs as
 * nobody (the directory stays root's 0755); as anyone else the directory is made 0555 for the run.
 */
async function asUnprivileged(home: string, argv: readonly string[]): Promise<EpochRun> {
  const root = process.getuid?.() === 0;
  await chmod(home, root ? 0o755 : 0o555);
  try {
    return await epoch(
      argv,
      { EPOCH_HOME: home },
      root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [],
    );
  } finally {
    // Writable again, so the test's cleanup can remove what is in it.
    await chmod(home, 0o700);
  }
}
