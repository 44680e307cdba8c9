// The process table read on Windows, and how a tree is ended there. Windows has no process groups,
// no sessions in the POSIX sense and no SIGTERM a console program can catch, so the table is
// pid, parent pid and creation time, and ending a process is TerminateProcess, by taskkill.
//
// The table comes from PowerShell's `Get-CimInstance Win32_Process` (tasklist gives no parent or
// creation time; wmic is deprecated and gone from current Windows). One PowerShell start costs
// far more than a ps call (its runtime loads), which is why the reaper reads it only when the
// server did not end on EOF at once, and never polls it faster than it answers.
//
// CreationDate is asked for as UTC in the round-trip format ('o': 2024-01-02T15:04:05.1234567Z):
// fixed width and free of the user's culture, so start times compare as text, which the reaper
// needs here (table.ts, `orphansKeepParent`). CSV keeps every value a plain string.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type ProcessEntry, type ProcessTableSource, sharedRead } from './table.js';

const SCRIPT = [
  'Get-CimInstance Win32_Process',
  "Select-Object ProcessId,ParentProcessId,@{Name='CreationDate';Expression={if ($_.CreationDate) { $_.CreationDate.ToUniversalTime().ToString('o') }}}",
  'ConvertTo-Csv -NoTypeInformation',
].join(' | ');

/** The command that reads the table: Windows PowerShell, which every Windows since 10 has. */
export const TABLE_COMMAND = {
  file: 'powershell.exe',
  args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', SCRIPT],
} as const;

const HEADER = ['ProcessId', 'ParentProcessId', 'CreationDate'];
/** A CSV field as ConvertTo-Csv writes it: quoted (quotes doubled inside), or bare when empty. */
const FIELD = /"((?:[^"]|"")*)"|([^,]*)/y;

/** The fields of one CSV line. */
function fields(line: string): string[] {
  const out: string[] = [];
  FIELD.lastIndex = 0;
  for (;;) {
    const match = FIELD.exec(line);
    if (match === null) return out;
    out.push(match[1] === undefined ? (match[2] ?? '') : match[1].replace(/""/g, '"'));
    if (FIELD.lastIndex >= line.length) return out;
    // Past the comma that ends this field.
    FIELD.lastIndex++;
  }
}

/**
 * The table in the CSV that TABLE_COMMAND prints. A process without a creation date (the System
 * Idle Process) is left out: its identity cannot be proved, and it is never ours. Throws when
 * the header is not the one asked for (the reaper then falls back to what it recorded).
 */
export function parseWin32Processes(text: string): Map<number, ProcessEntry> {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines.shift();
  if (header === undefined || fields(header).join() !== HEADER.join()) {
    throw new Error(`Get-CimInstance printed ${JSON.stringify(header)}, not the columns asked for`);
  }
  const table = new Map<number, ProcessEntry>();
  for (const line of lines) {
    const [pid, ppid, created] = fields(line);
    if (!isWhole(pid) || !isWhole(ppid) || created === undefined || created === '') continue;
    table.set(Number(pid), {
      pid: Number(pid),
      startTime: created,
      ppid: Number(ppid),
      pgid: 0,
      sid: 0,
      // The list holds the processes that run; one that has exited is not in it.
      running: true,
    });
  }
  return table;
}

function isWhole(text: string | undefined): text is string {
  return text !== undefined && /^\d+$/.test(text);
}

/**
 * taskkill's arguments to end `pids` and, with /T, every process below each of them; /F because a
 * console program has no polite close that taskkill can send (that would be a window message).
 * The pids are those of the tree as just read, each one's start time checked.
 */
export function taskkillArgs(pids: readonly number[]): string[] {
  return ['/F', '/T', ...pids.flatMap((pid) => ['/PID', String(pid)])];
}

const run = promisify(execFile);

async function read(): Promise<Map<number, ProcessEntry>> {
  const { stdout } = await run(TABLE_COMMAND.file, TABLE_COMMAND.args, {
    encoding: 'latin1',
    windowsHide: true,
    maxBuffer: 64 * 1024 * 1024,
  });
  return parseWin32Processes(stdout);
}

/** Ends `pids` and their trees; resolves once taskkill has, whatever it says of pids gone meanwhile. */
export async function endTrees(pids: readonly number[]): Promise<void> {
  if (pids.length === 0) return;
  try {
    await run('taskkill.exe', taskkillArgs(pids), { windowsHide: true });
  } catch {
    // Exit 128: one of them ended between our look and taskkill, which is what we wanted anyway.
  }
}

export const windowsSource: ProcessTableSource = {
  kind: 'windows',
  next: sharedRead(read),
  now: undefined,
  orphansKeepParent: true,
};
