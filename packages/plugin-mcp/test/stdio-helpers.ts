// Helpers for the stdio transport tests: how to launch the fixture server (directly, or behind a
// `/bin/sh -c` launcher), the pids its process tree records, and an oracle for "is it still running"
// that reads /proc on its own rather than trusting the reaper's code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@epoch-agent/testkit';
import type { StdioLaunch } from '../src/transport/stdio.js';

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
   */
  readonly launcher?: 'node' | 'sh';
  readonly env?: Readonly<Record<string, string>>;
}

export function serverLaunch(options: LaunchOptions = {}): StdioLaunch {
  const flags = options.flags ?? [];
  const env = { ...options.env, ...(options.pidFile ? { PID_FILE: options.pidFile } : {}) };
  if (options.launcher === 'sh') {
    const line = [process.execPath, SERVER_FIXTURE, ...flags].map((word) => `'${word}'`).join(' ');
    return { name: 'fixture', command: '/bin/sh', args: ['-c', `${line}; exit $?`], env };
  }
  return { name: 'fixture', command: process.execPath, args: [SERVER_FIXTURE, ...flags], env };
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

/** Waits until process group `pgid` has `count` running members (read from /proc). */
export async function waitForGroup(pgid: number, count: number): Promise<void> {
  const members = () =>
    readdirSync('/proc').filter((name) => {
      const fields = statFields(Number(name));
      return fields !== undefined && fields[0] !== 'Z' && Number(fields[2]) === pgid;
    }).length;
  await waitUntil(
    () => members() >= count,
    () => `group ${pgid} to have ${count} members (it has ${members()})`,
  );
}

export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** The fields of /proc/<pid>/stat from the third (state) on; undefined when there is no such process. */
function statFields(pid: number): string[] | undefined {
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
  const fields = statFields(pid);
  if (fields === undefined || fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return { pid, startTime: fields[19] ?? '' };
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
