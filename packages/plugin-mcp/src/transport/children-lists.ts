// The quick path to a server's tree on Linux: its processes found down the kernel's children lists,
// and the orphans of every tree among the children of our own ancestors, without reading the
// whole process table (15-50 µs a process) on every look of a close.
import {
  childPids,
  openChildList,
  type ProcEntry,
  readChildList,
  readStat,
} from './process-table/proc.js';
import { exists } from './signals.js';
import type { TrackedProcess } from './tracked-process.js';

/** What a walk down the children lists needs of a process. */
type Walkable = TrackedProcess & Pick<ProcEntry, 'running' | 'threads'>;

/** `roots` and their running descendants, down the children lists. */
export function walkDown(roots: readonly Walkable[]): Walkable[] {
  const found = [...roots];
  for (let next = 0; next < found.length; next++) {
    found.push(...runningChildren(found[next] as Walkable));
  }
  return found;
}

/**
 * What a stat told of a child of our ancestors, by pid, and when. A close passes over one that was
 * in neither its server's group nor its session: none of them can ever join either, whenever the
 * stat was read (a session cannot be joined, a group only from within its session, and no process
 * has a server's pid as its group or session id before that server starts). That holds while the
 * pid is still its own: one is handed out again only after the kernel has gone round all the
 * others (pid_max, 32768 at the least), which no machine does within STRANGERS_MS. Kept for the
 * whole process, so that the closes that follow one another (a host's reconnects, the servers of
 * a disconnectAll) read none of those stats again.
 */
const seen = new Map<number, Pick<ProcEntry, 'pgid' | 'sid'> & { readonly at: number }>();

/** How long a stat of a child of our ancestors is trusted (see `seen`). */
const STRANGERS_MS = 1000;

/** When refreshStrangers() last read the stats; a second read within half the trust is not needed. */
let refreshedAt = Number.NEGATIVE_INFINITY;

/**
 * Above this many other children of our ancestors, a close reads their stats ahead, while the
 * server exits (refreshStrangers). Under it, the few a look after an exit reads are kept for the
 * closes that follow, and a read ahead would only take CPU time from the server that is exiting: a
 * CLI or a host started from a shell has a handful; a desktop's init and service manager have
 * hundreds.
 */
const CROWDED = 16;

/** How many other children of our ancestors the last look saw; none before the first. */
let lastLookOthers = 0;

/**
 * The running children of this process and of each of its ancestors that are in `leader`'s group
 * or session: the orphans of its tree, made now. A child whose stat showed it in neither within
 * STRANGERS_MS is only asked whether it is still there (signal 0), not read again. An ancestor is
 * passed over only where this very look proves it is ours: a pid it left behind could be an
 * orphan's by now. Its own list is the proof: a process whose list names the one below it in the
 * chain, itself proven (this process is, as it runs), is that one's parent, which only the
 * ancestor we recorded can be (a reaper that adopted the one below when the ancestor died is an
 * older process, with a pid of its own). The lists are read from the top down, so an ancestor
 * proven by its own list ran all through the read of its parent's, where it is listed: it cannot
 * have made that read skip a sibling (runningChildren), and needs no signal 0 as a stranger does.
 */
export function adoptedOrphans(leader: number): ProcEntry[] {
  const chain = ourAncestry();
  const lists = readLists(chain);
  const now = Date.now();
  const stranger = (pid: number): boolean => {
    const known = seen.get(pid);
    return (
      known !== undefined &&
      now - known.at < STRANGERS_MS &&
      known.pgid !== leader &&
      known.sid !== leader
    );
  };
  const orphans: ProcEntry[] = [];
  let others = 0;
  // The ancestor below the one whose list is sorted, while proven ours.
  let below: number | undefined;
  for (const [index, ancestor] of chain.entries()) {
    const pids = lists[index] as number[];
    const first = { pids, passed: below };
    for (const child of runningChildren(ancestor.entry, stranger, first, () => read(ancestor))) {
      if (child.pgid === leader || child.sid === leader) orphans.push(child);
    }
    others += pids.length - (below !== undefined && pids.includes(below) ? 1 : 0);
    below =
      index === 0 || (below !== undefined && pids.includes(below)) ? ancestor.entry.pid : undefined;
  }
  lastLookOthers = others;
  forgetOld(now);
  return orphans;
}

/**
 * Where our ancestors have many other children (CROWDED), reads the stats of those `seen` has not
 * had for half of STRANGERS_MS, so that the look after a server's exit, which the close waits for,
 * finds them known. A close calls it once the server's stdin is ended: the reads happen while the
 * server is on its way out. The lists are read once each: a child a read skips is read after the
 * exit instead.
 */
