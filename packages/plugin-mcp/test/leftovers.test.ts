// Servers a host left running when it died without close() (SIGKILL): the next process of ours to
// start a stdio server reaps them, going by the record the dead host kept in $EPOCH_HOME, and only
// them: a process that took a recorded pid since, or the servers of a host that still runs, are
// never signalled, and a damaged record is deleted with a warning. Real hosts (child processes on
// the built package), real servers that ignore stdin EOF, with a helper of their own; under each
// process table this machine can read. And a process's own record is settled by the close of its
// last server: nothing lands in $EPOCH_HOME after it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@epoch-agent/infra';
import { waitUntil } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leftoversDir, recordServer, sweepLeftovers } from '../src/transport/leftovers.js';
import { identify } from '../src/transport/tracked-process.js';
import {
  identities,
  killAll,
  PROCESS_TABLES_HERE,
  type ProcessIdentity,
  readPids,
  running,
  SERVER_FIXTURE,
  survivors,
  waitForPids,
} from './stdio-helpers.js';
import { memoryLogger } from './support/recording.js';

const HOST = fileURLToPath(new URL('./fixtures/leftover-host.mjs', import.meta.url));
/** A server that ignores stdin EOF, with a helper (SIGTERM and EOF ignored) in its group. */
const STUBBORN = [process.execPath, SERVER_FIXTURE, '--ignore-eof', '--child=ignore'];
const POLITE = [process.execPath, SERVER_FIXTURE];

interface Host {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  stderr(): string;
}

let dir: string;
let hosts: Host[];
let started: ProcessIdentity[];
const table = process.env.EPOCH_PROCESS_TABLE;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'epoch-leftovers-'));
  hosts = [];
  started = [];
});

afterEach(async () => {
  for (const host of hosts) host.child.kill('SIGKILL');
  await Promise.all(hosts.map((host) => host.exited));
  killAll(started);
  rmSync(dir, { recursive: true, force: true });
  rmSync(leftoversDir(), { recursive: true, force: true });
  if (table === undefined) delete process.env.EPOCH_PROCESS_TABLE;
  else process.env.EPOCH_PROCESS_TABLE = table;
});

/** Starts a host of `server` (its tree's pids go to `pidFile`); resolves once it is connected. */
async function startHost(server: readonly string[], pidFile: string): Promise<Host> {
  const child = spawn(process.execPath, [HOST, JSON.stringify(server)], {
    env: { ...process.env, PID_FILE: pidFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const host = { child, exited, stderr: () => err };
  hosts.push(host);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`host exited ${code}: ${err}`)));
  });
  return host;
}

