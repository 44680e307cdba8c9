// Signals by pid on POSIX, and whether a process is still there: signal 0 asks after a process or a
// whole group without reading a table, /proc after the very process (pid and start time). A signal
// that finds its process gone already is no failure.
import { readStat } from './process-table/proc.js';
import type { TrackedProcess } from './tracked-process.js';

/** True while the very process we recorded (same pid, same start time) still runs (/proc). */
export function isRunning(tracked: TrackedProcess): boolean {
  const entry = readStat(tracked.pid);
  return entry?.running === true && entry.startTime === tracked.startTime;
}

/** Signals `leader`'s whole process group if `owned` (ServerTree's #ownsGroup). */
export function signalGroup(leader: TrackedProcess, signal: NodeJS.Signals, owned: boolean): void {
  if (owned) sendSignal(-leader.pid, signal);
}

/**
 * Whether process `target` (a process group when negative) is still there, running or not yet
 * reaped; one we may not signal is there too.
 */
export function exists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether any process of `leader`'s group is left (POSIX). */
export function groupExists(leader: number): boolean {
  return exists(-leader);
}

export function sendSignal(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: it exited between our look and the signal, which is what we wanted anyway.
  }
}
