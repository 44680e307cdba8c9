// `--root DIR` of `epoch mcp call` and `epoch web`: the reference filesystem server, started with
// no directory of its own, works in the directories given (a relative one from the current
// directory) and nowhere else; a directory that is not there, or an empty name, is a usage error
// naming it (exit 2), its line breaks and escapes made visible.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FILESYSTEM_ENTRY } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { type EpochProcess, epochIn, startEpoch } from './epoch-process.js';
import { runCli } from './run-cli.js';

let dir: string;
let root: string;
let config: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'epoch-cli-roots-')));
  root = join(dir, 'work');
  await writeFile(join(dir, 'secret.txt'), 'outside');
  await mkdir(root);
  await writeFile(join(root, 'notes.txt'), 'inside');
  config = join(dir, 'mcp.json');
  const files = { command: process.execPath, args: [FILESYSTEM_ENTRY] };
  await writeFile(config, JSON.stringify({ servers: { files } }));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (tool: string, path: string, ...roots: string[]) =>
  runCli([
    'mcp',
    'call',
    '--config',
    config,
    ...roots.flatMap((given) => ['--root', given]),
    'files',
    tool,
    '--arg',
    `path=${path}`,
  ]);

describe('epoch mcp call --root', () => {
  it('a file in the root (given relative to the current directory) is read; one outside is refused', async () => {
    // The server asks for the roots once initialized and applies them on its own time: a call
    // right after the connect may come first, and is refused like any path outside them.
    const soon = { timeout: 120_000 };
    const inRoot = join(root, 'notes.txt');
    await expect
      .poll(async () => (await call('read_file', inRoot, relative(process.cwd(), root))).out, soon)
      .toContain('inside');
    await expect
      .poll(async () => (await call('list_directory', root, root)).out, soon)
      .toContain('notes.txt');
    const outside = await call('read_file', join(dir, 'secret.txt'), root);
    expect(outside.code).toBe(1);
    expect(outside.out).toMatch(/outside allowed directories/);
    // Each try is a whole command (a server started and reaped), and a busy machine loses the
    // server's race more often.
  }, 180_000);

  it('a root that is not there is a usage error naming it, and nothing starts', async () => {
    const missing = join(dir, 'nope');
    const run = await call('read_file', join(root, 'notes.txt'), root, missing);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--root ${missing}`);
    expect(run.err).toContain('no directory');
    const file = await call('read_file', join(root, 'notes.txt'), join(root, 'notes.txt'));
    expect(file.code).toBe(2);
    expect(file.err).toContain('is not a directory');
  });

  it('a root whose name holds a line break or an escape is named with them made visible', async () => {
    const odd = join(dir, 'a\nb\x1b[31mc');
    const run = await call('read_file', join(root, 'notes.txt'), odd);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--root ${dir}/a\\x0ab\\x1b[31mc: there is no directory`);
    expect(run.err).not.toContain('a\nb');
  });

  it("an empty root (--root '') is a usage error, never the current directory granted", async () => {
    // Run in the root itself: an empty name taken as the current directory would grant it.
    const run = await epochIn(root, [
      'mcp',
      'call',
      '--config',
      config,
      '--root',
      '',
      'files',
      'read_file',
      '--arg',
      `path=${join(root, 'notes.txt')}`,
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("--root '': an empty directory name");
    expect(run.err).toContain('--root .');
    expect(run.out).not.toContain('inside');
  });
});

describe('epoch web --root', () => {
  let run: EpochProcess | undefined;
  afterEach(async () => {
    run?.child.kill('SIGINT');
    await run?.done;
    run = undefined;
  });

  it("the page's servers work in the roots given", async () => {
    run = startEpoch(['web', '--config', config, '--root', root], {
      EPOCH_HOME: join(dir, 'home'),
    });
    const [printed] = await run.printed(/http:\/\/127\.0\.0\.1:\d+\/#token=\S+\s/);
    const url = new URL(printed.trim());
    const token = url.hash.slice('#token='.length);
    const callTool = async (tool: string, args: Record<string, string>) => {
      const response = await fetch(new URL(`/api/mcp/files/tools/${tool}/call`, url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: args }),
      });
      return JSON.stringify(await response.json());
    };
    await expect
      .poll(() => callTool('list_allowed_directories', {}), { timeout: 60_000 })
      .toContain(JSON.stringify(root).slice(1, -1));
    expect(await callTool('read_file', { path: join(root, 'notes.txt') })).toContain('inside');
    expect(await callTool('read_file', { path: join(dir, 'secret.txt') })).toContain(
      'outside allowed directories',
    );
  });

  it('a root that is not there is a usage error naming it (exit 2)', async () => {
    const missing = join(dir, 'nope');
    const web = await runCli(['web', '--config', config, '--root', missing]);
    expect(web.code).toBe(2);
    expect(web.err).toContain(`--root ${missing}`);
  });

  it("an empty root (--root '') is a usage error, and no page starts", async () => {
    const started = startEpoch(
      ['web', '--config', config, '--root', ''],
      { EPOCH_HOME: join(dir, 'home') },
      [],
      root,
    );
    // A page that started after all is stopped however the test ends.
    onTestFinished(async () => {
      started.child.kill('SIGINT');
      await started.done;
    });
    const web = await started.done;
    expect(web.code).toBe(2);
    expect(web.err).toContain("--root '': an empty directory name");
    expect(web.out).not.toContain('http://');
  });
});
