// The tasks this machine's processes started, kept in `$EPOCH_HOME/tasks` (a 0700 directory, one
// 0600 file per task) so that a later process can list them, fetch a finished one's result or
// cancel one (README "Tasks"). A record holds what finds the task again and nothing of the call's
// content: the server's name, the tool, the task's id, the protocol era, when it started and its
// last status seen. Never the arguments, a header, a status message or a result.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Env, epochHome, writeFileAtomic } from '@epoch-agent/infra';
import type { McpProtocolEra } from '../connection/protocol.js';
import type { TaskStatus } from './task-wire.js';

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

/** The record of `server`'s task `taskId` given its new `status` (a later process saw it). */
export async function markTaskRecord(
  server: string,
  taskId: string,
  status: TaskStatus,
  dir = taskRecordsDir(),
): Promise<void> {
  const file = fileOf(dir, server, taskId);
  const record = recordOf(await readFile(file, 'utf8').catch(() => ''));
  if (record === undefined) return;
  await writeTaskRecord({ ...record, status, updatedAt: new Date().toISOString() }, dir);
}

/** Every readable record, oldest first; a file that is not a record is left out. */
export async function readTaskRecords(dir = taskRecordsDir()): Promise<McpTaskRecord[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const records: McpTaskRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const text = await readFile(join(dir, name), 'utf8').catch(() => undefined);
    const record = text === undefined ? undefined : recordOf(text);
    if (record !== undefined) records.push(record);
  }
  return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function recordOf(text: string): McpTaskRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<McpTaskRecord>;
    const strings = [value.server, value.tool, value.taskId, value.startedAt, value.updatedAt];
    if (strings.some((field) => typeof field !== 'string')) return undefined;
    if (value.era !== 'legacy' && value.era !== 'modern') return undefined;
    if (typeof value.status !== 'string' || typeof value.pid !== 'number') return undefined;
    return value as McpTaskRecord;
  } catch {
    return undefined;
  }
}

/** What a call following a task keeps on disk of it: each status it sees, then `flushed`. */
export interface TaskRecorder {
  (taskId: string, status: TaskStatus): void;
  /** Every write asked for so far, done (or failed: a write that fails costs only the record). */
  flushed(): Promise<void>;
}

/**
 * The record of a task a call follows: written whole when the task is made here (`made`), or (a
 * later process following a recorded task) only its status changed, so it keeps who started it.
 */
export function taskRecorder(
  task: Pick<McpTaskRecord, 'server' | 'tool' | 'era'>,
  made: boolean,
): TaskRecorder {
  const startedAt = new Date().toISOString();
  let last: TaskStatus | undefined;
  // One write after another, so the last status seen is the one left on disk.
  let writing: Promise<void> = Promise.resolve();
  const write = (taskId: string, status: TaskStatus): Promise<void> =>
    made
      ? writeTaskRecord({
          ...task,
          taskId,
          startedAt,
          status,
          updatedAt: new Date().toISOString(),
          pid: process.pid,
        })
      : markTaskRecord(task.server, taskId, status);
  const recorder = (taskId: string, status: TaskStatus): void => {
    if (status === last) return;
    last = status;
    writing = writing.then(() => write(taskId, status)).catch(() => {});
  };
  recorder.flushed = () => writing;
  return recorder;
}
