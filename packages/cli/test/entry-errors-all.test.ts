// An entry with two errors of different kinds, through the built `epoch mcp list`: a NUL in one
// argument and a nested default in another are both reported — the NUL no longer hides the rest,
// so a person fixes the entry in one go instead of one error per run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-entry-errors-'));
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({ servers: { s: { command: 'node', args: [`\${A:-\${B}}`, '\u0000'] } } }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("an entry's errors", () => {
  it('a NUL and a nested default: both reported', async () => {
    const run = await epoch(['mcp', 'list', '--config', file], { EPOCH_HOME: join(dir, 'home') });
    expect(run.code).toBe(1);
    expect(run.out).toContain('2 problems:');
    expect(run.out).toContain(`servers.s.args[0]: "args[0]" of server "s" has "\${A:-\${B}}"`);
    expect(run.out).toContain('servers.s.args[1]: argument 1 of server "s" holds a NUL character');
  });
});
