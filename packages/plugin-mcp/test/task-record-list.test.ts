// The records of $EPOCH_HOME/tasks as readTaskRecords lists them, on real files in the test's temp
// EPOCH_HOME (the clock of a record's age given to each listing): a record whose server gave no
// time to keep its task (none said, `null`, or a record written before epoch kept it) goes a week
// after its task was last seen, while one with the server's `ttl` keeps that.
import { readdir, rm } from 'node:fs/promises';
import { beforeEach, expect, it } from 'vitest';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import { type McpTaskRecord, taskRecordsDir, writeTaskRecord } from '../src/tasks/task-records.js';

const HOUR = 60 * 60_000;
const WEEK = 7 * 24 * HOUR;
const T0 = Date.parse('2026-03-02T09:00:00.000Z');

function record(taskId: string, fields: Partial<McpTaskRecord> = {}): McpTaskRecord {
  return {
    server: 'remote',
    tool: 'work',
    taskId,
    era: 'modern',
    startedAt: new Date(T0).toISOString(),
    status: 'working',
    updatedAt: new Date(T0).toISOString(),
    pid: process.pid,
    ...fields,
  };
}

const idsAt = async (now: number) =>
  (await readTaskRecords(taskRecordsDir(), now)).map(({ taskId }) => taskId);

beforeEach(async () => {
  await rm(taskRecordsDir(), { recursive: true, force: true });
});

it('a record whose server gave no time goes a week after its task was last seen; a ttl is kept whole', async () => {
  const lastSeen = T0 + HOUR;
  const updatedAt = new Date(lastSeen).toISOString();
  // As epoch wrote records before it kept the server's time, and as a server that says none gives.
  await writeTaskRecord(record('none-said', { updatedAt }));
  await writeTaskRecord(record('null', { updatedAt, ttlMs: null }));
  // Seen again three days later: the week counts from then.
  await writeTaskRecord(
    record('seen-later', { updatedAt: new Date(lastSeen + 3 * 24 * HOUR).toISOString() }),
  );
  // A server that keeps its task a month: the record keeps it as long, however long unseen.
  await writeTaskRecord(record('a-month', { updatedAt, ttlMs: 30 * 24 * HOUR }));
  const all = ['none-said', 'null', 'seen-later', 'a-month'];

  expect((await idsAt(lastSeen + WEEK - 1)).sort()).toEqual([...all].sort());
  expect((await idsAt(lastSeen + WEEK)).sort()).toEqual(['a-month', 'seen-later']);
  expect(await readdir(taskRecordsDir())).toHaveLength(2);
  expect(await idsAt(lastSeen + 3 * 24 * HOUR + WEEK)).toEqual(['a-month']);
  expect(await idsAt(T0 + 30 * 24 * HOUR - 1)).toEqual(['a-month']);
  expect(await idsAt(T0 + 30 * 24 * HOUR)).toEqual([]);
  expect(await readdir(taskRecordsDir())).toEqual([]);
});