export function refreshStrangers(): void {
  const now = Date.now();
  if (lastLookOthers <= CROWDED || now - refreshedAt < STRANGERS_MS / 2) return;
  refreshedAt = now;
  const chain = ourAncestry();
  const lists = readLists(chain);
  const ancestors = new Set(chain.map(({ entry }) => entry.pid));
  for (const pids of lists) {
    for (const pid of pids) {
      const known = seen.get(pid);
      if (ancestors.has(pid) || (known !== undefined && now - known.at < STRANGERS_MS / 2))
        continue;
      note(readStat(pid));
    }
  }
}

/**
 * Forgets what is past its trust: after every look, so that a host that runs for days keeps only
 * the few it could still pass over, however many pids came and went beside it.
 */
function forgetOld(now: number): void {
  for (const [pid, known] of seen) if (now - known.at >= STRANGERS_MS) seen.delete(pid);
}

/** Keeps what a stat told of a child of our ancestors (see `seen`). */
function note(entry: ProcEntry | undefined): void {
  if (entry?.running !== true) return;
  seen.set(entry.pid, { pgid: entry.pgid, sid: entry.sid, at: Date.now() });
}

/** Each ancestor's children list, read from the top down (see adoptedOrphans). */
function readLists(chain: readonly Ancestor[]): number[][] {
  const lists = new Array<number[]>(chain.length);
  for (let index = chain.length - 1; index >= 0; index--) {
    lists[index] = read(chain[index] as Ancestor);
  }
  return lists;
}

function read({ entry, list }: Ancestor): number[] {
  return list === undefined ? childPids(entry) : readChildList(list);
}

/** One process of our ancestry, and its children list held open (undefined if it could not be). */
interface Ancestor {
  readonly entry: ProcEntry;
  readonly list: number | undefined;
}

let ancestry: readonly Ancestor[] | undefined;

/**
 * This process and its ancestors up to init, read on the first close. An orphan goes to its
 * nearest living ancestor that is a subreaper, or to init; for a process of a server's tree every
 * such ancestor was already an ancestor of ours when we first looked, because an ancestor that
 * dies only drops out of the chain and nobody new ever gets into it. So the chain is read once
 * instead of a stat read per ancestor on every close, and each one's children list is kept open
 * for the life of this process: the look that follows a server's exit, which the close waits for,
 * is then a read per ancestor (a handful of descriptors, within descriptor-budget's RESERVE).
 */
function ourAncestry(): readonly Ancestor[] {
  if (ancestry === undefined) {
    const chain: Ancestor[] = [];
    for (let entry = readStat(process.pid); entry !== undefined; entry = readStat(entry.ppid)) {
      chain.push({ entry, list: openChildList(entry.pid) });
    }
    ancestry = chain;
  }
  return ancestry;
}

/** A children list read already, and the one child on it known to have run all through the read. */
interface FirstRead {
  readonly pids: readonly number[];
  readonly passed: number | undefined;
}

/** How often a children list is read again when a child on it went away during the read. */
const CHILD_LIST_READS = 3;

const NO_STRANGERS = (): boolean => false;

/**
 * The running children of a process, but for strangers (`stranger`, see adoptedOrphans). The
 * kernel builds a children list one child at a time, and when the child it printed last has been
 * reaped meanwhile it goes on by position, skipping a sibling. So a list with a child that is gone
 * by the time we look at it is read again (a few times at most: a parent that reaps all the time,
 * such as init, may never hold still); of a stranger only that is asked, with a signal 0 instead
 * of a read of its stat. `first`: the list already read, and a child on it that is known to have
 * run all through that read (adoptedOrphans); `list` reads it again (by default by its path).
 */
function runningChildren(
  parent: Walkable,
  stranger: (pid: number) => boolean = NO_STRANGERS,
  first: FirstRead | undefined = undefined,
  list = () => childPids(parent),
): ProcEntry[] {
  const running = new Map<number, ProcEntry>();
  for (let read = 0; read < CHILD_LIST_READS; read++) {
    let steady = true;
    const pids = read === 0 && first !== undefined ? first.pids : list();
    for (const child of pids) {
      if (read === 0 && child === first?.passed) continue;
      if (stranger(child)) {
        if (!exists(child)) steady = false;
        continue;
      }
      const entry = readStat(child);
      if (first !== undefined) note(entry);
      if (entry === undefined) steady = false;
      else if (entry.running) running.set(child, entry);
    }
    if (steady) break;
  }
  return [...running.values()];
}
