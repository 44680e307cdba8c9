// `epoch mcp call` prints a tool's result whole, in a real process: a person asked for it, so the
// model's max_output_tokens cut does not apply, and nothing is saved under EPOCH_HOME/tool-results;
// both copies of a result that has two, and the blocks meant for the user only.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

const BIG_SERVER = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/big-result-server.mjs', import.meta.url),
);

const SHAPES_SERVER = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/result-shapes-server.mjs', import.meta.url),
);

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-call-whole-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a 2 MB result is printed whole, far past the 1,000 tokens its server may give the model', async () => {
  const file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      servers: { big: { command: process.execPath, args: [BIG_SERVER], max_output_tokens: 1000 } },
    }),
  );
  const home = join(dir, 'home');
  const run = await epoch(
    ['mcp', 'call', '--config', file, 'big', 'text', '--arg', 'chars=2000000'],
    {
      EPOCH_HOME: home,
    },
  );
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  expect(run.out).toHaveLength(2_000_000 + 1);
  expect(run.out.startsWith('line 1 of the result\n')).toBe(true);
  expect(run.out).not.toContain('Cut to fit');
  await expect(readdir(join(home, 'tool-results'))).rejects.toMatchObject({ code: 'ENOENT' });
});

it('a person gets both copies of a result, and the blocks meant for them only, marked "for you"', async () => {
  const file = join(dir, 'shapes.json');
  await writeFile(
    file,
    JSON.stringify({ servers: { shapes: { command: process.execPath, args: [SHAPES_SERVER] } } }),
  );
  const env = { EPOCH_HOME: join(dir, 'home-shapes') };
  const audience = await epoch(['mcp', 'call', '--config', file, 'shapes', 'audience'], env);
  expect(audience.err).toBe('');
  expect(audience.out).toBe('for both\nfor the model\nfor you: shown to the user only\n');
  const summary = await epoch(['mcp', 'call', '--config', file, 'shapes', 'summary'], env);
  expect(summary.out).toContain('Found 2 rows.\nstructured content:\n');
  expect(summary.out).toContain('"alpha"');
});
