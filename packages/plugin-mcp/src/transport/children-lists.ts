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
import { sharedRead } from './process-table/table.js';
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
 * The running children of this process and of each of its ancestors: where the orphans of every
 * server's tree are. Shared by the closes of one turn.
 */
export const nextAdoptedChildren = sharedRead(() => adoptedChildren(NONE));

/**
 * The same look, made now and passing over `strangers` (a ServerTree's) and our ancestors. An
 * ancestor is passed over only where this very look proves it is ours: a pid it left behind could
 * be an orphan's by now. Its own list is the proof: a process whose list names the one below it in
 * the chain, itself proven (this process is, as it runs), is that one's parent, which only the
 * ancestor we recorded can be (a reaper that adopted the one below when the ancestor died is an
 * older process, with a pid of its own). The lists are read from the top down, so an ancestor
 * proven by its own list ran all through the read of its parent's, where it is listed: it cannot
 * have made that read skip a sibling (runningChildren), and needs no signal 0 as a stranger does.
 */
export function adoptedChildren(strangers: ReadonlySet<number>): ProcEntry[] {
  const chain = ourAncestry();
  const read = ({ entry, list }: Ancestor): number[] =>
    list === undefined ? childPids(entry) : readChildList(list);
  const lists = new Array<number[]>(chain.length);
  for (let index = chain.length - 1; index >= 0; index--) {
    lists[index] = read(chain[index] as Ancestor);
  }
  const look = { stats: 0 };
  const children: ProcEntry[] = [];
  // The ancestor below the one whose list is sorted, while proven ours.
  let below: number | undefined;
  for (const [index, ancestor] of chain.entries()) {
    const pids = lists[index] as number[];
    const first = { pids, passed: below };
    children.push(...runningChildren(ancestor.entry, strangers, look, first, () => read(ancestor)));
    below =
      index === 0 || (below !== undefined && pids.includes(below)) ? ancestor.entry.pid : undefined;
  }
  if (strangers === NONE) lastLookStats = look.stats;
  return children;
}

/**
 * Above this many stats in a look at our ancestors' children, a close reads them ahead, while the
 * server exits (ServerTree.noteStrangers), and after the exit looks only at the others. Under it
 * the look after the exit is cheap as it is, and a read ahead would only take CPU time from the
 * server that is exiting: a CLI or a host started from a shell has a handful; a desktop's init and
 * service manager have hundreds.
 */
const CROWDED_STATS = 16;

/** How many stats the last whole look at our ancestors' children read; none before the first. */
let lastLookStats = 0;

/** Whether our ancestors' children were many at the last whole look (CROWDED_STATS). */
export function ancestorsCrowded(): boolean {
  return lastLookStats > CROWDED_STATS;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * How long a tree's strangers are trusted. A pid is handed out again only after the kernel has
 * gone round all the others (pid_max, 32768 at the least), which no machine does within a second.
 */
export const STRANGERS_MS = 1000;

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

/**
 * The running children of a process, but for `strangers`. The kernel builds a children list one
 * child at a time, and when the child it printed last has been reaped meanwhile it goes on by
 * position, skipping a sibling. So a list with a child that is gone by the time we look at it is
 * read again (a few times at most: a parent that reaps all the time, such as init, may never hold
 * still); of a stranger only that is asked, with a signal 0 instead of a read of its stat.
 * `first`: the list already read, and a child on it that is known to have run all through that
 * read (adoptedChildren); `list` reads it again (by default by its path).
 */
function runningChildren(
  parent: Walkable,
  strangers = NONE,
  look = { stats: 0 },
  first: FirstRead | undefined = undefined,
  list = () => childPids(parent),
): ProcEntry[] {
  const running = new Map<number, ProcEntry>();
  for (let read = 0; read < CHILD_LIST_READS; read++) {
    let steady = true;
    const pids = read === 0 && first !== undefined ? first.pids : list();
    for (const child of pids) {
      if (read === 0 && child === first?.passed) continue;
      if (strangers.has(child)) {
        if (!exists(child)) steady = false;
        continue;
      }
      look.stats++;
      const entry = readStat(child);
      if (entry === undefined) steady = false;
      else if (entry.running) running.set(child, entry);
    }
    if (steady) break;
  }
  return [...running.values()];
}
