// How `epoch mcp add` reads a command line, through the real binary: the server's command word and
// everything after it are the server's (`-y` included), with or without `--`, as claude and gemini
// take it; `-e` takes one value, and a second one is an error that says so, never a command.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs, freeLoopbackPort } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

const EMPTY = '{ "servers": {} }\n';
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-add-argv-'));
  file = join(dir, 'mcp.json');
  await writeFile(file, EMPTY);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const add = (...argv: string[]) =>
  epoch(['mcp', 'add', '--config', file, ...argv], { EPOCH_HOME: join(dir, 'home') });
const written = async (name: string) => JSON.parse(await readFile(file, 'utf8')).servers[name];

describe('epoch mcp add <name> <command> [args...]', () => {
  it('without "--": from the command word on, every word is the server\'s, -y and --tool= included', async () => {
    const server = fixtureServerArgs('pid', '-y', '--tool=ping');
    const run = await add('-e', 'LEVEL=debug', 'pids', process.execPath, ...server);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/It connects: 2 tool/);
    expect(await written('pids')).toMatchObject({
      command: process.execPath,
      args: server,
      env: { LEVEL: 'debug' },
    });
  });

  it('with "--" as before, and a remote server by its URL after --transport', async () => {
    const run = await add('pids', '--', process.execPath, ...fixtureServerArgs('pid'));
    expect(run.code, run.err).toBe(0);
    expect((await written('pids')).command).toBe(process.execPath);
    const url = await add('far', 'https://mcp.example.com/mcp');
    expect(url.code).toBe(2);
    expect(url.err).toContain('--transport http');
    // A URL is no command: epoch's options may follow it (nothing listens there: exit 4).
    const far = `http://127.0.0.1:${await freeLoopbackPort()}/mcp`;
    const remote = await add('far', '--transport', 'http', far, '--header', 'X-Team: a');
    expect(remote.out).toContain('Added far (http)');
    expect(await written('far')).toMatchObject({ url: far, headers: { 'X-Team': 'a' } });
  });

  it('-e A=1 B=2 is "one value per -e", exit 2, with or without "--", and nothing is written', async () => {
    for (const dashDash of [['--'], []]) {
      const run = await add('x', '-e', 'A=1', 'B=2', ...dashDash, process.execPath, 'server.js');
      expect(run.code).toBe(2);
      expect(run.err).toContain('one value per -e');
      expect(await readFile(file, 'utf8')).toBe(EMPTY);
    }
  });

  it('-e FOO says it has no "=", without repeating it', async () => {
    const run = await add('x', '-e', 'SECRETISH', process.execPath, 'server.js');
    expect(run.code).toBe(2);
    expect(run.err).toContain('-e takes KEY=VALUE: one of them has no "="');
    expect(run.err).not.toContain('SECRETISH');
    expect(await readFile(file, 'utf8')).toBe(EMPTY);
  });
});
