// Which of a test's processes still run, read from /proc (Linux), so a test can prove that nothing
// it started survives: pids the fixture recorded, checked by their start time so a reused pid is
// never taken for a survivor.
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessIdentity {
  readonly pid: number;
  /** /proc/<pid>/stat field 22: the process's start, in clock ticks since boot. */
  readonly start: string;
}

export function identify(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    const start = fields[19];
    return start === undefined ? undefined : { pid, start };
  } catch {
    return undefined;
  }
}

export function isRunning(process: ProcessIdentity): boolean {
  return identify(process.pid)?.start === process.start;
}

/** The pids in a fixture's PID_FILE; none when it does not exist yet. */
export function recordedPids(file: string): number[] {
  try {
    // Once each: a hostile fixture's helper records itself as well as being recorded by the
    // server that started it, so how many lines there are depends on who wrote first.
    return [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number))];
  } catch {
    return [];
  }
}

/** SIGKILLs whatever of `processes` still runs: a failed test must not leave them behind. */
export function killAll(processes: readonly ProcessIdentity[]): void {
  for (const p of processes.filter(isRunning)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** The processes whose command line holds `marker`: what is left of servers started with it. */
export async function processesWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(pid);
  }
  return found;
}