/** The record files in $EPOCH_HOME/processes, by name. */
function records(): string[] {
  try {
    return readdirSync(leftoversDir()).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

/** Waits until the record of `host` names its server, and gives the record's path. */
async function recordOf(host: Host): Promise<string> {
  const pid = host.child.pid as number;
  await expect.poll(() => records().some((name) => name.startsWith(`${pid}-`))).toBe(true);
  return join(leftoversDir(), records().find((name) => name.startsWith(`${pid}-`)) as string);
}

/** A stubborn server's tree (server and helper) running under a host, as identities. */
async function stubbornTree(pidFile: string): Promise<{ host: Host; tree: ProcessIdentity[] }> {
  const host = await startHost(STUBBORN, pidFile);
  const tree = identities(await waitForPids(pidFile, 2));
  started.push(...tree);
  expect(tree).toHaveLength(2);
  return { host, tree };
}

describe.each(PROCESS_TABLES_HERE)('leftovers of a crashed host (process table %s)', (kind) => {
  beforeEach(() => {
    process.env.EPOCH_PROCESS_TABLE = kind;
  });

  it('a host killed with SIGKILL leaves its stubborn server and helper; the next start reaps both', async () => {
    const { host, tree } = await stubbornTree(join(dir, 'crashed'));
    const record = await recordOf(host);
    expect(statSync(record).mode & 0o777).toBe(0o600);
    host.child.kill('SIGKILL');
    await host.exited;
    expect(survivors(tree)).toEqual(tree.map(({ pid }) => pid));

    const next = await startHost(POLITE, join(dir, 'next'));
    await expect.poll(() => survivors(tree), { timeout: 60_000 }).toEqual([]);
    await expect.poll(() => next.stderr()).toContain('Reaped MCP servers');
    expect(records()).not.toContain(record.slice(leftoversDir().length + 1));
    // The next host closes politely: its own record goes with its last server.
    next.child.kill('SIGTERM');
    await next.exited;
    expect(records()).toEqual([]);
  }, 120_000);

  it('a record whose pid now belongs to another process (another start time) is not signalled', async () => {
    // It echoes what it is sent: an answer after the sweep proves it was not killed (a signal
    // takes effect a moment after it is sent, so a look at the process table right away would not).
    const stranger = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    await expect.poll(() => running(stranger.pid as number)).toBeDefined();
    const before = running(stranger.pid as number) as ProcessIdentity;
    started.push(before);
    // An owner that is gone: a process that has exited.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    mkdirSync(leftoversDir(), { recursive: true });
    const file = join(leftoversDir(), `${gone.pid}-1.json`);
    const record = {
      table: kind,
      owner: { pid: gone.pid, startTime: '1' },
      servers: [{ name: 'reused', pid: before.pid, startTime: `${before.startTime}0` }],
    };
    writeFileSync(file, JSON.stringify(record));
    const sweep = await sweepLeftovers({ reap: { termGraceMs: 100 } });
    expect(sweep.reaped).toEqual([]);
    expect(records()).toEqual([]);
    const answer = new Promise<string>((resolve) => {
      stranger.stdout?.setEncoding('utf8').once('data', resolve);
      stranger.once('exit', () => resolve('exited: it was killed'));
    });
    stranger.stdin?.write('still here\n');
    expect(await answer).toBe('still here\n');
    expect(running(before.pid)).toEqual(before);
    stranger.kill('SIGKILL');
  });

  it('two live hosts do not reap each other, and a sweep leaves both alone', async () => {
    const first = await stubbornTree(join(dir, 'first'));
    await recordOf(first.host);
    // The second host's own start swept, and found the first one alive.
    const second = await stubbornTree(join(dir, 'second'));
    await recordOf(second.host);
    const sweep = await sweepLeftovers({ reap: { termGraceMs: 100 } });
    expect(sweep.reaped).toEqual([]);
    expect(sweep.live).toBe(2);
    const both = [...first.tree, ...second.tree];
    expect(survivors(both)).toEqual(both.map(({ pid }) => pid));
    expect(second.host.stderr()).not.toContain('Reaped');
  });

  it('a damaged record does not hold up the start: a warning names it, and it is deleted', async () => {
    mkdirSync(leftoversDir(), { recursive: true });
    const junk = join(leftoversDir(), '123-456.json');
    writeFileSync(junk, '{"table":"proc","owner":');
    const host = await startHost(POLITE, join(dir, 'pids'));
    await expect.poll(() => host.stderr()).toContain(junk);
    expect(host.stderr()).toContain('deleted');
    await expect.poll(() => records().includes('123-456.json')).toBe(false);
    const logger = memoryLogger();
    writeFileSync(junk, Buffer.from([0xff, 0x00, 0x7b]));
    const sweep = await sweepLeftovers({ logger });
    expect(sweep.unreadable).toEqual([junk]);
    expect(logger.lines.some((line) => line.level === 'warn' && line.message.includes(junk))).toBe(
      true,
    );
    expect(readPids(join(dir, 'pids'))).toHaveLength(1);
  });
});

describe("this process's own record", () => {
  it('the last server gone while its record is being written: the record is deleted before the close is over, and no write is left pending', async () => {
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], {
      stdio: 'ignore',
    });
    await once(server, 'spawn');
    mkdirSync(leftoversDir(), { recursive: true });
    const watcher = watch(leftoversDir());
    // The record's write waits on a timer: faked, so the test says when it starts; the files are real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const drop = recordServer('idle', identify(server.pid as number), silentLogger);
      // The server's tree is gone (release() drops it) at the first sign of the write in the
      // directory, while the write is under way.
      const dropped = new Promise<Promise<void>>((resolve) => {
        watcher.once('change', () => resolve(drop()));
      });
      vi.runOnlyPendingTimers();
      await await dropped;
      expect(readdirSync(leftoversDir())).toEqual([]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
      watcher.close();
      server.kill('SIGKILL');
    }
  });

  it('once the record is deleted, the close of a server that never made it into one deletes nothing', async () => {
    const idle = () =>
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
    const [first, second] = [idle(), idle()];
    try {
      await Promise.all([once(first, 'spawn'), once(second, 'spawn')]);
      mkdirSync(leftoversDir(), { recursive: true });
      // The record's write waits on a timer: faked, so the test says when it starts.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let dropFirst: () => Promise<void>;
      try {
        dropFirst = recordServer('first', identify(first.pid as number), silentLogger);
        vi.runOnlyPendingTimers();
      } finally {
        vi.useRealTimers();
      }
      const record = await waitUntil(
        () => readdirSync(leftoversDir()).find((name) => name.endsWith('.json')),
        'the record of the first server',
      );
      await dropFirst();
      expect(readdirSync(leftoversDir())).toEqual([]);
      // Whatever lies at the record's path now is no record of this process's servers: the close
      // of a server closed before its write has nothing of its own there to delete.
      const stranger = join(leftoversDir(), record);
      writeFileSync(stranger, 'not a record of ours\n');
      await recordServer('second', identify(second.pid as number), silentLogger)();
      expect(readdirSync(leftoversDir())).toEqual([record]);
      rmSync(stranger);
    } finally {
      first.kill('SIGKILL');
      second.kill('SIGKILL');
    }
  });
});
