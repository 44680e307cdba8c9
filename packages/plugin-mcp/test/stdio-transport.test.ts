// StdioTransport on real processes: spawn errors, the environment, JSON-RPC framing, stderr draining
// and its bounded tail, and the close lifecycle (joins, escalation, onclose exactly once).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@epoch-agent/testkit';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { closeTransportAndReap } from '../src/transport/reap.js';
import {
  STDERR_MAX_LINE_CHARS,
  STDERR_TAIL_MAX_BYTES,
  STDERR_TAIL_MAX_LINES,
  StderrRing,
} from '../src/transport/stderr-ring.js';
import { StdioTransport, type StdioTransportOptions } from '../src/transport/stdio.js';
import {
  identities,
  killAll,
  type ProcessIdentity,
  readPids,
  running,
  serverLaunch,
  statFields,
  survivors,
  waitForPids,
} from './stdio-helpers.js';

const FAST = { stdinGraceMs: 100, termGraceMs: 100 } as const;

let dir: string;
let pidFile: string;
let transports: StdioTransport[];
let started: ProcessIdentity[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'epoch-stdio-'));
  pidFile = join(dir, 'pids');
  transports = [];
  started = [];
});

afterEach(async () => {
  await Promise.all(transports.map((transport) => closeTransportAndReap(transport, FAST)));
  killAll([...started, ...identities(readPids(pidFile))]);
  rmSync(dir, { recursive: true, force: true });
});

function open(options: StdioTransportOptions): StdioTransport {
  const transport = new StdioTransport(options);
  transports.push(transport);
  return transport;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('spawning', () => {
  it('missing command rejects start with command_not_found naming it and PATH', async () => {
    const transport = open({
      server: { name: 'ghost', command: 'epoch-no-such-command-7f3a', args: [], env: {} },
    });
    const error = await rejection(transport.start());
    expect(isMcpError(error, 'command_not_found')).toBe(true);
    const { message, server } = error as Error & { server: string };
    expect(server).toBe('ghost');
    expect(message).toContain('"epoch-no-such-command-7f3a"');
    expect(message).toContain('not found on PATH');
  });

  it('a file that is not executable rejects with spawn_failed', async () => {
    const script = join(dir, 'not-executable.sh');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o644 });
    const transport = open({ server: { name: 'noexec', command: script, args: [], env: {} } });
    const error = await rejection(transport.start());
    expect(isMcpError(error, 'spawn_failed')).toBe(true);
    expect((error as Error).message).toContain(script);
  });

  it('a missing cwd is spawn_failed naming the directory, not command_not_found', async () => {
    const cwd = join(dir, 'no-such-dir');
    const transport = open({ server: { ...serverLaunch(), cwd } });
    const error = await rejection(transport.start());
    expect(isMcpError(error, 'spawn_failed')).toBe(true);
    expect((error as Error).message).toContain(cwd);
  });

  it('an argument over what the system takes is spawn_failed naming "args", its index and size, not "command" or "cwd"', async () => {
    const launch = serverLaunch();
    const transport = open({
      server: { ...launch, args: [...launch.args, 'a'.repeat(140_000)] },
    });
    const error = await rejection(transport.start());
    expect(isMcpError(error, 'spawn_failed')).toBe(true);
    const { message } = error as Error;
    expect(message).toContain('too large (E2BIG)');
    expect(message).toContain(`"args"[${launch.args.length}] alone is 140,001 bytes`);
    expect(message).not.toContain('"cwd"');
  });

  it('a variable over what the system takes is spawn_failed naming it and its size, never its value', async () => {
    const value = `sk-${'b'.repeat(140_000)}`;
    const transport = open({ server: serverLaunch({ env: { HUGE_TOKEN: value } }) });
    const error = await rejection(transport.start());
    expect(isMcpError(error, 'spawn_failed')).toBe(true);
    const { message } = error as Error;
    expect(message).toContain('Variable HUGE_TOKEN (set by its "env" or "env_file") alone is');
    expect(message).not.toContain('sk-b');
    expect(message).not.toContain('"cwd"');
  });

  it("env is merged onto the SDK's default environment, not the whole parent environment", async () => {
    const saved = { parentOnly: process.env.EPOCH_TEST_PARENT_ONLY, term: process.env.TERM };
    process.env.EPOCH_TEST_PARENT_ONLY = 'parent';
    // An exported shell function: the SDK leaves it out, and so do we.
    process.env.TERM = '() { echo pwned; }';
    const lines: string[] = [];
    let expected: Record<string, string>;
    try {
      expected = { ...getDefaultEnvironment(), EPOCH_TEST_CONFIGURED: 'configured' };
      const transport = open({
        server: serverLaunch({
          flags: ['--print-env'],
          env: { EPOCH_TEST_CONFIGURED: 'configured' },
        }),
        onStderrLine: (line) => lines.push(line),
      });
      await transport.start();
      await waitUntil(() => lines.some((line) => line.startsWith('ENV ')), 'the ENV line');
    } finally {
      restore('EPOCH_TEST_PARENT_ONLY', saved.parentOnly);
      restore('TERM', saved.term);
    }
    const env = JSON.parse((lines.find((line) => line.startsWith('ENV ')) as string).slice(4));
    expect(env).toEqual(expected);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.TERM).toBeUndefined();
  });

  it('startAhead() spawns with the output held: what the server wrote first reaches onmessage after start()', async () => {
    const lines: string[] = [];
    const transport = open({
      server: serverLaunch({ flags: ['--hello'] }),
      onStderrLine: (line) => lines.push(line),
    });
    await transport.startAhead();
    await waitUntil(() => lines.includes('hello written'), 'the server to write its hello');
    const received: JSONRPCMessage[] = [];
    // Set as the SDK sets it: after the spawn, before its own start().
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await waitUntil(() => received.length > 0, 'the hello');
    expect(received[0]).toMatchObject({
      method: 'notifications/message',
      params: { data: 'hello' },
    });
  });

  it('start() called twice joins the first start', async () => {
    const transport = open({ server: serverLaunch() });
    const first = transport.start();
    expect(transport.start()).toBe(first);
    await first;
    expect(running(transport.pid as number)).toBeDefined();
  });
});

