// Servers left running by a process of ours that died without closing them (a host killed with
// SIGKILL, a crash): a stdio server that ignores stdin EOF, and its helpers, would run for ever.
// So every process that starts stdio servers keeps a record of them in $EPOCH_HOME, and the next
// process of ours to start one reaps the trees of every record whose owner is gone.
//
//   $EPOCH_HOME/processes/<pid>-<start>.json   one per live process of ours with servers, 0600:
//   { "table": "proc", "owner": { "pid", "startTime" }, "servers": [{ "name", "pid", "startTime" }] }
//
// A process is known by its pid AND its start time, as the process table tells them (the record
// names the table it was read from: /proc and `ps` write start times differently), so a pid handed
// out again is never signalled, and a record whose owner still runs (another epoch) is left alone.
// One file per owner: no lock, no process ever writes another's file; a sweep deletes only the
// files of owners that are gone. A file is written whole (temp file, rename), so a sweep never
// reads half of one.
import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  epochHome,
  type Logger,
  messageOf,
  silentLogger,
  writeFileAtomic,
} from '@epoch-agent/infra';
import { readStat } from './process-table/proc.js';
import { processTableSource, processTableSourceOf } from './process-table/select.js';
import type { ProcessTableKind, ProcessTableSource } from './process-table/table.js';
import { type ReapOptions, reapAbandoned } from './reap.js';
import { type TrackedProcess, UNKNOWN } from './tracked-process.js';

const KINDS: Record<ProcessTableKind, true> = { proc: true, ps: true, windows: true };

interface Identity {
  readonly pid: number;
  readonly startTime: string;
}

interface RecordedServer extends Identity {
  readonly name: string;
}

interface ProcessRecord {
  readonly table: ProcessTableKind;
  readonly owner: Identity;
  readonly servers: readonly RecordedServer[];
}

/** Where the records are: `$EPOCH_HOME/processes`. */
export function leftoversDir(): string {
  return join(epochHome(), 'processes');
}

/** What a sweep did, for its log line and for tests. */
export interface LeftoverSweep {
  /** The servers whose trees still ran and were ended. */
  readonly reaped: readonly RecordedServer[];
  /** Records of processes that still run (this one's too), left alone. */
  readonly live: number;
  /** Files that were no record (garbage, another format): deleted. */
  readonly unreadable: readonly string[];
}

export interface SweepOptions {
  readonly logger?: Logger;
  /** The grace after SIGTERM; reap.ts's default when absent. */
  readonly reap?: ReapOptions;
}

/**
 * Reaps what the dead owners' records name and deletes their records. Never rejects: a record it
 * cannot read is deleted with a warning, a directory it cannot read is a warning.
 */
export async function sweepLeftovers(options: SweepOptions = {}): Promise<LeftoverSweep> {
  const logger = options.logger ?? silentLogger;
  const dir = leftoversDir();
  const sweep = { reaped: [] as RecordedServer[], live: 0, unreadable: [] as string[] };
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      logger.warn(
        `Could not read ${dir} to reap servers a crashed process left: ${messageOf(error)}`,
      );
    }
    return sweep;
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      await sweepRecord(file, sweep, logger, options.reap);
    } catch (error) {
      // A file that cannot be deleted, say: the next sweep tries again.
      logger.warn(`Could not sweep ${file}: ${messageOf(error)}`);
    }
  }
  if (sweep.reaped.length > 0) {
    const what = sweep.reaped.map(({ name, pid }) => `"${name}" (pid ${pid})`).join(', ');
    logger.warn(
      `Reaped MCP servers an epoch process left running when it ended without closing them: ${what}.`,
    );
  }
  return sweep;
}

