// The process table read from one `ps -A -o …` call: macOS, and any POSIX system without /proc.
// On Linux it is picked only by EPOCH_PROCESS_TABLE=ps (select.ts), so that it is tested here.
//
// The columns are ones procps `ps` (Linux) and BSD `ps` (macOS) both give, with empty headers
// (`pid=`), so neither prints a header line:
//   pid ppid pgid sess stat lstart
// - `lstart` is the start time as a date to the second ("Tue Jan  2 15:04:05 2024"; the C locale
//   makes it the same words on both). It is last because it holds spaces. It never changes for a
//   process, unlike `etime`, which is measured from now. A pid handed out again within the same
//   second would pass for the process we recorded; pids go round their whole range first.
// - `sess` is the session id in procps only: BSD prints the kernel's session pointer there (or 0),
//   so elsewhere the session is taken as unknown (0), and a helper that left the server's group is
//   found through its parent only.
// - `stat` starts with the state letter; Z is a zombie on both.

import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { type ProcessEntry, type ProcessTableSource, sharedRead } from './table.js';

const COMMAND = 'ps';
const ARGS = ['-A', '-o', 'pid=,ppid=,pgid=,sess=,stat=,lstart='] as const;
const OPTIONS = {
  encoding: 'latin1',
  // Fixed words for the date, whatever the user's locale.
  env: { ...process.env, LC_ALL: 'C' },
  // Room for a machine with hundreds of thousands of processes, at about 60 bytes a line.
  maxBuffer: 64 * 1024 * 1024,
} as const;

/** Whether `sess` is a session id: procps, which is what Linux runs. */
const SESSIONS = process.platform === 'linux';

const LINE = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S.*?)\s*$/;

/**
 * The table in ps's output. A line that does not have the expected shape is left out (it cannot
 * be a process of ours we could prove the identity of); a short line of a process that exited
 * while ps read it is one.
 */
export function parsePs(text: string, sessions = SESSIONS): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (match === null) continue;
    const [, pid, ppid, pgid, sess, stat, lstart] = match as unknown as string[];
    const state = stat?.[0];
    table.set(Number(pid), {
      pid: Number(pid),
      // Runs of spaces pad the day of the month; one space makes the text the same on both.
      startTime: (lstart as string).replace(/\s+/g, ' '),
      ppid: Number(ppid),
      pgid: Number(pgid),
      sid: sessions && /^\d+$/.test(sess as string) ? Number(sess) : 0,
      running: state !== 'Z' && state !== 'X',
    });
  }
  return table;
}

function readNow(): Map<number, ProcessEntry> {
  return parsePs(execFileSync(COMMAND, ARGS, OPTIONS));
}

const run = promisify(execFile);

async function read(): Promise<Map<number, ProcessEntry>> {
  const { stdout } = await run(COMMAND, ARGS, OPTIONS);
  return parsePs(stdout);
}

export const psSource: ProcessTableSource = {
  kind: 'ps',
  next: sharedRead(read),
  now: readNow,
  orphansKeepParent: false,
};
