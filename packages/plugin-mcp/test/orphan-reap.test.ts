// closeTransportAndReap on real process trees: snapshot -> graceful close -> sweep leaves no process
// of a server alive, whatever the server does. Run this whenever the disconnect path changes.
// It runs once per process table this machine can read (PROCESS_TABLES_HERE): on Linux under
// /proc and under `ps` (the macOS path), on macOS under `ps`, on Windows under Win32_Process.
//
// The launcher in front of the server is a shell (`/bin/sh -c`; a `.cmd` file on Windows), never
// node: a node launcher hides the bug on Windows (libuv's job object kills a non-detached
// grandchild with its parent), so the test would pass with the sweep deleted. A shell is also what
// `npx` really puts in between.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@epoch-agent/testkit';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeTransportAndReap } from '../src/transport/reap.js';
import { StdioTransport } from '../src/transport/stdio.js';
import {
  identities,
  killAll,
  PROCESS_TABLES_HERE,
  type ProcessIdentity,
  readPids,
  running,
  serverLaunch,
  survivors,
  waitForGroup,
  waitForPids,
} from './stdio-helpers.js';

const FAST = { stdinGraceMs: 100, termGraceMs: 100 } as const;
/** Idle processes started next to the server to prove the close does not scale with them. */
const CROWD = 300;

let dir: string;
let pidFile: string;
let started: ProcessIdentity[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'epoch-reap-'));
  pidFile = join(dir, 'pids');
  started = [];
});

afterEach(() => {
  killAll([...started, ...identities(readPids(pidFile))]);
  rmSync(dir, { recursive: true, force: true });
});

function newClient(): Client {
  return new Client({ name: 'orphan-reap-test', version: '1.0.0' });
}

/** The helper modes whose intermediate process exits at once, leaving the helper an orphan. */
const ORPHAN_MODES = new Set(['--child=orphan', '--child=orphan-group']);

/**
 * Connects through the SDK Client and waits until the whole tree has recorded its `pids` (the shell
 * included), and until every orphaning intermediate has exited (else the helper is still a
 * descendant when the close starts, and the test proves nothing about orphans). `started` then
 * holds every process of the tree that runs.
 */
async function startTree(flags: readonly string[], pids: number): Promise<StdioTransport> {
  const transport = new StdioTransport({
    server: serverLaunch({ flags, pidFile, launcher: 'sh' }),
    reap: FAST,
  });
  const client = newClient();
  await client.connect(transport);
  expect(client.getServerVersion()?.name).toBe('fixture');
  const tree = [transport.pid as number, ...(await waitForPids(pidFile, pids - 1))];
  const runs = pids - flags.filter((flag) => ORPHAN_MODES.has(flag)).length;
  await waitUntil(() => identities(tree).length <= runs, 'the orphaning intermediates to exit');
  started = identities(tree);
  expect(started).toHaveLength(runs);
  return transport;
}

const LINUX = process.platform === 'linux';
const WINDOWS = process.platform === 'win32';

/** Why a helper mode cannot be made on this platform; undefined where it can. */
function cannotMake(flags: readonly string[]): string | undefined {
  if (WINDOWS && flags.some((flag) => /=(setsid|detached|orphan-group)$/.test(flag))) {
    return 'Windows has no POSIX sessions or process groups to leave';
  }
  if (!LINUX && flags.includes('--child=setsid')) return 'only Linux has the setsid command';
  if (!LINUX && flags.includes('--child=orphan-group')) {
    return "macOS ps gives no session id, so a helper in a group of its own whose parent exited is out of reach: see the README's platform notes";
  }
  return undefined;
}

/** Runs each close under `table` (EPOCH_PROCESS_TABLE is read at each spawn and close). */
function underTable(table: string): void {
  const before = process.env.EPOCH_PROCESS_TABLE;
  beforeAll(() => {
    process.env.EPOCH_PROCESS_TABLE = table;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.EPOCH_PROCESS_TABLE;
    else process.env.EPOCH_PROCESS_TABLE = before;
  });
}

describe.each(PROCESS_TABLES_HERE)(
  'closeTransportAndReap leaves no process of a server behind (%s table)',
  (table) => {
    underTable(table);
    const scenarios: { name: string; flags: string[]; pids: number }[] = [
      { name: 'server behind sh that exits on stdin EOF', flags: [], pids: 2 },
      { name: 'server that ignores stdin EOF', flags: ['--ignore-eof'], pids: 2 },
      {
        name: 'server that ignores stdin EOF and SIGTERM',
        flags: ['--ignore-eof', '--ignore-sigterm'],
        pids: 2,
      },
      { name: 'grandchild that inherited the stdio pipes', flags: ['--child=inherit'], pids: 3 },
      { name: 'grandchild with its stdio ignored', flags: ['--child=ignore'], pids: 3 },
      {
        name: 'child in its own session via the setsid command',
        flags: ['--child=setsid'],
        pids: 3,
      },
      { name: 'detached (setsid) child holding the pipes', flags: ['--child=detached'], pids: 3 },
      {
        name: 'helper orphaned before the close (parent already exited)',
        flags: ['--child=orphan'],
        pids: 4,
      },
      {
        name: 'helper orphaned before the close in a process group of its own (session member)',
        flags: ['--child=orphan-group'],
        pids: 4,
      },
      {
        name: 'every kind at once, server ignoring EOF and SIGTERM',
        flags: [
          '--ignore-eof',
          '--ignore-sigterm',
          '--child=inherit',
          '--child=ignore',
          '--child=setsid',
          '--child=detached',
          '--child=orphan',
          '--child=orphan-group',
        ],
        pids: 10,
      },
    ];

    for (const scenario of scenarios) {
      const reason = cannotMake(scenario.flags);
      it.skipIf(reason !== undefined)(
        `${scenario.name}${reason ? ` (skipped: ${reason})` : ''}`,
        async () => {
          const transport = await startTree(scenario.flags, scenario.pids);
          await closeTransportAndReap(transport, FAST);
          expect(survivors(started)).toEqual([]);
        },
      );
    }

    const lateReason = cannotMake(['--child=detached']);
    it.skipIf(lateReason !== undefined)(
      'setsid child spawned during the grace period is caught by the rescan',
      async () => {
        const transport = await startTree(
          ['--ignore-eof', '--ignore-sigterm', '--child-on-eof=detached'],
          2,
        );
        await closeTransportAndReap(transport, FAST);
        const late = readPids(pidFile).filter((pid) => !started.some((p) => p.pid === pid));
        expect(late).toHaveLength(1);
        expect(late.filter((pid) => running(pid) !== undefined)).toEqual([]);
        expect(survivors(started)).toEqual([]);
      },
    );
  },
);

