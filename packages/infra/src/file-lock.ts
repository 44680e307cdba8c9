// `<file>.lock`: one holder of a file at a time, across processes. Two writers of mcp.json must both
// end up in the file (without a lock each reads the same old text and the second rename throws the
// first one's edit away); two refreshers of one OAuth login must not both spend its refresh token.
//
// The lock file is created with O_EXCL and holds {pid, host, time}. A lock whose holder is gone (its
// pid is dead on this host) or that is older than `staleMs` is taken over: a crashed writer must not
// block the file forever. The wait is bounded, with backoff; the lock is released in `finally`.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from './errors.js';

export interface FileLockOptions {
  /** How long to wait for the holder before giving up with InfraError `lock_timeout`. */
  readonly waitMs: number;
  /** A lock older than this is taken over even when its holder still runs: it is stuck. */
  readonly staleMs: number;
}

interface Holder {
  /** The lock file's text, to tell this lock from one taken after it. */
  readonly raw: string;
  readonly pid: number | undefined;
  readonly host: string | undefined;
  /** When it was taken (ms since the epoch). */
  readonly time: number;
}

/** Runs `run` holding `<file>.lock`; creates the file's directory (0700) if it is missing. */
export async function withFileLock<T>(
  file: string,
  options: FileLockOptions,
  run: () => Promise<T>,
): Promise<T> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  const mine = await acquire(lock, file, options);
  try {
    return await run();
  } finally {
    await release(lock, mine);
  }
}

async function acquire(lock: string, file: string, options: FileLockOptions): Promise<string> {
  const deadline = Date.now() + options.waitMs;
  let delay = 5;
  for (;;) {
    const mine = JSON.stringify({
      pid: process.pid,
      host: hostname(),
      time: Date.now(),
      // Two takes by one process must differ, so release never removes a later lock of its own.
      nonce: randomBytes(6).toString('hex'),
    });
    try {
      await writeFile(lock, mine, { flag: 'wx', mode: 0o600 });
      return mine;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(lock);
    if (holder === undefined) continue; // released between our two calls
    if (isStale(holder, options.staleMs)) {
      await takeOver(lock, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder.pid === undefined ? 'another process' : `process ${holder.pid}`;
      throw new InfraError(
        'lock_timeout',
        `${file} is in use by ${who} (it holds ${lock}). Try again; if no epoch process is running, delete ${lock}.`,
      );
    }
    // Jitter keeps two waiters from retrying in lockstep.
    await sleep(Math.min(delay, deadline - Date.now()) + Math.random() * delay);
    // Capped low: a holder keeps the lock for milliseconds, and a waiter that sleeps long keeps
    // missing the short gaps between one writer's edits.
    delay = Math.min(delay * 2, 25);
  }
}

async function readHolder(lock: string): Promise<Holder | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    return { raw, ...parseHolder(raw, info.mtimeMs) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

// A lock just created is empty until its holder writes it: then only its age can judge it.
function parseHolder(raw: string, mtimeMs: number): Omit<Holder, 'raw'> {
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object') {
      const { pid, host, time } = value as Record<string, unknown>;
      return {
        pid: typeof pid === 'number' ? pid : undefined,
        host: typeof host === 'string' ? host : undefined,
        time: typeof time === 'number' ? time : mtimeMs,
      };
    }
  } catch {
    // not written yet, or not ours: judged by age
  }
  return { pid: undefined, host: undefined, time: mtimeMs };
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.time > staleMs) return true;
  // A pid means something only on the host that wrote it (the file may be on a shared disk).
  if (holder.pid === undefined || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: alive, only not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Moves the stale lock aside. Rename is atomic, so of two processes taking over the same lock only
 * one moves it; if what was moved is not the lock judged stale (someone took it over and locked
 * again in between), it is put back.
 */
async function takeOver(lock: string, stale: Holder): Promise<void> {
  const aside = `${lock}.${process.pid}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if ((await readFile(aside, 'utf8')) !== stale.raw) {
      await link(aside, lock).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    }
  } finally {
    await rm(aside, { force: true });
  }
}

/** Removes the lock if it is still ours: a lock taken over from us belongs to someone else now. */
async function release(lock: string, mine: string): Promise<void> {
  const holder = await readHolder(lock);
  if (holder?.raw === mine) await rm(lock, { force: true });
}
