// Every record in `$EPOCH_HOME/tasks`, as `epoch mcp tasks`, the page's list and `taskRecords()`
// list them, and how long a record is kept (README "Tools that run as tasks"): until the time its
// server said it keeps the task, or a week after the task was last seen when its server said no
// time. The one place a record goes by its age.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
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
 * Every readable record, oldest first; a file that is not a record is left out, and a record past
 * its time (at `now`: the server's `ttl` from its start, else UNTIMED_RECORD_MS from when it was
 * last seen) is removed.
 */
export async function readTaskRecords(
  dir = taskRecordsDir(),
  now = Date.now(),
): Promise<McpTaskRecord[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const records: McpTaskRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    const record = await recordAt(file);
    if (record === undefined) continue;
    if (expiryOf(record) <= now) await rm(file, { force: true });
    else records.push(record);
  }
  return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