/** One record: left alone (its owner runs), its trees reaped and deleted, or deleted as garbage. */
async function sweepRecord(
  file: string,
  sweep: { reaped: RecordedServer[]; live: number; unreadable: string[] },
  logger: Logger,
  reap: ReapOptions | undefined,
): Promise<void> {
  const record = await readRecord(file);
  if (record === 'gone') return;
  if (record === undefined) {
    sweep.unreadable.push(file);
    logger.warn(
      `${file} is not a record of servers epoch started (it may be damaged); it was deleted, and the servers it may have named are not reaped.`,
    );
    await rm(file, { force: true });
    return;
  }
  const source = processTableSourceOf(record.table);
  if (await runs(record.owner, source)) {
    sweep.live += 1;
    return;
  }
  for (const server of record.servers) {
    const leader: TrackedProcess = {
      pid: server.pid,
      startTime: server.startTime,
      pgid: server.pid,
    };
    if (await reapAbandoned(leader, source, reap)) sweep.reaped.push(server);
  }
  await rm(file, { force: true });
}

/** Whether the very process (pid and start time) still runs; a table that cannot be read says yes. */
async function runs(owner: Identity, source: ProcessTableSource): Promise<boolean> {
  try {
    const entry = (await source.next()).get(owner.pid);
    return entry?.running === true && entry.startTime === owner.startTime;
  } catch {
    // Without a table nothing can be proven dead, and nothing is signalled.
    return true;
  }
}

/** The record in `file`; undefined when it is none, 'gone' when another sweep deleted it first. */
async function readRecord(file: string): Promise<ProcessRecord | undefined | 'gone'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { table, owner, servers } = parsed as Record<string, unknown>;
  if (typeof table !== 'string' || !Object.hasOwn(KINDS, table)) return undefined;
  if (!isIdentity(owner) || !Array.isArray(servers)) return undefined;
  if (!servers.every((server) => isIdentity(server) && typeof server.name === 'string')) {
    return undefined;
  }
  return { table: table as ProcessTableKind, owner, servers: servers as RecordedServer[] };
}

function isIdentity(value: unknown): value is Identity & Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const { pid, startTime } = value as Record<string, unknown>;
  return Number.isSafeInteger(pid) && (pid as number) > 0 && typeof startTime === 'string';
}

/**
 * How long a change waits before the record is written: the servers a registry starts together
 * make one write, and a server closed within this time (a test, a one-shot command) makes none.
 * A host that crashes sooner than this after a spawn leaves that server unrecorded.
 */
const WRITE_DELAY_MS = 500;

/**
 * This process's record: the servers it started that may still run. Written a moment after each
 * change, one write at a time (the last state wins); deleted once no server is left, by the close
 * of the last one: the write it had pending is cancelled, one under way is waited for, so nothing
 * is written into $EPOCH_HOME after that close (a host, a test, removes it then).
 */
class OwnRecord {
  /** By pid: the name and the leader as spawned (its start time may not be known yet: `ps`). */
  readonly #servers = new Map<number, { readonly name: string; leader: TrackedProcess }>();
  #source: ProcessTableSource | undefined;
  #owner: Promise<Identity | undefined> | undefined;
  /** Its path while a record of it may be on disk. */
  #file: string | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Flushes enqueued and not done yet. */
  #flushes = 0;
  #timer: NodeJS.Timeout | undefined;
  #logger: Logger = silentLogger;

