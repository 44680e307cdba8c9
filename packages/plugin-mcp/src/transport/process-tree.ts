// A stdio server's process tree: who belongs to it, whether each one still runs, and how to signal
// it without ever hitting a process that merely inherited a recycled pid.
//
// PLATFORM: the tree is read from the process table the platform has (process-table/select.ts):
// Linux's /proc, with quick paths that read only the tree; `ps` on macOS and other POSIX systems;
// Win32_Process on Windows, where there are no process groups and a tree is ended by taskkill.

import { constants } from 'node:os';
import { assertNever } from '../types.js';
import { adoptedOrphans, refreshStrangers, walkDown } from './children-lists.js';
import { hasChildLists, ignoresSignal, readStat } from './process-table/proc.js';
import { processTableSource } from './process-table/select.js';
import type { ProcessEntry, ProcessTable, ProcessTableSource } from './process-table/table.js';
import { endTrees } from './process-table/windows.js';
import { exists, groupExists, isRunning, sendSignal, signalGroup } from './signals.js';
import { type TrackedProcess, UNKNOWN } from './tracked-process.js';

/**
 * The processes of one server's tree that we know of, grown by every look and never shrunk. The
 * server is spawned as the leader of its own process group and session (POSIX), so the tree is:
 * the leader's descendants, plus every member of its group or session (a helper whose parent died
 * is no descendant any more, but stays in the group), plus their descendants. On Windows it is the
 * leader's descendants, followed through parents that are gone (an orphan keeps its parent's pid).
 *
 * Reading the whole process table costs 15-50 µs per process on the machine from /proc, too much
 * for a close that must end well under 100 ms on a machine with hundreds of them. So where the
 * kernel keeps children lists, the quick path reads only the tree and the children of our own
 * ancestors, and the whole table is read on the slow path (before each signal) and as a backstop.
 * The other sources read the whole table in one call each time (one `ps`, one PowerShell).
 */
export class ServerTree {
  #leader: TrackedProcess;
  /** Whether Node has not reaped the leader yet (see ReapableTransport.unreaped). */
  readonly #unreaped: () => boolean;
  readonly #source: ProcessTableSource;
  readonly #tracked = new Map<number, TrackedProcess>();
  /** Whether the kernel keeps children lists; without them every look reads the whole table. */
  readonly #childLists: boolean;
  /** The snapshot where it cannot be read at once (Windows): every look waits for it. */
  readonly #snapshot: Promise<void> | undefined;

