// A stdio server's process tree: who belongs to it, whether each one still runs, and how to signal
// it without ever hitting a process that merely inherited a recycled pid.
//
// PLATFORM: the tree walk reads Linux's /proc. Elsewhere there is no process table to read, so the
// callers fall back to the server's process group alone (`readProcessTable()` returns undefined).

import { readdirSync, readFileSync } from 'node:fs';

/** A process we may kill: its pid plus the start time that proves the pid was not recycled. */
export interface TrackedProcess {
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot), kept as text: it is only compared. */
  readonly startTime: string;
  /** Its process group when we looked. */
  readonly pgid: number;
}

interface ProcessEntry extends TrackedProcess {
  readonly ppid: number;
  readonly sid: number;
  /** Zombies (Z) and dead (X) entries hold no resources and cannot be signalled away. */
  readonly running: boolean;
}

export type ProcessTable = ReadonlyMap<number, ProcessEntry>;

function readStat(pid: number): ProcessEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is parenthesised and may itself contain spaces and parentheses, so
  // the fixed fields are counted from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgid, sid] = fields;
  const startTime = fields[19];
  if (state === undefined || startTime === undefined) return undefined;
  return {
    pid,
    startTime,
    ppid: Number(ppid),
    pgid: Number(pgid),
    sid: Number(sid),
    running: state !== 'Z' && state !== 'X',
  };
}

/** The whole process table, or undefined where there is no /proc (non-Linux). */
export function readProcessTable(): ProcessTable | undefined {
  if (process.platform !== 'linux') return undefined;
  const table = new Map<number, ProcessEntry>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const entry = readStat(pid);
    if (entry !== undefined) table.set(pid, entry);
  }
  return table;
}

/**
 * The identity of a process we just spawned. Where it cannot be read (non-Linux, or already gone)
 * the start time is unknown and never matches, so the record only ever names the group.
 */
export function identify(pid: number): TrackedProcess {
  const entry = process.platform === 'linux' ? readStat(pid) : undefined;
  return entry === undefined ? { pid, startTime: '?', pgid: pid } : entry;
}

/**
 * Every running process of a server's tree: the descendants of `roots` (each checked against its
 * start time), plus every member of process group or session `group` when given (the server is
 * spawned as the leader of both). The group catches a helper whose parent died before we looked;
 * the descendant walk catches one that moved to a session of its own (setsid) while its parent runs.
 */
export function collectTree(
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
export function ownsGroup(table: ProcessTable, leader: TrackedProcess): boolean {
  const entry = table.get(leader.pid);
  return entry === undefined || entry.startTime === leader.startTime;
}

/** True while the very process we recorded (same pid, same start time) still runs. */
export function isRunning(tracked: TrackedProcess): boolean {
  const entry = readStat(tracked.pid);
  return entry?.running === true && entry.startTime === tracked.startTime;
}

/** Signals the recorded process, and never a stranger that reuses its pid. */
export function signalTracked(tracked: TrackedProcess, signal: NodeJS.Signals): void {
  if (isRunning(tracked)) sendSignal(tracked.pid, signal);
}

/**
 * Signals `leader`'s whole process group. On Linux only while `table` shows the group is still ours
 * and has a running member.
 * PLATFORM: Windows has no POSIX process groups; there this signals the leader alone.
 */
export function signalGroup(
  leader: TrackedProcess,
  signal: NodeJS.Signals,
  table: ProcessTable | undefined,
): void {
  if (table !== undefined) {
    if (!ownsGroup(table, leader)) return;
    const members = [...table.values()].some((entry) => entry.pgid === leader.pid && entry.running);
    if (!members) return;
  }
  sendSignal(process.platform === 'win32' ? leader.pid : -leader.pid, signal);
}

/** PLATFORM (non-Linux fallback): whether any process of the group is left. */
export function groupExists(leader: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? leader : -leader, 0);
    return true;
  } catch {
    return false;
  }
}

function sendSignal(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: it exited between our look and the signal, which is what we wanted anyway.
  }
}
