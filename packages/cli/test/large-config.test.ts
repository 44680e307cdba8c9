// Files at the sizes an attack or a generator makes, through the real `epoch` command: an mcp.json
// of 100,000 keys read by `list` and `get` (and a SIGTERM during its read ending the command at
// once), one of 180,000 servers listed, one of 100,000 warned-about servers shown one by `get`, and a server whose env_file gives 80,000 values started by `status` and called by `call`
// with every one of them a secret to blank.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch, startEpoch } from './epoch-process.js';

const KEYS = 100_000;
const TELL_HANDLER = join(import.meta.dirname, 'fixtures', 'tell-sigterm-handler.cjs');
const HANDLED = '<sigterm handled>';
const VALUES = 80_000;

let dir: string;
let env: Record<string, string>;
let bigFile: string;
let manyValues: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-large-'));
  env = { EPOCH_HOME: join(dir, 'home') };
  // One server whose env has 100,000 keys: 1.3 MB, well under the 4 MiB a config may be.
  const keys = Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`K${i}`, 'v']));
  bigFile = join(dir, 'big.json');
  await writeFile(bigFile, JSON.stringify({ servers: { big: { command: 'node', env: keys } } }));
  // 80,000 values with a space in each, under the 1 MiB an env_file may be.
  const lines = Array.from({ length: VALUES }, (_, i) => `K${base62(i)}=a b${base62(i)}\n`);
  await writeFile(join(dir, 'many.env'), lines.join(''));
  manyValues = join(dir, 'many.json');
  await writeFile(
    manyValues,
    JSON.stringify({ servers: { many: { ...fixtureServerEntry('cli'), env_file: 'many.env' } } }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('an mcp.json of 100,000 keys', () => {
  it('is listed and shown', async () => {
    const list = await epoch(['mcp', 'list', '--config', bigFile], env);
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^big +user +stdio/m);
    const get = await epoch(['mcp', 'get', 'big', '--config', bigFile, '--json'], env);
    expect(get.code).toBe(0);
    const fields = (JSON.parse(get.out) as { fields: { field: string; value: unknown }[] }).fields;
    const shown = fields.find(({ field }) => field === 'env')?.value as Record<string, string>;
    expect(Object.keys(shown)).toHaveLength(KEYS);
  }, 120_000);

  it('of 180,000 servers (4 MiB, the most a config may be) is listed, one row each', async () => {
    const names = Array.from({ length: 180_000 }, (_, i) => i.toString(36).padStart(4, '0'));
    const file = join(dir, 'servers.json');
    await writeFile(
      file,
      JSON.stringify({ servers: Object.fromEntries(names.map((n) => [n, { command: 'x' }])) }),
    );
    const list = await epoch(['mcp', 'list', '--config', file], env);
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    expect(list.out.match(/^\w{4} +user +stdio /gm)).toHaveLength(names.length);
  }, 120_000);

  it('of 100,000 servers, each with a warning: get shows one server with its own warning only', async () => {
    const entries = Array.from({ length: KEYS }, (_, i) => [`s${i}`, { command: 'x', comand: 1 }]);
    const file = join(dir, 'warned.json');
    await writeFile(file, JSON.stringify({ servers: Object.fromEntries(entries) }));
    const get = await epoch(['mcp', 'get', 's77', '--config', file, '--json'], env);
    expect(get.code).toBe(0);
    const { diagnostics } = JSON.parse(get.out) as { diagnostics: { path: string }[] };
    expect(diagnostics.map(({ path }) => path)).toEqual(['servers.s77.comand']);
  }, 120_000);

  it('SIGTERM while it is read: exit 130 and nothing listed', async () => {
    const run = startEpoch(['mcp', 'list', '--config', bigFile], {
      ...env,
      NODE_OPTIONS: `--require ${TELL_HANDLER}`,
    });
    // Sent once epoch has its handler, so it is epoch that answers it, not Node's default
    // action; the read of the file comes right after.
    await expect.poll(() => run.err(), { timeout: 60_000, interval: 5 }).toContain(HANDLED);
    run.child.kill('SIGTERM');
    const { code, out, err } = await run.done;
    expect(code).toBe(130);
    expect(out).toBe('');
    expect(err).toBe(`${HANDLED}\n`);
  }, 120_000);
});

describe('an env_file of 80,000 values', () => {
  it('status connects the server and call calls it, with no value in what is printed', async () => {
    const status = await epoch(['mcp', 'status', '--config', manyValues], env);
    expect(status.err).not.toMatch(/RangeError|call stack/);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^many +user +stdio +connected/m);
    const call = await epoch(
      ['mcp', 'call', 'many', 'echo', '--arg', 'text=hello', '--config', manyValues],
      env,
    );
    expect(call.err).toBe('');
    expect(call.code).toBe(0);
    expect(call.out).toBe('hello\n');
    for (const text of [status.out, status.err, call.out]) {
      expect(text).not.toMatch(/a(?: |%20)b[A-Za-z0-9]{3}/);
    }
  }, 120_000);
});

/** Three letters or digits for `i` under 238,328: short distinct keys and values. */
function base62(i: number): string {
  const digits = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [i % 62, Math.floor(i / 62) % 62, Math.floor(i / 3844) % 62]
    .map((d) => digits[d])
    .join('');
}
