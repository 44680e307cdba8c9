// A lock held across processes: a file created exclusively beside the thing it guards. Used so
// that two processes never refresh one server's tokens at the same time (a refresh token that is
// rotated may be used once; a second use can make the authorization server revoke the whole
// grant).
//
// A lock whose holder died is taken over: it is stale when its process is gone (same host) or it is
// older than `staleMs` (a holder that hangs, or one on another host sharing the directory).
import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';

export interface FileLockOptions {
  /** A lock this old is taken over whoever holds it. Default 30 s: far beyond one refresh. */
  readonly staleMs?: number;
  /** Give up waiting after this long. Default 30 s. */
  readonly waitMs?: number;
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly at: number;
  readonly nonce: string;
}

const POLL_MS = 25;

/** Runs `fn` while holding the lock file `path`; waits for another holder to finish first. */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const owner = await acquire(path, options.staleMs ?? 30_000, options.waitMs ?? 30_000);
  try {
    return await fn();
  } finally {
    await release(path, owner);
  }
}

async function acquire(path: string, staleMs: number, waitMs: number): Promise<LockOwner> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      at: Date.now(),
      nonce: randomBytes(8).toString('hex'),
    };
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(owner));
      } finally {
        await handle.close();
      }
      return owner;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readOwner(path);
    if (holder === 'gone') continue;
    if (isStale(holder, staleMs)) {
      // Re-read right before removing, so a lock taken over by someone else a moment ago stays.
      const again = await readOwner(path);
      if (sameOwner(again, holder)) await rm(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `another process (pid ${holder.pid}) has held the lock ${path} for ${Math.round((Date.now() - holder.at) / 1000)} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.random() * POLL_MS));
  }
}

async function release(path: string, owner: LockOwner): Promise<void> {
  // Only our own lock: after a takeover the file may belong to someone else by now.
  const holder = await readOwner(path);
  if (holder !== 'gone' && holder.nonce === owner.nonce) await rm(path, { force: true });
}

async function readOwner(path: string): Promise<LockOwner | 'gone'> {
  let text: string;
  let mtime: number;
  try {
    [text, mtime] = await Promise.all([readFile(path, 'utf8'), stat(path).then((s) => s.mtimeMs)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.at === 'number' && value.nonce) {
      return value as LockOwner;
    }
  } catch {
    // Not written yet (its holder is between create and write), or garbage: judged by its age.
  }
  return { pid: 0, host: '', at: mtime, nonce: `mtime:${mtime}` };
}

function isStale(holder: LockOwner, staleMs: number): boolean {
  if (Date.now() - holder.at > staleMs) return true;
  return holder.host === hostname() && holder.pid !== 0 && !isAlive(holder.pid);
}

function sameOwner(a: LockOwner | 'gone', b: LockOwner): boolean {
  return a !== 'gone' && a.nonce === b.nonce;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it just is not ours.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