  /**
   * Records a server just spawned; the returned function takes it out again (its tree is gone),
   * and resolves once the record says so where that is the last server: the record is deleted.
   */
  add(name: string, leader: TrackedProcess, logger: Logger): () => Promise<void> {
    this.#source ??= processTableSource();
    this.#logger = logger;
    this.#servers.set(leader.pid, { name, leader });
    this.#schedule();
    return () => {
      if (!this.#servers.delete(leader.pid)) return Promise.resolve();
      if (this.#servers.size > 0) {
        this.#schedule();
        return Promise.resolve();
      }
      // The last one gone: the record goes now, after a write under way, and no write is left
      // pending, so a process that exits right after its close leaves none behind.
      clearTimeout(this.#timer);
      this.#timer = undefined;
      // None on disk and none under way (a server closed before its record was written): there is
      // nothing to delete, and the close need not wait for a flush that does nothing.
      if (this.#file === undefined && this.#flushes === 0) return Promise.resolve();
      return this.#enqueue();
    };
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#enqueue();
    }, WRITE_DELAY_MS);
    // The record never keeps a process alive that has nothing else to do.
    this.#timer.unref();
  }

  /** A flush after the one under way; never rejects (a failure is a warning). */
  #enqueue(): Promise<void> {
    this.#flushes += 1;
    this.#writing = this.#writing.then(() =>
      this.#flush()
        .catch((error: unknown) => {
          this.#logger.warn(
            `Could not keep the record of the MCP servers this process started (${messageOf(error)}); if it crashes, they are not reaped at the next start.`,
          );
        })
        .finally(() => {
          this.#flushes -= 1;
        }),
    );
    return this.#writing;
  }

  async #flush(): Promise<void> {
    if (this.#servers.size === 0) {
      // Nothing to keep: the record goes, if one is on disk. Once gone it is forgotten, so the
      // close of a server that never made it into a record deletes nothing (a trip through the
      // thread pool that the close would wait for).
      if (this.#file !== undefined) await removeRecord(this.#file);
      this.#file = undefined;
      return;
    }
    const source = this.#source ?? processTableSource();
    this.#owner ??= ownIdentity(source);
    const owner = await this.#owner;
    if (owner === undefined) return;
    const file = join(leftoversDir(), fileNameOf(owner));
    this.#file = file;
    const servers = await this.#identified(source);
    if (servers.length === 0) {
      await removeRecord(file);
      this.#file = undefined;
      return;
    }
    const record: ProcessRecord = { table: source.kind, owner, servers };
    await writeFileAtomic(file, `${JSON.stringify(record)}\n`, { ownerOnly: true });
  }

  /**
   * The servers with their start times. Where the spawn could not tell one (`ps`), one read of
   * the table does, while the server still runs as our child: one gone by then needs no record.
   */
  async #identified(source: ProcessTableSource): Promise<RecordedServer[]> {
    const entries = [...this.#servers.values()];
    const unknown = entries.some(({ leader }) => leader.startTime === UNKNOWN);
    const table = unknown ? await source.next().catch(() => undefined) : undefined;
    const servers: RecordedServer[] = [];
    for (const entry of entries) {
      if (entry.leader.startTime === UNKNOWN) {
        const found = table?.get(entry.leader.pid);
        // Our own child, so the pid is surely the server's (a reaped one's could be anyone's).
        if (found?.ppid !== process.pid) continue;
        entry.leader = { ...entry.leader, startTime: found.startTime };
      }
      const { pid, startTime } = entry.leader;
      servers.push({ name: entry.name, pid, startTime });
    }
    return servers;
  }
}

/**
 * Deletes this process's record; one already gone is no failure. An unlink, not `rm`: rm first
 * stats the path, a second trip through the thread pool that the close of the last server waits
 * for.
 */
async function removeRecord(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function ownIdentity(source: ProcessTableSource): Promise<Identity | undefined> {
  const entry =
    source.kind === 'proc' ? readStat(process.pid) : (await source.next()).get(process.pid);
  return entry === undefined ? undefined : { pid: entry.pid, startTime: entry.startTime };
}

/** `<pid>-<start time, letters and digits only>.json`: one name per process that ever ran. */
function fileNameOf(owner: Identity): string {
  return `${owner.pid}-${owner.startTime.replace(/[^A-Za-z0-9]/g, '')}.json`;
}

const ownRecord = new OwnRecord();

/**
 * Records a server this process spawned; returns the function that drops it once its tree is gone,
 * which resolves once the record is settled (OwnRecord.add).
 */
export function recordServer(
  name: string,
  leader: TrackedProcess,
  logger: Logger,
): () => Promise<void> {
  return ownRecord.add(name, leader, logger);
}
