// The records of $EPOCH_HOME/tasks as readTaskRecords lists them, on real files in the test's temp
// EPOCH_HOME (the clock of a record's age given to each listing): a record whose server gave no
// time to keep its task (none said, `null`, or a record written before epoch kept it) goes a week
// after its task was last seen, while one with the server's `ttl` keeps that; and a listing opens
// only the files that changed since the one before (the bytes this process read), while a record
// replaced, added or removed is seen at once, and a file changed in the last 2 s is opened each time.
// A record past its time that cannot be removed (a directory its user may not write) is left out,
// said once, and the others are listed; a record whose times are no dates is no record.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readsSoFar } from '@epoch-agent/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import {
  type McpTaskRecord,
  removeTaskRecord,
  taskRecordsDir,
  writeTaskRecord,
} from '../src/tasks/task-records.js';

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

const idsAt = async (now: number) => (await readTaskRecords({ now })).map(({ taskId }) => taskId);

/** The times of every record file (or of those changed after `since`) set to `at`. */
async function dateFiles(at: number, since = Number.NEGATIVE_INFINITY): Promise<void> {
  for (const name of await readdir(taskRecordsDir())) {
    const file = join(taskRecordsDir(), name);
    if ((await stat(file)).mtimeMs > since) await utimes(file, new Date(at), new Date(at));
  }
}

beforeEach(async () => {
  await rm(taskRecordsDir(), { recursive: true, force: true });
});

/** A directory of the test's own, removed after it (made writable first). */
let own: string | undefined;

afterEach(async () => {
  if (own === undefined) return;
  await chmod(join(own, 'tasks'), 0o700).catch(() => {});
  await rm(own, { recursive: true, force: true });
  own = undefined;
});

/** The listing as built, for a process of another user. */
const LISTING = fileURLToPath(new URL('../dist/tasks/task-record-list.js', import.meta.url));

/**
 * Two listings of `dir` at `now` in one process of a user who may not write `dir`: their ids, and
 * every warning its logger was given. Root ignores modes, so as root it runs as nobody (setpriv;
 * the directory stays root's 0755, its files made readable); anyone else with the directory 0500.
 */
async function listedUnwritable(dir: string, now: number) {
  const root = process.getuid?.() === 0;
  if (root) {
    for (const name of await readdir(dir)) await chmod(join(dir, name), 0o644);
    await chmod(dir, 0o755);
  } else await chmod(dir, 0o500);
  const script = `
    const { readTaskRecords } = await import(${JSON.stringify(LISTING)});
    const warnings = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) };
    const ids = [];
    for (const _ of [1, 2]) {
      const records = await readTaskRecords({ dir: ${JSON.stringify(dir)}, now: ${now}, logger });
      ids.push(records.map(({ taskId }) => taskId));
    }
    console.log(JSON.stringify({ ids, warnings }));`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  const [file = '', ...args] = root
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...node]
    : node;
  const { stdout } = await promisify(execFile)(file, args, { encoding: 'utf8' });
  return JSON.parse(stdout) as { ids: string[][]; warnings: string[] };
}

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

it('a listing opens only the files that changed since the one before; a change is seen at once', async () => {
  const now = Date.now();
  // A long tool name makes each file 4 KB: a file opened stands out from the bytes the event
  // loop's own wake-ups read.
  const current = (taskId: string, fields: Partial<McpTaskRecord> = {}) =>
    record(taskId, {
      tool: 'w'.repeat(4096),
      startedAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      ...fields,
    });
  const FILE = 4096;
  for (let index = 0; index < 200; index++) await writeTaskRecord(current(`task-${index}`));
  // Written a minute ago, as the records a listing finds mostly were.
  const aMinuteAgo = Date.now() - 60_000;
  await dateFiles(aMinuteAgo);
  const listing = async () => {
    const before = readsSoFar().bytes;
    const records = await readTaskRecords({ now });
    return { records, bytes: readsSoFar().bytes - before };
  };

  // The first listing of this process opens every file; the next, nothing changed, none of them.
  const first = await listing();
  expect(first.records).toHaveLength(200);
  expect(first.bytes).toBeGreaterThanOrEqual(200 * FILE);
  const again = await listing();
  expect(again.records).toEqual(first.records);
  expect(again.bytes).toBeLessThan(FILE);

  // Another write replaces one record, adds one and removes one: each is seen by the next listing,
  // which opens only the two new files.
  await writeTaskRecord(current('task-7', { status: 'completed' }));
  await writeTaskRecord(current('task-new', { startedAt: new Date(now + 1).toISOString() }));
  await removeTaskRecord('remote', 'task-9');
  // Dated ahead: however slow the machine, they stay changed within the last 2 s for this test.
  await dateFiles(Date.now() + 60_000, aMinuteAgo);
  const changed = await listing();
  const byId = new Map(changed.records.map((each) => [each.taskId, each]));
  expect(changed.records).toHaveLength(200);
  expect(byId.get('task-7')?.status).toBe('completed');
  expect(byId.has('task-new')).toBe(true);
  expect(byId.has('task-9')).toBe(false);
  expect(changed.bytes).toBeGreaterThanOrEqual(2 * FILE);
  expect(changed.bytes).toBeLessThan(3 * FILE);

  // Changed within the last 2 s, those two are opened at each listing (a second change within the
  // same tick of a coarse file system clock could leave their stat as it was); not once a while old.
  expect((await listing()).bytes).toBeGreaterThanOrEqual(2 * FILE);
  await dateFiles(aMinuteAgo);
  await listing();
  expect((await listing()).bytes).toBeLessThan(FILE);
});

it('a record past its time that cannot be removed is left out and said once; the others are listed', async () => {
  own = await mkdtemp(join(tmpdir(), 'epoch-unwritable-'));
  await chmod(own, 0o755);
  const dir = join(own, 'tasks');
  await writeTaskRecord(record('live', { ttlMs: WEEK }), dir);
  const [live] = await readdir(dir);
  await writeTaskRecord(record('past', { ttlMs: HOUR }), dir);
  const past = (await readdir(dir)).find((name) => name !== live);
  const now = T0 + 2 * HOUR;

  const listed = await listedUnwritable(dir, now);
  // Before, the whole listing rejected with EACCES: no task was listed at all.
  expect(listed.ids).toEqual([['live'], ['live']]);
  expect(listed.warnings).toEqual([
    `The task record ${join(dir, past ?? '')} is past its time but could not be removed (EACCES): it is left out of the list of tasks. Check that ${dir} can be written (its owner and mode; not a read-only file system), or remove the file yourself.`,
  ]);
  expect((await readdir(dir)).sort()).toEqual([live, past].sort());

  // Once the directory can be written, the next listing removes it.
  await chmod(dir, 0o700);
  expect((await readTaskRecords({ dir, now })).map(({ taskId }) => taskId)).toEqual(['live']);
  expect(await readdir(dir)).toEqual([live]);
});

it('a record whose start or last sight is no date is no record: left out, as any file that is not one', async () => {
  await writeTaskRecord(record('dated'));
  // With the server's time, the age counts from its start; without, from when it was last seen.
  await writeTaskRecord(record('no-start', { startedAt: 'soon', ttlMs: HOUR }));
  await writeTaskRecord(record('no-sight', { updatedAt: 'yesterday' }));
  // Before, neither ever went: NaN is never past.
  expect(await idsAt(T0 + HOUR)).toEqual(['dated']);
  expect(await idsAt(T0 + 100 * WEEK)).toEqual([]);
  expect(await readdir(taskRecordsDir())).toHaveLength(2);
});
