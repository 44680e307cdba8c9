// The processes a fixture server recorded in its pid file, and which of them still run: how the
// close bench counts what a close left behind, and how it cleans up after a close that left some.
// PLATFORM: Linux (/proc), like the reaper's own view of a process tree.
import { readFileSync } from 'node:fs';

/** The pids in `file`, each once; [] while nothing has been written. */
export function recordedPids(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [...new Set(text.split('\n').filter(Boolean).map(Number))];
}

/** Whether `pid` is a process that runs (a zombie has ended; it only waits to be reaped). */
export function isRunning(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Waits until `file` lists at least `count` pids (the server and its helpers are up). */
export async function untilRecorded(file, count, signal) {
  while (recordedPids(file).length < count) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** SIGKILLs every recorded process that still runs, and waits (bounded) until none does. */
export async function killSurvivors(file) {
  const survivors = recordedPids(file).filter(isRunning);
  for (const pid of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone between the look and the signal.
    }
  }
  const deadline = Date.now() + 5_000;
  while (survivors.some(isRunning) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
