// A file that repeats one mistake over and over, through the built `epoch`: 200,000 arguments of
// `${A}` (A unset) are one warning naming the first and counting the rest, in `list` and in `get`'s
// variables; 100,000 duplicate `env` keys are the first ten and one "and 99,989 more like the 10
// above" — not a line per repeat.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

const ARGS = 200_000;
const KEYS = 100_000;

let dir: string;
let file: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-diagnostics-cap-'));
  env = { EPOCH_HOME: join(dir, 'home') };
  await mkdir(env.EPOCH_HOME as string);
  file = join(dir, 'mcp.json');
  const args = JSON.stringify(Array.from({ length: ARGS }, () => `\${ZQ9}`));
  const keys = Array.from({ length: KEYS }, () => '"K": "1"').join(',');
  await writeFile(
    file,
    `{"servers": {\n"s": {"command": "node", "args": ${args}},\n"d": {"command": "node", "env": {${keys}}}}}\n`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = (text: string, part: string) => text.split('\n').filter((l) => l.includes(part));

describe('a mistake repeated thousands of times', () => {
  it('list: one unset-variable warning with the count, ten duplicate keys and one count', async () => {
    const run = await epoch(['mcp', 'list', '--config', file], env);
    expect(run.code).toBe(0);
    const unset = lines(run.out, 'ZQ9}, which is not set');
    expect(unset).toHaveLength(1);
    expect(unset[0]).toContain('"args[0]" (and 199,999 more fields) of server "s" uses');
    expect(lines(run.out, 'is given twice in the same object')).toHaveLength(10);
    const more = lines(run.out, 'and 99,989 more like the 10 above ("duplicate_key")');
    expect(more).toHaveLength(1);
    expect(more[0]).toContain('servers.d of this file');
    // A header, two rows, a count and twelve problems: the TARGET cell is long, the lines few.
    expect(run.out.split('\n').length).toBeLessThan(30);
  });

  it("get: the server's variables as one line, its warning once", async () => {
    const run = await epoch(['mcp', 'get', 's', '--config', file], env);
    expect(run.code).toBe(0);
    expect(lines(run.out, `\${ZQ9} in`)).toEqual([
      `  \${ZQ9} in args[0] and 199,999 more fields: not set`,
    ]);
    expect(lines(run.out, 'which is not set')).toHaveLength(1);
  });
});
