// `npm start`'s script (examples/start.mjs) as a newcomer runs it, in a child process with a home of
// its own: without EPOCH_HOME it says at once which home it uses, writes nothing into ~/.epoch, and
// leaves no trace of its own home once it ends; with EPOCH_HOME it says so and writes there.
import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const START = fileURLToPath(new URL('../../../examples/start.mjs', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-example-start-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The example run to its end with `env` in place of this process's EPOCH_HOME and HOME. */
async function runExample(env: Record<string, string>): Promise<string> {
  const { EPOCH_HOME: _inherited, ...rest } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, [START], {
    env: { ...rest, NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return stdout;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('npm start', () => {
  it('without EPOCH_HOME: says it uses a home of its own, and leaves ~/.epoch and that home untouched', async () => {
    const home = join(dir, 'person');
    const stdout = await runExample({ HOME: home });
    expect(await exists(join(home, '.epoch'))).toBe(false);
    const first = stdout.split('\n')[0] ?? '';
    const used = /^EPOCH_HOME is (\S+): the example's own/.exec(first)?.[1];
    expect(used, first).toBeDefined();
    expect(stdout).toContain('your ~/.epoch is not touched');
    expect(stdout).toContain('All 4 MCP servers connected.');
    expect(await exists(used ?? '')).toBe(false);
  }, 150_000);

  it('with EPOCH_HOME: says so, and its files are there', async () => {
    const home = join(dir, 'chosen');
    const stdout = await runExample({ HOME: join(dir, 'person'), EPOCH_HOME: home });
    expect(stdout.split('\n')[0]).toBe(
      `EPOCH_HOME is ${home}, as your environment sets it: the example writes its approvals, cache and records there.`,
    );
    expect(stdout).toContain('All 4 MCP servers connected.');
    expect((await readdir(home)).length).toBeGreaterThan(0);
    expect(await exists(join(dir, 'person', '.epoch'))).toBe(false);
  }, 150_000);
});
