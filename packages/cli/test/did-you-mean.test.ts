// Names typed wrong, through the real binary: a command, a server and a tool each get the nearest
// known name in one short line (exit 2), never the whole help; --json gets the error as JSON; and
// `--version` / `-V` print the version.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
let file: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-did-you-mean-'));
  file = join(dir, 'mcp.json');
  env = { EPOCH_HOME: join(dir, 'home') };
  const servers = { everything: fixtureServerEntry('pid', '--tool=get-sum'), a: { command: 'x' } };
  await writeFile(file, JSON.stringify({ servers }, null, 2));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('did you mean', () => {
  it('a command: one line with the nearest, and where the commands are', async () => {
    const run = await epoch(['mcp', 'lsit']);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      'epoch: unknown command "mcp lsit". Did you mean "epoch mcp list"? Run "epoch mcp --help" for the commands.\n',
    );
    const forgotMcp = await epoch(['staus']);
    expect(forgotMcp.err).toContain('Did you mean "epoch mcp status"?');
    const json = await epoch(['mcp', 'lsit', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.err)).toEqual({
      error: {
        code: 'unknown_command',
        exit: 2,
        message:
          'unknown command "mcp lsit". Did you mean "epoch mcp list"? Run "epoch mcp --help" for the commands.',
      },
    });
  });

  it('a server, for get and remove (case counts: "A" is not "a")', async () => {
    const get = await epoch(['mcp', 'get', 'everythin', '--config', file], env);
    expect(get.code).toBe(2);
    expect(get.err).toContain('Did you mean "everything"?');
    const before = await readFile(file, 'utf8');
    const remove = await epoch(['mcp', 'remove', 'A', '--config', file], env);
    expect(remove.code).toBe(2);
    expect(remove.err).toContain('Did you mean "a"?');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('a tool of a server, for call', async () => {
    const call = await epoch(['mcp', 'call', 'everything', 'get-sun', '--config', file], env);
    expect(call.code).toBe(2);
    expect(call.err).toContain('has no tool "get-sun"');
    expect(call.err).toContain('Did you mean "get-sum"?');
  });
});

describe('--version', () => {
  it('--version and -V print the package version', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await epoch([flag]);
      expect({ code: run.code, out: run.out, err: run.err }).toEqual({
        code: 0,
        out: `${version}\n`,
        err: '',
      });
    }
  });
});
