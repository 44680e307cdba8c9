import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInfraError, withFileLock } from '../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LONG = { waitMs: 5_000, staleMs: 30_000 };

describe('withFileLock', () => {
  it('two holders never overlap, and the lock is gone afterwards', async () => {
    const file = join(dir, 'guarded.json');
    const events: string[] = [];
    const hold = (who: string) =>
      withFileLock(file, LONG, async () => {
        events.push(`${who} in`);
        await new Promise((resolve) => setTimeout(resolve, 30));
        events.push(`${who} out`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    expect(events).toHaveLength(6);
    for (let i = 0; i < events.length; i += 2) {
      expect(events[i]?.split(' ')[0]).toBe(events[i + 1]?.split(' ')[0]);
    }
    await expect(stat(`${file}.lock`)).rejects.toThrow();
  });

  it("creates the guarded file's directory (0700) before taking the lock", async () => {
    const file = join(dir, 'not', 'yet', 'there.json');
    expect(await withFileLock(file, LONG, async () => 'ran')).toBe('ran');
    expect((await stat(join(dir, 'not', 'yet'))).mode & 0o777).toBe(0o700);
  });

  it('a lock left by a process that is gone is taken over at once', async () => {
    const file = join(dir, 'dead.json');
    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    await writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: 4194305, host: hostname(), time: Date.now() }),
    );
    expect(await withFileLock(file, { waitMs: 1_000, staleMs: 30_000 }, async () => 'taken')).toBe(
      'taken',
    );
  });

  it('a lock older than staleMs is taken over; a fresh live one makes the waiter give up', async () => {
    const file = join(dir, 'old.json');
    const lock = `${file}.lock`;
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere', time: 0 }));
    expect(await withFileLock(file, { waitMs: 1_000, staleMs: 1_000 }, async () => 'taken')).toBe(
      'taken',
    );
    await writeFile(
      lock,
      JSON.stringify({ pid: process.pid, host: 'elsewhere', time: Date.now() }),
    );
    const error = await withFileLock(
      file,
      { waitMs: 200, staleMs: 30_000 },
      async () => 'never',
    ).catch((e: unknown) => e);
    expect(isInfraError(error, 'lock_timeout')).toBe(true);
    expect((error as Error).message).toContain(lock);
  });
});
