// A stdio server's process tree: who belongs to it, whether each one still runs, and how to signal
// it without ever hitting a process that merely inherited a recycled pid.
//
// PLATFORM: the tree is seen through Linux's /proc (process-table.ts). Elsewhere there is nothing
// to read, so only the server's process group is signalled and watched.

import { constants } from 'node:os';
import {
  childPids,
  hasChildLists,
  ignoresSignal,
  nextProcessTable,
  type ProcessEntry,
  type ProcessTable,
  readProcessTable,
  readStat,
  sharedRead,
} from './process-table.js';

/** A process we may kill: its pid plus the start time that proves the pid was not recycled. */
export type TrackedProcess = Pick<ProcessEntry, 'pid' | 'startTime' | 'pgid'>;

const LINUX = process.platform === 'linux';

/**
 * The identity of a process we just spawned. Where it cannot be read (non-Linux, or already gone)
 * the start time is unknown and never matches, so the record only ever names the group.
 */
export function identify(pid: number): TrackedProcess {
  const entry = LINUX ? readStat(pid) : undefined;
  return entry === undefined ? { pid, startTime: '?', pgid: pid } : entry;
}

/**
 * The processes of one server's tree that we know of, grown by every look and never shrunk. The
 * server is spawned as the leader of its own process group and session, so the tree is: the
 * leader's descendants, plus every member of its group or session (a helper whose parent died is
 * no descendant any more, but stays in the group), plus their descendants.
 *
 * Reading the whole process table costs 15-50 µs per process on the machine, too much for a close
 * that must end well under 100 ms on a machine with hundreds of them. So where the kernel keeps
 * children lists, the quick path reads only the tree and the children of our own ancestors, and
 * the whole table is read on the slow path (before each signal) and as a backstop.
 */
export class ServerTree {
  readonly #leader: TrackedProcess;
  /** Whether Node has not reaped the leader yet (see ReapableTransport.unreaped). */
  readonly #unreaped: () => boolean;
  readonly #tracked = new Map<number, TrackedProcess>();
  /** Whether the kernel keeps children lists; without them every look reads the whole table. */
  readonly #childLists: boolean;
  /**
   * The children of our ancestors that belonged to neither the server's group nor its session
   * while the server still ran, read once it had been told to stop. None of them can ever join
   * either (a session cannot be joined, and a group only from within its session), so the look
   * for orphans right after the server exits passes over them instead of reading each one's stat
   * again: on a desktop, init and the user's service manager have a hundred children between them.
   */
  #strangers: { readonly pids: ReadonlySet<number>; readonly at: number } | undefined;

  /**
   * The snapshot, taken before the server's stdin is closed, while every parent link still holds:
   * a helper that moved to a session of its own (setsid) is found only through its parent, and
   * the parent may exit on EOF.
   *
   * It reads each process's main-thread children list only. Reading every thread's makes each of
   * those threads slower to exit (the kernel drops the /proc entries the read created, ~0.2 ms a
   * thread here): a Node server has a dozen threads, and a polite close waits for its exit. A
   * child forked by another thread (Go, a Rust runtime's worker) is still found: by its group or
   * session, or by the whole-table read before SIGTERM while its parent runs. Only one that left
   * the session and whose parent exits on EOF within the stdin grace is out of reach.
   */
  constructor(leader: TrackedProcess, unreaped: () => boolean) {
    this.#leader = leader;
    this.#unreaped = unreaped;
    this.#childLists = LINUX && hasChildLists();
    if (this.#childLists && unreaped()) {
      // Its pid is its own, and a zombie's children list is empty: no read of its stat first, the
      // costliest read of a live server (its threads are summed), which would hold up its EOF.
      this.#track(walkDown([{ ...leader, running: true, threads: 1 }]));
    } else if (this.#childLists) {
      const entry = readStat(leader.pid);
      const running = entry?.running === true && entry.startTime === leader.startTime;
      this.#track(walkDown(running ? [entry] : []));
    } else if (LINUX) {
      this.#adopt(readProcessTable());
    }
  }

