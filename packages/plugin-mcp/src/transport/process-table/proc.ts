// The process table read from Linux's /proc: one process's stat line, a process's children, its
// ignored signals, and the whole table. Every read goes through one reused buffer, because a close
// may read hundreds of these files and `readFileSync` costs about five times more per file (it
// stats first, then grows its buffer for /proc's zero-sized files).
//
// PLATFORM: Linux only (select.ts). Beyond the whole table it gives the reaper's quick paths:
// one process at a time, and children lists.

import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { type ProcessEntry, type ProcessTableSource, sharedRead } from './table.js';

/** An entry as /proc/<pid>/stat tells it: the start time is field 22 (clock ticks since boot). */
export interface ProcEntry extends ProcessEntry {
  /** Field 20: how many threads, each with a children list of its own. */
  readonly threads: number;
}

/** Large enough for a children list of thousands of pids; a stat line is a few hundred bytes. */
const buffer = Buffer.alloc(64 * 1024);

/**
 * The text of a /proc file, or undefined when it is gone. One read: a /proc file hands its whole
 * text to a read that has room for it.
 */
function readProcFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return readOpen(fd);
  } finally {
    closeSync(fd);
  }
}

/** The text of an open /proc file, made anew by each read from its start (pread at 0). */
function readOpen(fd: number): string | undefined {
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    // ESRCH: the process went away between open and read.
    return undefined;
  }
}

export function readStat(pid: number): ProcEntry | undefined {
  const text = readProcFile(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  // The command name (field 2) is parenthesised and may itself contain spaces and parentheses, so
  // the fixed fields are counted from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ', 20);
  const [state, ppid, pgid, sid] = fields;
  const threads = fields[17];
  const startTime = fields[19];
  if (state === undefined || threads === undefined || startTime === undefined) return undefined;
  return {
    pid,
    startTime,
    ppid: Number(ppid),
    pgid: Number(pgid),
    sid: Number(sid),
    running: state !== 'Z' && state !== 'X',
    threads: Number(threads),
  };
}

/**
 * Whether the process ignores signal number `signo` (SIG_IGN: the SigIgn mask of its status, which
 * holds for all its threads); undefined when it is gone. A process that only catches it (a
 * handler) may still exit because of it, so that is not ignoring.
 */
export function ignoresSignal(pid: number, signo: number): boolean | undefined {
  const text = readProcFile(`/proc/${pid}/status`);
  const mask = text === undefined ? undefined : /^SigIgn:\s*([0-9a-f]+)$/m.exec(text)?.[1];
  if (mask === undefined) return undefined;
  return (BigInt(`0x${mask}`) & (1n << BigInt(signo - 1))) !== 0n;
}

/** The whole process table: a stat read per process, 15-50 µs for each one on the machine. */
export function readProcessTable(): Map<number, ProcEntry> {
  const table = new Map<number, ProcEntry>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const entry = readStat(pid);
    if (entry !== undefined) table.set(pid, entry);
  }
  return table;
}

export const procSource: ProcessTableSource = {
  kind: 'proc',
  next: sharedRead(readProcessTable),
  now: readProcessTable,
  orphansKeepParent: false,
};

let childLists: boolean | undefined;

/**
 * Whether the kernel keeps a list of each thread's children (Linux 3.5 and later, built with
 * CONFIG_PROC_CHILDREN). Without them only the whole table tells who is whose child.
 */
export function hasChildLists(): boolean {
  childLists ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childLists;
}

/**
 * The pids of a process's children listed by its main thread; [] when it is gone. A child is
 * listed by the thread that forked it, and the kernel hands an orphan to the main thread of its
 * new parent, or to another thread while the main thread exits: so a process that no longer runs
 * has every thread's list read (a directory read saved when there is just one thread). Only where
 * hasChildLists().
 * Each thread whose /proc files were opened pays for it at its exit (the kernel drops their
 * cached entries), ~0.2 ms here: the reason not to read every thread's list of a running process.
 */
export function childPids(parent: Pick<ProcEntry, 'pid' | 'running' | 'threads'>): number[] {
  const { pid } = parent;
  let tids: readonly string[] = [String(pid)];
  if (parent.threads > 1 && !parent.running) {
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return [];
    }
  }
  const children: number[] = [];
  for (const tid of tids) {
    pushPids(children, readProcFile(`/proc/${pid}/task/${tid}/children`));
  }
  return children;
}

/**
 * A process's main-thread children list, opened to be read again and again (readChildList): a
 * read of an open list costs a fifth of an open, read and close, where a close waits for it. It
 * stays the list of that very process: once it has exited the list reads empty, even when its
 * pid names another process by then. Undefined when it cannot be opened.
 */
export function openChildList(pid: number): number | undefined {
  try {
    return openSync(`/proc/${pid}/task/${pid}/children`, 'r');
  } catch {
    return undefined;
  }
}

/** The pids on a list openChildList() opened, as they are now; [] once its process is gone. */
export function readChildList(fd: number): number[] {
  return pushPids([], readOpen(fd));
}

function pushPids(pids: number[], text: string | undefined): number[] {
  for (const word of (text ?? '').split(' ')) {
    if (word !== '') pids.push(Number(word));
  }
  return pids;
}