describe('framing', () => {
  it('many messages in one chunk and one message split across chunks all arrive whole', async () => {
    const transport = open({ server: serverLaunch() });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => {
      received.push(message);
    };
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'fixture/burst' });
    await waitUntil(() => received.some((message) => 'id' in message), 'the burst reply');
    const notes = received.filter((message) => 'method' in message);
    expect(notes.map((message) => (message.params as { data: number }).data)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(received.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { done: true } });
  });
});

describe('stderr', () => {
  it('1 MB of stderr does not block the server; every line reaches the callback', async () => {
    const lines: string[] = [];
    const transport = open({
      server: serverLaunch({ flags: ['--stderr-lines=10000', '--stderr-width=100'] }),
      onStderrLine: (line) => lines.push(line),
    });
    // The fixture writes all of it (synchronously) before it reads stdin: an undrained pipe
    // (64 KiB) would stall it and initialize would never be answered.
    await new Client({ name: 'stderr-test', version: '1.0.0' }).connect(transport, {
      timeout: 20_000,
    });
    await waitUntil(() => lines.length === 10_000, 'all stderr lines');
    expect(lines[0]).toMatch(/^stderr line 0 x+$/);
    expect(lines[9999]).toMatch(/^stderr line 9999 x+$/);
    expect(lines.every((line) => line.length === 99)).toBe(true);

    // Bytes bind here: 100-byte lines, so the tail holds as many as fit in the byte cap.
    const tail = transport.stderrTail().split('\n');
    const fit = Math.floor(STDERR_TAIL_MAX_BYTES / 100);
    expect(tail).toHaveLength(fit);
    expect(tail).toEqual(lines.slice(10_000 - fit));
  });

  it('the tail keeps only the last lines when the line cap binds', async () => {
    const transport = open({
      server: serverLaunch({ flags: ['--stderr-lines=1000', '--stderr-width=20'] }),
    });
    await transport.start();
    await waitUntil(() => transport.stderrTail().includes('stderr line 999 '), 'line 999');
    const tail = transport.stderrTail().split('\n');
    expect(tail).toHaveLength(STDERR_TAIL_MAX_LINES);
    expect(tail[0]).toMatch(/^stderr line 800 x+$/);
    expect(tail.at(-1)).toMatch(/^stderr line 999 x+$/);
  });

  it('the ring joins split lines and characters, cuts endless lines, flushes the last one', () => {
    const lines: string[] = [];
    const ring = new StderrRing({ onLine: (line) => lines.push(line) });
    const euro = Buffer.from('€');
    ring.write(Buffer.concat([Buffer.from('a'), euro.subarray(0, 1)]));
    ring.write(Buffer.concat([euro.subarray(1), Buffer.from('b\r\nsecond\n\nthi')]));
    ring.write(Buffer.from('rd'));
    expect(lines).toEqual(['a€b', 'second', '']);
    // A line that never ends is cut into pieces of the maximum length as it grows.
    ring.write(Buffer.from('x'.repeat(STDERR_MAX_LINE_CHARS * 2 + 5)));
    expect(lines.slice(3).map((line) => line.length)).toEqual([
      STDERR_MAX_LINE_CHARS,
      STDERR_MAX_LINE_CHARS,
    ]);
    expect(lines[3]).toMatch(/^thirdx+$/);
    ring.end();
    expect(lines.at(-1)).toBe('x'.repeat(10));
    expect(ring.tail().split('\n').slice(0, 3)).toEqual(['a€b', 'second', '']);
  });
});