// PLATFORM: /proc; what a close reads of our ancestors' other children is kept for the next one.
describe.skipIf(!LINUX)('closes that follow one another (/proc)', () => {
  it("a helper of the second server, orphaned in a group of its own, is reaped though the first close saw it among our ancestors' children", async () => {
    const first = new StdioTransport({ server: serverLaunch(), reap: FAST });
    await newClient().connect(first);
    const firstServer = identities([first.pid as number]);
    // The second server's helper is a child of an ancestor of ours by now, in the second server's
    // session only: the look after its exit is what finds it, not the signal to its group.
    const second = await startTree(['--child=orphan-group'], 4);
    // The first close reads what that helper is (it belongs to another server's session) ...
    await closeTransportAndReap(first, FAST);
    expect(survivors(firstServer)).toEqual([]);
    // ... and the second close, within the time that is trusted, still takes it for its own.
    await closeTransportAndReap(second, FAST);
    expect(survivors(started)).toEqual([]);
  });
});

describe("the SDK's own stdio close", () => {
  it('leaves the grandchild running (why this reaper exists)', async () => {
    const launch = serverLaunch({ flags: ['--child=ignore'], pidFile, launcher: 'sh' });
    const transport = new StdioClientTransport({
      command: launch.command,
      args: [...launch.args],
      env: { ...getDefaultEnvironment(), ...launch.env },
      stderr: 'ignore',
    });
    await newClient().connect(transport);
    started = identities([transport.pid as number, ...(await waitForPids(pidFile, 2))]);
    await transport.close();
    expect(survivors(started)).not.toEqual([]);
  });
});

describe.each(PROCESS_TABLES_HERE)('closing a server many times (%s table)', (table) => {
  underTable(table);

  it('100 connect/disconnect cycles through the SDK Client leave zero processes', async () => {
    const leaders: number[] = [];
    for (let cycle = 0; cycle < 100; cycle++) {
      const transport = new StdioTransport({ server: serverLaunch({ pidFile }) });
      const client = newClient();
      await client.connect(transport);
      const pid = transport.pid as number;
      leaders.push(pid);
      started.push(...identities([pid]));
      await client.close();
    }
    expect(new Set(leaders).size).toBe(100);
    expect(readPids(pidFile)).toHaveLength(100);
    expect(survivors(started)).toEqual([]);
    expect(leaders.filter((pid) => running(pid) !== undefined)).toEqual([]);
  }, 120_000);

  /**
   * Grace periods far longer than any test runs: a close that waited for one instead of returning
   * as soon as the tree is gone would time the test out. How long a close takes is a bench row.
   */
  const NEVER_WAITED = { stdinGraceMs: 600_000, termGraceMs: 600_000 };

  /** Connects and closes 5 well-behaved servers, each close returning as soon as its tree is gone. */
  async function closeFive(): Promise<void> {
    for (let run = 0; run < 5; run++) {
      const transport = new StdioTransport({
        server: serverLaunch({ pidFile }),
        reap: NEVER_WAITED,
      });
      await newClient().connect(transport);
      started.push(...identities([transport.pid as number]));
      await closeTransportAndReap(transport);
    }
    expect(survivors(started)).toEqual([]);
  }

  it('a well-behaved server is closed as soon as its tree is gone, not after a grace period', async () => {
    await closeFive();
  });

  // The crowd is started by /bin/sh into a process group of its own, so one signal ends it.
  it.skipIf(WINDOWS)(
    'a well-behaved server is closed as soon as its tree is gone with 300 more processes on the machine',
    async () => {
      // The reaper must not pay for every process on the machine. Its own group, so one signal
      // ends the crowd whatever happens.
      const crowd = spawn('/bin/sh', ['-c', `for i in $(seq ${CROWD}); do sleep 30 & done; wait`], {
        detached: true,
        stdio: 'ignore',
      });
      try {
        await waitForGroup(crowd.pid as number, CROWD + 1);
        await closeFive();
      } finally {
        process.kill(-(crowd.pid as number), 'SIGKILL');
      }
    },
    60_000,
  );
});
