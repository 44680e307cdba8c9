// Every record in `$EPOCH_HOME/tasks`, as `epoch mcp tasks`, the page's list and `taskRecords()`
// list them, and how long a record is kept (README "Tools that run as tasks"): until the time its
// server said it keeps the task, or a week after the task was last seen when its server said no
// time. The one place a record goes by its age. A process that lists the records again and again
// (the page reads them after each call it runs) opens only the files that changed since its last
// listing: a file's stat says whether it did. A record past its time that cannot be removed (a
// directory that cannot be written) is left out, and the logger told; the listing goes on.
import type { BigIntStats } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import { type McpTaskRecord, recordAt, taskRecordsDir } from './task-records.js';

/**
 * How long a record whose server gave no time to keep its task (`ttl` absent or null, or a record
 * written before epoch kept it) stays after its task was last seen (`updatedAt`: the last status
 * any process heard of). Such a server may keep the task for ever or may have forgotten it long
 * ago; nothing says which, so the record leaves a week to come back to the task, and the directory
 * does not only grow.
 */
const UNTIMED_RECORD_MS = 7 * 24 * 60 * 60_000;

/** When a record goes. */
function expiryOf(record: McpTaskRecord): number {
  // The server's time counts from when this side learned of the task: never before the server's
  // own creation time, so a record is not dropped while its server still keeps the task.
  if (typeof record.ttlMs === 'number') return Date.parse(record.startedAt) + record.ttlMs;
  return Date.parse(record.updatedAt) + UNTIMED_RECORD_MS;
}

/**
 * A file changed within this long of a listing is opened again at the next one, whatever its stat
 * says: a file system keeps times coarsely (FAT to 2 s), and a second change within the same tick
 * could leave the stat as it was.
 */
const SETTLE_MS = 2_000;

/** What a listing found in one file: the record (undefined: none), and the stat it trusts. */
interface Seen {
  /** Undefined while the file's change is too recent to trust (SETTLE_MS): it is opened again. */
  readonly stamp: string | undefined;
  readonly record: McpTaskRecord | undefined;
}

/** Each directory's files as this process last listed them, by name: what the next listing trusts. */
const listed = new Map<string, ReadonlyMap<string, Seen>>();

/**
 * Each directory's records past their time that the last listing could not remove, by name: the
 * logger is told of one once, not at every listing (the page lists after each call it runs).
 */
const unremoved = new Map<string, ReadonlySet<string>>();

export interface TaskRecordListing {
  /** Default: `$EPOCH_HOME/tasks`. */
  readonly dir?: string;
  /** The time a record's age is measured at. Default: now. */
  readonly now?: number;
  /** Told of a record past its time that could not be removed. Default: silentLogger. */
  readonly logger?: Logger;
}

/**
 * Every readable record, oldest first; a file that is not a record is left out, and a record past
 * its time (at `now`: the server's `ttl` from its start, else UNTIMED_RECORD_MS from when it was
 * last seen) is removed, or, when it cannot be, left out and the logger told.
 */
export async function readTaskRecords({
  dir = taskRecordsDir(),
  now = Date.now(),
  logger = silentLogger,
}: TaskRecordListing = {}): Promise<McpTaskRecord[]> {
  const files = await filesOf(dir);
  const records: McpTaskRecord[] = [];
  const told = unremoved.get(dir);
  const stuck = new Set<string>();
  for (const [name, { record }] of files) {
    if (record === undefined) continue;
    if (expiryOf(record) > now) {
      records.push(record);
      continue;
    }
    const file = join(dir, name);
    // One file's refusal (a directory that cannot be written, a read-only file system) costs only
    // that file: the others are still listed.
    await rm(file, { force: true }).catch((error: unknown) => {
      stuck.add(name);
      if (told?.has(name) !== true) logger.warn(unremovable(file, dir, error));
    });
  }
  if (stuck.size === 0) unremoved.delete(dir);
  else unremoved.set(dir, stuck);
  return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function unremovable(file: string, dir: string, error: unknown): string {
  const why = (error as NodeJS.ErrnoException).code ?? messageOf(error);
  return `The task record ${file} is past its time but could not be removed (${why}): it is left out of the list of tasks. Check that ${dir} can be written (its owner and mode; not a read-only file system), or remove the file yourself.`;
}

/** The directory's record files, each opened only when its stat differs from the last listing's. */
async function filesOf(dir: string): Promise<ReadonlyMap<string, Seen>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.json'),
  );
  // Each stat first, at once (no file is held open for it); then only the changed files opened,
  // one at a time. A stat taken before its file is opened: a change in between makes the next
  // listing's stat differ from this one, so the file is opened again then.
  const infos = await Promise.all(
    names.map((name) => stat(join(dir, name), { bigint: true }).catch(() => undefined)),
  );
  const before = listed.get(dir);
  const files = new Map<string, Seen>();
  // A file's change is measured against the clock the file system stamps it with, not `now`.
  const settled = Date.now() - SETTLE_MS;
  for (const [index, name] of names.entries()) {
    const info = infos[index];
    // Removed since the directory was read.
    if (info === undefined) continue;
    const stamp = stampOf(info);
    const kept = before?.get(name);
    const record = kept?.stamp === stamp ? kept.record : await recordAt(join(dir, name));
    files.set(name, { stamp: Number(info.mtimeMs) < settled ? stamp : undefined, record });
  }
  if (files.size === 0) listed.delete(dir);
  else listed.set(dir, files);
  return files;
}

/**
 * What changes with any change to a file: epoch replaces a record whole (a new file, renamed over
 * it), which gives it another inode and change time; an edit in place changes its times.
 */
function stampOf(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}