describe('closing', () => {
  it('closes join; close() never escalates, a second closeTransportAndReap kills at once; onclose once', async () => {
    const stderr: string[] = [];
    const transport = open({
      server: serverLaunch({
        flags: ['--ignore-eof', '--ignore-sigterm', '--tick-after-eof=100'],
        pidFile,
      }),
      // Longer than the test may run: a close that waited a grace out would time the test out.
      reap: { stdinGraceMs: 60_000, termGraceMs: 60_000 },
      onStderrLine: (line) => stderr.push(line),
    });
    let closes = 0;
    transport.onclose = () => {
      closes++;
    };
    await transport.start();
    started = identities(await waitForPids(pidFile, 1));

    // What the SDK Client does (it may call close() on its own): joins, and waits out the grace.
    const bySdk = [transport.close(), transport.close()];
    // The server itself says it is still there: three ticks, 100 ms apart, after its stdin ended.
    await waitUntil(() => stderr.includes('tick 3'), 'the third tick after the end of stdin');
    expect(survivors(started)).toHaveLength(1);
    const byCaller = [closeTransportAndReap(transport), closeTransportAndReap(transport)];
    await Promise.all([...bySdk, ...byCaller]);
    expect(survivors(started)).toEqual([]);
    await transport.close();
    expect(closes).toBe(1);
  });

  it('a tree that ignores SIGTERM is killed once that is seen, not after the SIGTERM grace', async () => {
    // A shell that never reads its stdin, with SIGTERM set to SIG_IGN, which its `sleep` inherits.
    const transport = open({
      server: {
        name: 'fixture',
        command: '/bin/sh',
        args: ['-c', "trap '' TERM; while :; do sleep 1; done"],
        env: {},
      },
      // Longer than the test may run: a close that waited it out would time the test out.
      reap: { stdinGraceMs: 100, termGraceMs: 60_000 },
    });
    await transport.start();
    const shell = running(transport.pid as number);
    expect(shell).toBeDefined();

    await closeTransportAndReap(transport);
    expect(survivors(shell ? [shell] : [])).toEqual([]);
  });

  it('a polite server has its EOF from the close itself, not from a later turn of the event loop', async () => {
    const transport = open({ server: serverLaunch(), reap: FAST });
    await transport.start();
    const pid = transport.pid as number;
    expect(running(pid)).toBeDefined();
    const closing = transport.close();
    // The event loop is held here: only an EOF the close already handed over lets the server exit
    // meanwhile. The limit only ends the wait when it never comes.
    const limit = performance.now() + 20_000;
    while (running(pid) !== undefined && performance.now() < limit) {
      // The server's exit is what is waited for.
    }
    expect(running(pid)).toBeUndefined();
    await closing;
  });

  it('close() racing start() still reaps the server', async () => {
    const transport = open({ server: serverLaunch({ flags: ['--ignore-eof'] }), reap: FAST });
    const starting = transport.start();
    const pid = transport.pid as number;
    const server = running(pid);
    expect(server).toBeDefined();
    await transport.close();
    await starting;
    expect(survivors(server ? [server] : [])).toEqual([]);
  });

  it('send after close rejects with connection_closed', async () => {
    const transport = open({ server: serverLaunch() });
    await transport.start();
    await transport.close();
    const error = await rejection(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect((error as Error).message).toContain('"fixture"');
  });

  it('a server that exits on its own fires onclose once, with its last words, and its helper is reaped', async () => {
    const transport = open({
      server: serverLaunch({ flags: ['--child=ignore'], pidFile }),
      reap: FAST,
    });
    let closes = 0;
    let tailAtClose = '';
    transport.onclose = () => {
      closes++;
      tailAtClose = transport.stderrTail();
    };
    await transport.start();
    started = identities(await waitForPids(pidFile, 2));
    expect(started).toHaveLength(2);

    await transport.send({ jsonrpc: '2.0', id: 1, method: 'fixture/exit' });
    await waitUntil(() => closes === 1, 'onclose');
    expect(tailAtClose.split('\n').at(-1)).toBe('fatal: last words');
    await waitUntil(() => survivors(started).length === 0, 'the helper to be reaped');
    // A caller's close afterwards joins the reap the exit started.
    await transport.close();
    expect(closes).toBe(1);
  });

  // PLATFORM: /proc and the `setsid` command.
  it.skipIf(process.platform !== 'linux')(
    'a process that escaped the reap and still writes to the pipes: nothing of it reaches onmessage or onStderrLine after onclose',
    async () => {
      const note = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'late' } };
      // The writer leaves the tree before the close looks (a session of its own, its parent gone
      // at once), and keeps the server's stdout and stderr full: the drain gives up on them after
      // a while. Its two `yes` die of SIGPIPE once the pipes are closed.
      const writer = [
        'echo $$ >> "$PID_FILE"',
        'yes "$NOTE" & echo $! >> "$PID_FILE"',
        'yes late >&2 & echo $! >> "$PID_FILE"',
        'wait',
      ].join('; ');
      let closed = false;
      let lateLines = 0;
      let lateMessages = 0;
      const transport = open({
        server: {
          name: 'fixture',
          command: '/bin/sh',
          args: ['-c', `(setsid sh -c '${writer}' &); exec cat`],
          env: { PID_FILE: pidFile, NOTE: JSON.stringify(note) },
        },
        reap: FAST,
        onStderrLine: () => {
          if (closed) lateLines++;
        },
      });
      transport.onmessage = () => {
        if (closed) lateMessages++;
      };
      transport.onclose = () => {
        closed = true;
      };
      await transport.start();
      started = identities(await waitForPids(pidFile, 3));
      const [escaped] = started;
      const leader = transport.pid;
      await waitUntil(() => {
        const parent = Number(statFields(escaped?.pid ?? 0)?.[1]);
        return statFields(parent)?.[3] !== String(leader);
      }, 'the writer to leave the server’s tree');

      await transport.close();
      // Its pipes are closed by then: the next write of each `yes` kills it.
      await waitUntil(
        () => survivors(started.slice(1)).length === 0,
        'the writers to die of SIGPIPE',
      );
      expect({ lateMessages, lateLines }).toEqual({ lateMessages: 0, lateLines: 0 });
    },
  );
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
