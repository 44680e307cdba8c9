// `epoch mcp add` checks the new server by connecting it, through the real `epoch` binary: a tool
// list cached from an earlier connection of the same command never stands in for it, and the exit
// code says whether it connected (the entry stays written either way).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-add-check-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('epoch mcp add connects the new server for real', () => {
  it('a tool list cached for the same command does not make a server that now exits "added and fine"', async () => {
    const file = join(dir, 'mcp.json');
    const home = join(dir, 'home');
    const broken = join(dir, 'broken');
    await writeFile(file, '{ "servers": {} }\n');
    const env = { EPOCH_HOME: home };
    const server = fixtureServerArgs('pid', `--exit-at-start-if=${broken}`);
    const add = () =>
      epoch(['mcp', 'add', 'pids', '--config', file, '--', process.execPath, ...server], env);

    const first = await add();
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/It connects: 1 tool/);
    // `tools` keeps the schema cache: this puts the server's tool list in it.
    const tools = await epoch(['mcp', 'tools', 'pids', '--config', file], env);
    expect(tools.code, tools.err).toBe(0);
    expect(await readdir(join(home, 'cache', 'mcp-schemas'))).not.toEqual([]);
    expect((await epoch(['mcp', 'remove', 'pids', '--config', file], env)).code).toBe(0);

    // The same command now exits at once.
    await writeFile(broken, '');
    const second = await add();
    expect(second.out).toContain('Added pids (stdio)');
    expect(second.out).toContain('It does not connect yet');
    expect(second.out).not.toContain('Its state');
    expect(second.code).toBe(4);
    // The entry stays: the user fixes it there, or removes it.
    expect(await readFile(file, 'utf8')).toContain('"pids"');

    const json = await epoch(
      ['mcp', 'add', 'pids2', '--json', '--config', file, '--', process.execPath, ...server],
      env,
    );
    expect(json.code).toBe(4);
    expect(JSON.parse(json.out).status.state).toBe('failed');
  });
});
