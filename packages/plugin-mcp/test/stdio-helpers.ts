// Helpers for the stdio transport tests: how to launch the fixture server (directly, or behind a
// shell launcher: `/bin/sh -c`, or a `.cmd` file on Windows), the pids its process tree records,
// and an oracle for "is it still running" that asks the OS on its own rather than trusting the
// reaper's code: /proc on Linux, `ps -p` on other POSIX systems, Win32_Process on Windows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@epoch-agent/testkit';
import type { ProcessTableKind } from '../src/transport/process-table/table.js';
import type { StdioLaunch } from '../src/transport/stdio.js';

const WINDOWS = process.platform === 'win32';
const LINUX = process.platform === 'linux';

/**
 * The process tables the reaper can read on this machine: on Linux both /proc and `ps` (the macOS
 * path, picked by EPOCH_PROCESS_TABLE), so the suites that prove the reaper run under each.
 */
export const PROCESS_TABLES_HERE: readonly ProcessTableKind[] = WINDOWS
  ? ['windows']
  : LINUX
    ? ['proc', 'ps']
    : ['ps'];

export const SERVER_FIXTURE = fileURLToPath(
  new URL('./fixtures/stdio-server.mjs', import.meta.url),
);

export interface LaunchOptions {
  readonly flags?: readonly string[];
  /** Every process of the tree appends its pid here. */
  readonly pidFile?: string;
  /**
   * `sh`: through `/bin/sh -c`, the way `npx` and friends put a shell between us and the server.
   * The trailing `exit` keeps the shell from exec-ing the server, so it really stays in between.
   * On Windows a `.cmd` file instead, which cross-spawn starts through `cmd.exe /d /s /c`, the way
   * `npx` is `npx.cmd` there.
   */
  readonly launcher?: 'node' | 'sh';
  readonly env?: Readonly<Record<string, string>>;
}

export function serverLaunch(options: LaunchOptions = {}): StdioLaunch {
  const flags = options.flags ?? [];
  const env = { ...options.env, ...(options.pidFile ? { PID_FILE: options.pidFile } : {}) };
  if (options.launcher === 'sh' && WINDOWS) {
    const line = [process.execPath, SERVER_FIXTURE, ...flags].map((word) => `"${word}"`).join(' ');
    return {
      name: 'fixture',
      command: cmdFile(`@${line}\r\n@exit /b %errorlevel%\r\n`),
      args: [],
      env,
    };
  }
  if (options.launcher === 'sh') {
    const line = [process.execPath, SERVER_FIXTURE, ...flags].map((word) => `'${word}'`).join(' ');
    return { name: 'fixture', command: '/bin/sh', args: ['-c', `${line}; exit $?`], env };
  }
  return { name: 'fixture', command: process.execPath, args: [SERVER_FIXTURE, ...flags], env };
}

/** A `.cmd` file with `text`, one per distinct text, in the temp directory. */
function cmdFile(text: string): string {
  const name = `epoch-launch-${createHash('sha256').update(text).digest('hex').slice(0, 12)}.cmd`;
  const path = join(tmpdir(), name);
  if (!existsSync(path)) writeFileSync(path, text);
  return path;
}

export function readPids(file: string): number[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return [...new Set(lines.map(Number))];
}

/** Waits until the tree has recorded `count` distinct pids (its helpers start asynchronously). */
export function waitForPids(file: string, count: number): Promise<number[]> {
  return waitUntil(
    () => {
      const pids = readPids(file);
      return pids.length >= count ? pids : undefined;
    },
    () => `${count} pids recorded (there are ${readPids(file).length})`,
  );
}

/** Waits until process group `pgid` has `count` running members (POSIX). */
export async function waitForGroup(pgid: number, count: number): Promise<void> {
  await waitUntil(
    () => groupMembers(pgid) >= count,
    () => `group ${pgid} to have ${count} members (it has ${groupMembers(pgid)})`,
  );
}

export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** Running members of process group `pgid`. */
function groupMembers(pgid: number): number {
  if (LINUX) {
    return readdirSync('/proc').filter((name) => {
      const fields = statFields(Number(name));
      return fields !== undefined && fields[0] !== 'Z' && Number(fields[2]) === pgid;
    }).length;
  }
  const lines = execFileSync('ps', ['-A', '-o', 'pgid=,stat='], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => {
    const [group, state] = line.trim().split(/\s+/);
    return Number(group) === pgid && state !== undefined && !state.startsWith('Z');
  }).length;
}

/** The fields of /proc/<pid>/stat from the third (state) on; undefined when there is no such process. */
export function statFields(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The pid and start time of a running process; undefined when it is gone or a zombie. */
export function running(pid: number): ProcessIdentity | undefined {
  if (LINUX) {
    const fields = statFields(pid);
    if (fields === undefined || fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { pid, startTime: fields[19] ?? '' };
  }
  if (WINDOWS) {
    const created = run('powershell.exe', [
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      `(Get-CimInstance Win32_Process -Filter 'ProcessId=${pid}').CreationDate.Ticks`,
    ]);
    return created === '' ? undefined : { pid, startTime: created };
  }
  const line = run('ps', ['-o', 'stat=,lstart=', '-p', String(pid)], { LC_ALL: 'C' });
  if (line === '' || line.startsWith('Z')) return undefined;
  return { pid, startTime: line.slice(line.indexOf(' ') + 1) };
}

/** A command's trimmed output; '' when it fails (ps -p exits 1 when there is no such process). */
function run(file: string, args: string[], env?: Record<string, string>): string {
  try {
    const options = {
      encoding: 'utf8',
      env: { ...process.env, ...env },
      windowsHide: true,
    } as const;
    return execFileSync(file, args, options).trim();
  } catch {
    return '';
  }
}

export function identities(pids: readonly number[]): ProcessIdentity[] {
  return pids.map(running).filter((identity) => identity !== undefined);
}

/** The processes among `known` that still run (same pid, same start time). */
export function survivors(known: readonly ProcessIdentity[]): number[] {
  return known.filter((p) => running(p.pid)?.startTime === p.startTime).map((p) => p.pid);
}

/** Cleanup for a failed test: nothing it started may outlive it. */
export function killAll(known: readonly ProcessIdentity[]): void {
  for (const pid of survivors(known)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}