  /**
   * The snapshot, taken before the server's stdin is closed, while every parent link still holds:
   * a helper that moved to a session of its own (setsid) is found only through its parent, and
   * the parent may exit on EOF. On Windows no link is lost at an exit, so it is read meanwhile.
   *
   * From /proc it reads each process's main-thread children list only. Reading every thread's
   * makes each of those threads slower to exit (the kernel drops the /proc entries the read
   * created, ~0.2 ms a thread here): a Node server has a dozen threads, and a polite close waits
   * for its exit. A child forked by another thread (Go, a Rust runtime's worker) is still found: by
   * its group or session, or by the whole-table read before SIGTERM while its parent runs. Only
   * one that left the session and whose parent exits on EOF within the stdin grace is out of reach.
   */
  constructor(leader: TrackedProcess, unreaped: () => boolean, source = processTableSource()) {
    this.#leader = leader;
    this.#unreaped = unreaped;
    this.#source = source;
    this.#childLists = source.kind === 'proc' && hasChildLists();
    if (this.#childLists && unreaped()) {
      // Its pid is its own, and a zombie's children list is empty: no read of its stat first, the
      // costliest read of a live server (its threads are summed), which would hold up its EOF.
      this.#track(walkDown([{ ...leader, running: true, threads: 1 }]));
    } else if (this.#childLists) {
      const entry = readStat(leader.pid);
      const running = entry?.running === true && entry.startTime === leader.startTime;
      this.#track(walkDown(running ? [entry] : []));
    } else if (source.now !== undefined) {
      this.#adoptFirst(readOrNothing(source.now), unreaped());
    } else {
      const before = unreaped();
      this.#snapshot = source.next().then(
        (table) => this.#adoptFirst(table, before && unreaped()),
        // Nothing read: the looks and signals fall back to what is known without a table.
        () => {},
      );
    }
  }

  /** Whether the server process has not been reaped yet: until then gone() is false. */
  get leaderRuns(): boolean {
    return this.#unreaped();
  }

  /** Whether nothing of the tree runs any more; first looks for processes not tracked yet. */
  async gone(): Promise<boolean> {
    // An exited leader is a zombie until Node reaps it and fires 'exit', which wakes us. Until
    // then it is still a member of its group, and the group check below could not tell; nothing
    // needs reading to know that. Once reaped it is gone: only the rest of the tree is looked at.
    if (this.#unreaped()) return false;
    if (this.#snapshot !== undefined) await this.#snapshot;
    const kind = this.#source.kind;
    switch (kind) {
      case 'proc':
        return this.#goneQuickly();
      case 'ps':
      case 'windows': {
        const table = await this.#read();
        return table === undefined ? !this.#anyKnownExists() : !this.#adopt(table);
      }
      default:
        return assertNever(kind, 'process table source');
    }
  }

  /**
   * gone() from /proc: the tree and our ancestors' children first, the whole table last. Where the
   * kernel keeps children lists nothing waits: the answer comes in the turn the exit was seen.
   */
  #goneQuickly(): boolean | Promise<boolean> {
    const leader = this.#leader.pid;
    for (const [pid, tracked] of this.#tracked) {
      if (pid !== leader && isRunning(tracked)) return false;
    }
    if (this.#childLists) {
      if (this.#adoptOrphans()) return false;
      // A member of the group that the quick look cannot see: one below a helper that left the
      // session after it forked. Only the whole table shows it. The signal 0 comes first: an
      // empty group needs no proof that its number is still ours (a read of the leader's stat).
      if (!groupExists(leader) || this.#group() === undefined) return true;
    }
    return this.#read().then((table) =>
      table === undefined ? !this.#anyKnownExists() : !this.#adopt(table),
    );
  }

  /**
   * Signals the group, then each tracked process that left it; on Windows, where there is no
   * signal a console program can catch, ends each tracked process's tree with taskkill. Reads the
   * whole table first: a server that needed a signal is on the slow path anyway, children it
   * started during the grace are found only while their parent runs, and only a process whose
   * start time the read confirmed is signalled.
   */
  async signal(signal: NodeJS.Signals): Promise<void> {
    await this.#snapshot;
    const table = await this.#read();
    if (table !== undefined) this.#adopt(table);
    const kind = this.#source.kind;
    switch (kind) {
      case 'proc':
      case 'ps':
        signalGroup(this.#leader, signal, this.#ownsGroup(table));
        for (const tracked of this.#tracked.values()) {
          if (tracked.pgid !== this.#leader.pid && this.#confirmed(tracked, table)) {
            sendSignal(tracked.pid, signal);
          }
        }
        return;
      case 'windows': {
        const pids = [...this.#tracked.values()]
          .filter((tracked) => this.#confirmed(tracked, table))
          .map(({ pid }) => pid);
        // Unreaped, the leader's pid is its own even if the read failed; taskkill /T finds the
        // rest below it then.
        const leader = this.#leader.pid;
        if (this.#unreaped() && !pids.includes(leader)) pids.push(leader);
        return endTrees(pids);
      }
      default:
        return assertNever(kind, 'process table source');
    }
  }

  /**
   * Whether some process of the tree still runs and every one that does ignores `signal`: then
   * waiting for the signal to end them is waiting for nothing. Only /proc tells what a process
   * ignores; from the other sources this is false, so the grace is waited out there.
   */
  ignores(signal: NodeJS.Signals): boolean {
    if (this.#source.kind !== 'proc') return false;
    const running = [...this.#tracked.values()].filter(isRunning);
    const signo = constants.signals[signal];
    return running.length > 0 && running.every(({ pid }) => ignoresSignal(pid, signo) === true);
  }

  /**
   * Finds the helpers of our group or session whose parent died, and their descendants; true if
   * one runs. The kernel hands an orphan to its nearest living ancestor that is a subreaper, or
   * else to init. Every ancestor of a process of the tree is a process of the tree, this process,
   * or one of its ancestors; so once no tracked process runs, every orphan is a child of this
   * process or of one of its ancestors.
   */
  #adoptOrphans(): boolean {
    const orphans = adoptedOrphans(this.#leader.pid);
    // Only a child that names the leader's number asks whether that number is still ours: most
    // looks find none, and save the read of a stat that is gone.
    if (orphans.length === 0 || this.#group() === undefined) return false;
    return this.#track(walkDown(orphans));
  }

  /**
   * Reads what our ancestors' other children are where they are many (children-lists.ts,
   * refreshStrangers); the reaper calls it once the server's stdin is ended, so that the read never
   * holds up the end and the look after the exit, which the close waits for, reads none of them.
   */
  noteStrangers(): void {
    if (this.#childLists) refreshStrangers();
  }

  /** The whole table, or undefined when it could not be read (no `ps`, PowerShell failed). */
  async #read(): Promise<ProcessTable | undefined> {
    try {
      return await this.#source.next();
    } catch {
      return undefined;
    }
  }

  /**
   * Adopts the first table read. The leader's start time comes from it where it was not known at
   * the spawn, if `ownPid`: Node had not reaped the leader before or after the read, so nothing
   * else can have had its pid.
   */
  #adoptFirst(table: ProcessTable | undefined, ownPid: boolean): void {
    if (table === undefined) return;
    const entry = table.get(this.#leader.pid);
    if (ownPid && entry !== undefined && this.#leader.startTime === UNKNOWN) {
      this.#leader = { pid: entry.pid, startTime: entry.startTime, pgid: entry.pgid };
    }
    this.#adopt(table);
  }

  /** Sorts a whole table: tracks every running process of the tree in it; true if there is one. */
  #adopt(table: ProcessTable): boolean {
    const roots = [this.#leader, ...this.#tracked.values()];
    const group = this.#unreaped() || this.#ownsGroup(table) ? this.#leader.pid : undefined;
    const found = collectTree(table, roots, {
      group: this.#source.kind === 'windows' ? undefined : group,
      orphansKeepParent: this.#source.orphansKeepParent,
    });
    return this.#track(found);
  }

  #track(found: readonly TrackedProcess[]): boolean {
    for (const tracked of found) this.#tracked.set(tracked.pid, tracked);
    return found.length > 0;
  }

  /** The leader's pid as group and session id, while those ids are still ours (/proc only). */
  #group(): number | undefined {
    return this.#unreaped() || this.#ownsGroup(undefined) ? this.#leader.pid : undefined;
  }

  /**
   * Whether the ids of the leader's group and session are still ours. The kernel does not hand a
   * pid out again while a group or session of that number has members, so they are ours unless
   * the number now names a different process (the group died out and the pid was recycled). Read
   * from /proc, or else from `table`; with neither, assumed ours, as a signal to a group that no
   * longer exists reaches nobody.
   */
  #ownsGroup(table: ProcessTable | undefined): boolean {
    const leader = this.#leader;
    const entry = this.#source.kind === 'proc' ? readStat(leader.pid) : table?.get(leader.pid);
    if (entry === undefined) return true;
    return entry.startTime === leader.startTime;
  }

  /**
   * Whether `tracked` is, now, the very process we recorded: from /proc at this moment, or else
   * in the table just read. Without a table nothing is confirmed, so nothing is signalled by pid.
   */
  #confirmed(tracked: TrackedProcess, table: ProcessTable | undefined): boolean {
    if (this.#source.kind === 'proc') return isRunning(tracked);
    const entry = table?.get(tracked.pid);
    return entry?.running === true && entry.startTime === tracked.startTime;
  }

  /**
   * Without a table: whether any process we know of may still be there. A pid in use again only
   * makes the wait longer; it is never signalled without a read that confirms it.
   */
  #anyKnownExists(): boolean {
    const kind = this.#source.kind;
    if (kind !== 'windows' && groupExists(this.#leader.pid)) return true;
    return [...this.#tracked.values()].some(({ pid }) => exists(pid));
  }
}

/** The table `read` gives, or undefined when it fails (no `ps` on the PATH, say). */
function readOrNothing(read: () => ProcessTable): ProcessTable | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

interface TreeRules {
  /** The leader's pid, while it is still the id of the server's group and session (POSIX). */
  readonly group: number | undefined;
  /** ProcessTableSource.orphansKeepParent: Windows. */
  readonly orphansKeepParent: boolean;
}

/**
 * Every running process of `table` that belongs to a server's tree: the descendants of `roots`
 * (each followed only while its start time matches), plus every member of process group or
 * session `group` when given, plus their descendants.
 *
 * Where an orphan keeps its parent's pid (Windows), a parent that is gone does not end the walk:
 * its children that started after it are its own, and one that started before it is the child of
 * an earlier owner of the pid. The same holds below a parent that runs, as its pid, too, may have
 * been someone else's. Start times there sort as text (windows.ts).
 */
function collectTree(
  table: ProcessTable,
  roots: Iterable<TrackedProcess>,
  { group, orphansKeepParent }: TreeRules,
): TrackedProcess[] {
  const children = new Map<number, number[]>();
  for (const entry of table.values()) {
    const siblings = children.get(entry.ppid);
    if (siblings === undefined) children.set(entry.ppid, [entry.pid]);
    else siblings.push(entry.pid);
  }
  const found = new Map<number, TrackedProcess>();
  const visitChildren = (parent: Pick<ProcessEntry, 'pid' | 'startTime'>): void => {
    for (const child of children.get(parent.pid) ?? []) {
      const startTime = table.get(child)?.startTime;
      if (!orphansKeepParent || (startTime !== undefined && startTime >= parent.startTime)) {
        visit(child);
      }
    }
  };
  const visit = (pid: number): void => {
    const entry = table.get(pid);
    if (entry === undefined || !entry.running || found.has(pid)) return;
    found.set(pid, { pid, startTime: entry.startTime, pgid: entry.pgid });
    visitChildren(entry);
  };
  for (const root of roots) {
    const entry = table.get(root.pid);
    if (entry?.startTime === root.startTime) visit(root.pid);
    else if (orphansKeepParent && entry === undefined && root.startTime !== UNKNOWN) {
      visitChildren(root);
    }
  }
  if (group !== undefined) {
    for (const entry of table.values()) {
      if (entry.pgid === group || entry.sid === group) visit(entry.pid);
    }
  }
  return [...found.values()];
}
