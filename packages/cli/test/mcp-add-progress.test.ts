// `epoch mcp add` on a terminal: the new server's connect is drawn with the live progress line
// while it runs, in a real pseudo-terminal (util-linux `script`), through the real binary. The
// server answers only once the test has seen the line, so no timing decides the outcome.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EPOCH_BIN } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-add-progress-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

describe('epoch mcp add on a terminal', () => {
  it('draws the new server as connecting while it connects, then says it connects', async () => {
    const file = join(dir, 'mcp.json');
    const go = join(dir, 'go');
    await writeFile(file, '{ "servers": {} }\n');
    const argv = [process.execPath, EPOCH_BIN, 'mcp', 'add', 'slow', '--config', file];
    const server = [process.execPath, ...fixtureServerArgs('pid', `--start-when=${go}`)];
    const line = [...argv, ...server].map(quote).join(' ');
    const child = spawn('script', ['-qfec', line, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1', EPOCH_HOME: join(dir, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
    });
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await expect.poll(() => seen, { timeout: 20_000 }).toMatch(/slow {2}connecting… \d+\.\d s/);
      await writeFile(go, '');
      expect(await done).toBe(0);
      expect(seen).toMatch(/It connects: 1 tool/);
    } finally {
      child.kill();
    }
  }, 60_000);
});
