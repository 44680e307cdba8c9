// The suite's safety net (test-setup/epoch-home.ts, a vitest setupFile): every test file starts with
// EPOCH_HOME at an empty temp dir of its own, so whatever falls back to epochHome() stays off the
// real ~/.epoch. (That nothing reaches the real home over a whole run is checked by running the
// suite with HOME at an empty dir.)
import { readdir, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { epochHome, mcpConfigPath } from '../src/index.js';

describe('the test EPOCH_HOME', () => {
  it('is an empty temp dir, not ~/.epoch, and everything resolves inside it', async () => {
    const home = process.env.EPOCH_HOME;
    expect(home).toBeDefined();
    expect(home?.startsWith(`${tmpdir()}${sep}epoch-test-home-`)).toBe(true);
    expect(epochHome()).toBe(home);
    expect(epochHome()).not.toBe(join(homedir(), '.epoch'));
    expect(mcpConfigPath()).toBe(join(home ?? '', 'mcp.json'));
    expect((await stat(home ?? '')).isDirectory()).toBe(true);
    expect(await readdir(home ?? '')).toEqual([]);
  });
});