  /** Whether nothing of the tree runs any more; first looks for processes not tracked yet. */
  async gone(): Promise<boolean> {
    // An exited leader is a zombie until Node reaps it and fires 'exit', which wakes us. Until
    // then it is still a member of its group, and the group check below could not tell; nothing
    // needs reading to know that. Once reaped it is gone: only the rest of the tree is looked at.
    if (this.#unreaped()) return false;
    if (!LINUX) return !groupExists(this.#leader.pid);
    const leader = this.#leader.pid;
    const others = [...this.#tracked.values()].filter(({ pid }) => pid !== leader);
    if (others.some(isRunning)) return false;
    if (this.#childLists) {
      if (await this.#adoptOrphans()) return false;
      // A member of the group that the quick look cannot see: one below a helper that left the
      // session after it forked. Only the whole table shows it.
      const group = this.#group();
      if (group === undefined || !groupExists(group)) return true;
    }
    return !this.#adopt(await nextProcessTable());
  }

  /**
   * Signals the group, then each tracked process that left it. Reads the whole table first: a
   * server that needed a signal is on the slow path anyway, and children it started during the
   * grace are found only while their parent runs.
   */
  async signal(signal: NodeJS.Signals): Promise<void> {
    if (LINUX) this.#adopt(await nextProcessTable());
    signalGroup(this.#leader, signal);
    for (const tracked of this.#tracked.values()) {
      if (tracked.pgid !== this.#leader.pid) signalTracked(tracked, signal);
    }
  }

  /**
   * Whether some process of the tree still runs and every one that does ignores `signal`: then
   * waiting for the signal to end them is waiting for nothing. False where it cannot be seen
   * (non-Linux), so the grace is waited out there.
   */
  ignores(signal: NodeJS.Signals): boolean {
    if (!LINUX) return false;
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
  async #adoptOrphans(): Promise<boolean> {
    const strangers = this.#strangers;
    const candidates =
      strangers !== undefined && Date.now() - strangers.at < STRANGERS_MS
        ? adoptedChildren(strangers.pids)
        : await nextAdoptedChildren();
    const group = this.#group();
    if (group === undefined) return false;
    const orphans = candidates.filter((child) => child.pgid === group || child.sid === group);
    return this.#track(walkDown(orphans));
  }

  /**
   * Reads #strangers; the reaper calls it once the server's stdin is ended, so that the read
   * never holds up the end: it happens while the server is on its way out.
   */
  noteStrangers(): void {
    if (!this.#childLists) return;
    nextAdoptedChildren().then(
      (children) => {
        const group = this.#group();
        if (group === undefined) return;
        const pids = children
          .filter((child) => child.pgid !== group && child.sid !== group)
          .map((child) => child.pid);
        this.#strangers = { pids: new Set(pids), at: Date.now() };
      },
      // Without them the look after the exit reads every child, as it would anyway.
      () => {},
    );
  }

  /** Sorts a whole table: tracks every running process of the tree in it; true if there is one. */
  #adopt(table: ProcessTable): boolean {
    const roots = [this.#leader, ...this.#tracked.values()];
    return this.#track(collectTree(table, roots, this.#group()));
  }

  #track(found: readonly TrackedProcess[]): boolean {
    for (const tracked of found) this.#tracked.set(tracked.pid, tracked);
    return found.length > 0;
  }

  /** The leader's pid as group and session id, while those ids are still ours. */
  #group(): number | undefined {
    return this.#unreaped() || ownsGroup(this.#leader) ? this.#leader.pid : undefined;
  }
}

/** What a walk down the children lists needs of a process. */
type Walkable = TrackedProcess & Pick<ProcessEntry, 'running' | 'threads'>;

/** `roots` and their running descendants, down the children lists. */
function walkDown(roots: readonly Walkable[]): Walkable[] {
  const found = [...roots];
  for (let next = 0; next < found.length; next++) {
    found.push(...runningChildren(found[next] as Walkable));
  }
  return found;
}

/**
 * The running children of this process and of each of its ancestors: where the orphans of every
 * server's tree are. Shared by the closes of one turn.
 */
const nextAdoptedChildren = sharedRead(() => adoptedChildren(NONE));

/** The same look, made now and passing over `strangers` (a ServerTree's). */
function adoptedChildren(strangers: ReadonlySet<number>): ProcessEntry[] {
  return ourAncestry().flatMap((parent) => runningChildren(parent, strangers));
}

const NONE: ReadonlySet<number> = new Set();

/**
 * How long a tree's strangers are trusted. A pid is handed out again only after the kernel has gone
 * round all the others (pid_max, 32768 at the least), which no machine does within a second.
 */
const STRANGERS_MS = 1000;

let ancestry: readonly ProcessEntry[] | undefined;

/**
 * This process and its ancestors up to init, read on the first close. An orphan goes to its
 * nearest living ancestor that is a subreaper, or to init; for a process of a server's tree every
 * such ancestor was already an ancestor of ours when we first looked, because an ancestor that
 * dies only drops out of the chain and nobody new ever gets into it. So the chain is read once
 * instead of a stat read per ancestor on every close.
 */
function ourAncestry(): readonly ProcessEntry[] {
  if (ancestry === undefined) {
    const chain: ProcessEntry[] = [];
    for (let entry = readStat(process.pid); entry !== undefined; entry = readStat(entry.ppid)) {
      chain.push(entry);
    }
    ancestry = chain;
  }
  return ancestry;
}

/** How often a children list is read again when a child on it went away during the read. */
const CHILD_LIST_READS = 3;

/**
 * The running children of a process, but for `strangers`. The kernel builds a children list one
 * child at a time, and when the child it printed last has been reaped meanwhile it goes on by
 * position, skipping a sibling. So a list with a child that is gone by the time we look at it is
 * read again (a few times at most: a parent that reaps all the time, such as init, may never hold
 * still); of a stranger only that is asked, with a signal 0 instead of a read of its stat.
 */
function runningChildren(parent: Walkable, strangers = NONE): ProcessEntry[] {
  const running = new Map<number, ProcessEntry>();
  for (let read = 0; read < CHILD_LIST_READS; read++) {
    let steady = true;
    for (const child of childPids(parent)) {
      if (strangers.has(child)) {
        if (!exists(child)) steady = false;
        continue;
      }
      const entry = readStat(child);
      if (entry === undefined) steady = false;
      else if (entry.running) running.set(child, entry);
    }
    if (steady) break;
  }
  return [...running.values()];
}

/**
 * Every running process of `table` that belongs to a server's tree: the descendants of `roots`
 * (each followed only while its start time matches), plus every member of process group or
 * session `group` when given, plus their descendants.
 */
function collectTree(
  table: ProcessTable,
  roots: Iterable<TrackedProcess>,
  group: number | undefined,
): TrackedProcess[] {
  const children = new Map<number, number[]>();
  for (const entry of table.values()) {
    const siblings = children.get(entry.ppid);
    if (siblings === undefined) children.set(entry.ppid, [entry.pid]);
    else siblings.push(entry.pid);
  }
  const found = new Map<number, TrackedProcess>();
  const visit = (pid: number): void => {
    const entry = table.get(pid);
    if (entry === undefined || !entry.running || found.has(pid)) return;
    found.set(pid, { pid, startTime: entry.startTime, pgid: entry.pgid });
    for (const child of children.get(pid) ?? []) visit(child);
  };
  for (const root of roots) {
    if (table.get(root.pid)?.startTime === root.startTime) visit(root.pid);
  }
  if (group !== undefined) {
    for (const entry of table.values()) {
      if (entry.pgid === group || entry.sid === group) visit(entry.pid);
    }
  }
  return [...found.values()];
}

/**
 * Whether the ids of `leader`'s group and session are still ours. The kernel does not hand a pid
 * out again while a group or session of that number has members, so they are ours unless the
 * number now names a different process (the group died out and the pid was recycled).
 */
function ownsGroup(leader: TrackedProcess): boolean {
  const entry = LINUX ? readStat(leader.pid) : undefined;
  return entry === undefined || entry.startTime === leader.startTime;
}

/** True while the very process we recorded (same pid, same start time) still runs. */
function isRunning(tracked: TrackedProcess): boolean {
  const entry = readStat(tracked.pid);
  return entry?.running === true && entry.startTime === tracked.startTime;
}

/** Signals the recorded process, and never a stranger that reuses its pid. */
function signalTracked(tracked: TrackedProcess, signal: NodeJS.Signals): void {
  if (isRunning(tracked)) sendSignal(tracked.pid, signal);
}

/**
 * Signals `leader`'s whole process group while the group is still ours.
 * PLATFORM: Windows has no POSIX process groups; there this signals the leader alone.
 */
function signalGroup(leader: TrackedProcess, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') sendSignal(leader.pid, signal);
  else if (ownsGroup(leader)) sendSignal(-leader.pid, signal);
}

/**
 * Whether process `target` (a process group when negative) is still there, running or not yet
 * reaped; one we may not signal is there too.
 */
function exists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether any process of `leader`'s group is left (PLATFORM: on Windows, the leader itself). */
function groupExists(leader: number): boolean {
  return exists(process.platform === 'win32' ? leader : -leader);
}

function sendSignal(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: it exited between our look and the signal, which is what we wanted anyway.
  }
}
