// Two real processes adding servers to one mcp.json at the same time, 50 each, through the built
// runtime (dist), while this test reads the file in a loop: no insert is lost, and every snapshot a
// reader can see parses and holds every server of the snapshot before it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { afterEach, describe, expect, it } from 'vitest';

const WRITER = fileURLToPath(new URL('./fixtures/add-servers.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/config-edit/index.js', import.meta.url));
const ROUNDS = 50;

const children: ChildProcess[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function startWriter(file: string, prefix: string, other: string) {
  const child = spawn(process.execPath, [WRITER, file, prefix, String(ROUNDS), other], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = (async () => {
    while (!stdout.includes('ready\n')) {
      if (child.exitCode !== null) throw new Error(`writer ${prefix} exited early: ${stderr}`);
      await once(child.stdout as NodeJS.ReadableStream, 'data');
    }
  })();
  const exited = once(child, 'exit').then(([code]) => ({ code, stderr, stdout }));
  return { child, ready, exited };
}

describe('two processes adding servers at once', () => {
  it('lose no insert, and every snapshot a reader sees parses and only grows', async () => {
    expect(existsSync(DIST), 'build the runtime first: npx tsc -b').toBe(true);
    dir = await mkdtemp(join(tmpdir(), 'epoch-config-race-'));
    const file = join(dir, 'mcp.json');
    await writeFile(file, '{\n  // both writers append here\n  "servers": {}\n}\n');

    const a = startWriter(file, 'a', 'b');
    const b = startWriter(file, 'b', 'a');
    await Promise.all([a.ready, b.ready]);
    let running = true;
    const finished = Promise.all([a.exited, b.exited]).finally(() => {
      running = false;
    });
    a.child.stdin?.write('go\n');
    b.child.stdin?.write('go\n');

    let snapshots = 0;
    let previous: string[] = [];
    while (running) {
      const text = await readFile(file, 'utf8');
      const load = parseMcpConfig(text, file);
      expect(load.diagnostics).toEqual([]);
      const names = load.servers.map((server) => server.name);
      expect(names.slice(0, previous.length)).toEqual(previous);
      previous = names;
      snapshots++;
    }
    const results = await finished;
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

    const names = parseMcpConfig(await readFile(file, 'utf8'), file).servers.map((s) => s.name);
    const expected = ['a', 'b'].flatMap((p) =>
      Array.from({ length: ROUNDS }, (_, i) => `${p}${i}`),
    );
    expect([...names].sort()).toEqual([...expected].sort());
    // They wrote at the same time (each waited after its first add for the other's): each one's
    // first server is in the file before the other's last.
    const at = (name: string) => names.indexOf(name);
    expect(at('a0')).toBeLessThan(at(`b${ROUNDS - 1}`));
    expect(at('b0')).toBeLessThan(at(`a${ROUNDS - 1}`));
    expect(snapshots).toBeGreaterThan(1);
    // No lock or temp file left behind.
    expect(await readdir(dir)).toEqual(['mcp.json']);
  }, 120_000);
});
