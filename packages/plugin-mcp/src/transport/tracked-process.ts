// A process the reaper may signal, known by its pid AND its start time, so that a pid handed out
// again is never taken for it; and the identity of a server just spawned.
import { childPids, readStat } from './process-table/proc.js';
import { processTableSource } from './process-table/select.js';
import type { ProcessEntry } from './process-table/table.js';

/** A process we may kill: its pid plus the start time that proves the pid was not recycled. */
export type TrackedProcess = Pick<ProcessEntry, 'pid' | 'startTime' | 'pgid'>;

/** The start time of a process not identified yet; no source ever reads it. */
export const UNKNOWN = '?';

/**
 * The identity of a process we just spawned. Only /proc reads one process cheaply; elsewhere (or
 * when it is already gone) the start time is unknown here, and the tree takes it from its first
 * read of the table, while Node has not reaped the process and so its pid is surely its own.
 */
export function identify(pid: number): TrackedProcess {
  const entry = processTableSource().kind === 'proc' ? readStat(pid) : undefined;
  if (entry === undefined) return { pid, startTime: UNKNOWN, pgid: pid };
  // Its children list read once now: the kernel makes the /proc entries that read needs on the
  // first one, and the snapshot of its close, which holds up the server's EOF, finds them made.
  childPids(entry);
  return entry;
}
