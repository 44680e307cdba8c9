// The tasks this machine's processes started, kept in `$EPOCH_HOME/tasks` (a 0700 directory, one
// 0600 file per task) so that a later process can list them, fetch a finished one's result or
// cancel one (README "Tasks"). A record holds what finds the task again and nothing of the call's
// content: the server's name, the tool, the task's id, the protocol era, when it started, its last
// status seen and how long its server said it keeps it. Never the arguments, a header, a status
// message or a result. Each write replaces the whole file. How the records are listed, and when a
// record goes by its age, is task-record-list.ts's; one whose server said it no longer knows the
// task is removed by routing.ts.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Env, epochHome, writeFileAtomic } from '@epoch-agent/infra';
import type { McpProtocolEra } from '../connection/protocol.js';
import type { TaskState, TaskStatus } from './task-wire.js';

export interface McpTaskRecord {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly taskId: string;
  readonly era: McpProtocolEra;
  /** ISO time the task was made. */
  readonly startedAt: string;
  /** Its last status seen by any process. */
  readonly status: TaskStatus;
  readonly updatedAt: string;
  /** The process that started it. */
  readonly pid: number;
  /**
   * How long after it was made its server keeps the task (`ttl`, `ttlMs`), as the server last said:
   * null, as long as it likes; absent, it did not say.
   */
  readonly ttlMs?: number | null;
}

export function taskRecordsDir(env: Env = process.env): string {
  return join(epochHome(env), 'tasks');
}

/** A record's file: named by a hash, so the name says nothing of the server or the task. */
function fileOf(dir: string, server: string, taskId: string): string {
  const hash = createHash('sha256').update(`${server}\u0000${taskId}`).digest('hex');
  return join(dir, `${hash.slice(0, 32)}.json`);
}

export function writeTaskRecord(record: McpTaskRecord, dir = taskRecordsDir()): Promise<void> {
  return writeFileAtomic(fileOf(dir, record.server, record.taskId), JSON.stringify(record), {
    ownerOnly: true,
  });
}

export async function removeTaskRecord(
  server: string,
  taskId: string,
  dir = taskRecordsDir(),
): Promise<void> {
  await rm(fileOf(dir, server, taskId), { force: true });
}

/**
 * The record of `server`'s task given the state a later process saw: its status, and how long its
 * server keeps it when the server said. Nothing when no record names the task.
 */
export async function markTaskRecord(
  server: string,
  seen: Pick<TaskState, 'taskId' | 'status' | 'ttlMs'>,
  dir = taskRecordsDir(),
): Promise<void> {
  const file = fileOf(dir, server, seen.taskId);
  const record = await recordAt(file);
  if (record === undefined) return;
  await writeTaskRecord(
    {
      ...record,
      status: seen.status,
      updatedAt: new Date().toISOString(),
      ...(seen.ttlMs === undefined ? {} : { ttlMs: seen.ttlMs }),
    },
    dir,
  );
}

/** The record file `file` holds; undefined when it holds none (or is no regular file). */
export async function recordAt(file: string): Promise<McpTaskRecord | undefined> {
  const text = await recordText(file);
  return text === undefined ? undefined : recordOf(text);
}

/** More than any record holds: a bigger file is no record, and is not read. */
const RECORD_MAX_BYTES = 1024 * 1024;

/**
 * A record file's text; undefined for anything but a regular file of at most RECORD_MAX_BYTES.
 * Opened without blocking and checked on the open file: a FIFO (or a link to one) named like a
 * record would otherwise hold the read, and every listing, for ever.
 */
async function recordText(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > RECORD_MAX_BYTES) return undefined;
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => {});
  }
}

function recordOf(text: string): McpTaskRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<McpTaskRecord>;
    const strings = [value.server, value.tool, value.taskId, value.startedAt, value.updatedAt];
    if (strings.some((field) => typeof field !== 'string')) return undefined;
    // A record's age is counted from these: one that is no time would never go.
    const times = [value.startedAt, value.updatedAt] as string[];
    if (times.some((time) => Number.isNaN(Date.parse(time)))) return undefined;
    if (value.era !== 'legacy' && value.era !== 'modern') return undefined;
    if (typeof value.status !== 'string' || typeof value.pid !== 'number') return undefined;
    const ttl = value.ttlMs;
    if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !(ttl >= 0))) {
      return undefined;
    }
    return value as McpTaskRecord;
  } catch {
    return undefined;
  }
}

/** What a call following a task keeps on disk of it: each status it sees, then `flushed`. */
export interface TaskRecorder {
  (seen: Pick<TaskState, 'taskId' | 'status' | 'ttlMs'>): void;
  /** Every write asked for so far, done (or failed: a write that fails costs only the record). */
  flushed(): Promise<void>;
}

/**
 * The record of a task a call follows: written whole when the task is made here (`made`), or (a
 * later process following a recorded task) only its status and time to keep changed, so it keeps
 * who started it.
 */
export function taskRecorder(
  task: Pick<McpTaskRecord, 'server' | 'tool' | 'era'>,
  made: boolean,
): TaskRecorder {
  const startedAt = new Date().toISOString();
  let last: string | undefined;
  // One write after another, so the last status seen is the one left on disk.
  let writing: Promise<void> = Promise.resolve();
  const write = (seen: Pick<TaskState, 'taskId' | 'status' | 'ttlMs'>): Promise<void> =>
    made
      ? writeTaskRecord({
          ...task,
          taskId: seen.taskId,
          startedAt,
          status: seen.status,
          updatedAt: new Date().toISOString(),
          pid: process.pid,
          ...(seen.ttlMs === undefined ? {} : { ttlMs: seen.ttlMs }),
        })
      : markTaskRecord(task.server, seen);
  let ttlMs: number | null | undefined;
  const recorder = (seen: Pick<TaskState, 'taskId' | 'status' | 'ttlMs'>): void => {
    // A look that does not repeat the time to keep leaves the one said before.
    if (seen.ttlMs !== undefined) ttlMs = seen.ttlMs;
    const said = `${seen.status}\u0000${ttlMs}`;
    if (said === last) return;
    last = said;
    const kept = {
      taskId: seen.taskId,
      status: seen.status,
      ...(ttlMs === undefined ? {} : { ttlMs }),
    };
    writing = writing.then(() => write(kept)).catch(() => {});
  };
  recorder.flushed = () => writing;
  return recorder;
}
