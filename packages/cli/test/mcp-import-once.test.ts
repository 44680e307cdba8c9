// One server is imported once, by the built `epoch` in a real home: run in the home directory,
// Cursor's user file and its project file are one file (read once, not `a` and `a-cursor`), and
// two clients holding the same server under two names give one entry, the other named as skipped
// and why.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';

let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-cli-import-once-'));
  env = { HOME: home, EPOCH_HOME: join(home, 'epoch-home') };
  await mkdir(join(home, '.cursor'));
  await writeFile(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { a: { command: 'node', args: ['x'] } } }),
  );
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function importedNames(): Promise<string[]> {
  const text = await readFile(join(home, 'epoch-home', 'mcp.json'), 'utf8');
  return Object.keys(JSON.parse(text).servers);
}

describe('import: each server once', () => {
  it("in the home directory, the client's user and project file are one file, read once", async () => {
    const run = await epochIn(home, ['mcp', 'import', '--from', 'cursor', '--rename'], env);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(await importedNames()).toEqual(['a']);
    expect(run.out.match(/^Cursor/gm)).toHaveLength(1);
    expect(run.out).toContain('Imported 1 server into');
  });

  it('two clients with one server under two names: the first imported, the other named as skipped', async () => {
    await writeFile(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: { b: { command: 'node', args: ['x'] } } }),
    );
    const run = await epochIn(home, ['mcp', 'import', '--rename'], env);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const names = await importedNames();
    expect(names).toHaveLength(1);
    expect(run.out).toMatch(
      /^ {2}[ab]: not imported: it runs exactly what (Cursor|Claude Code)'s "[ab]" in \S+ runs, which this import takes instead$/m,
    );
    expect(run.out).toContain('Imported 1 server into');
    expect(run.out).toContain(
      '1 not imported twice: another server of this import runs exactly the same (see above).',
    );

    // Asked again, the one imported is epoch's own: neither comes in a second time.
    const again = await epochIn(home, ['mcp', 'import', '--rename'], env);
    expect(again.code).toBe(0);
    expect(await importedNames()).toEqual(names);
  });
});
