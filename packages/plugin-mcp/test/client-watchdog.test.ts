// The watchdog on real server processes: a dead server is reconnected in the background on the
// series' schedule (short injected delays for its shape; the default 1 s/2 s/4 s once, read off
// the schedule), a call never waits on a dead server, a server that keeps dying ends `failed` until
// a call or reconnect() starts a new series, and a call made during the first connect waits for it.
import { appendFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../src/connection/client.js';
import type { StdioServerConfig } from '../src/types.js';
import {
  type Behavior,
  isRunning,
  records,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { failsAtOnce, rejection, waitForState } from './support/waiting.js';

const servers = useRecordingClients();

function start(
  behavior: Behavior,
  options: { delays: readonly number[]; config?: Partial<StdioServerConfig> },
) {
  return servers.start(behavior, {
    name: 'dog',
    reconnectDelaysMs: options.delays,
    ...(options.config === undefined ? {} : { config: options.config }),
  });
}

function echo(client: McpClient, text = 'hi') {
  return client.callTool('echo', { text });
}

/**
 * A connected client of a healthy server whose `passed()` is the positive event that replaces
 * "wait N ms, then see that nothing ran": its server is killed and its own reconnect, scheduled
 * then with `delayMs`, completes. Node fires timers in the order they fall due, so by then any
 * attempt another client had pending, scheduled earlier and due within `delayMs`, has started,
 * and its state change was seen.
 */
async function sentinel(delayMs: number): Promise<{ passed(): Promise<void> }> {
  const { client, starts } = servers.start({}, { name: 'sentinel', reconnectDelaysMs: [delayMs] });
  await client.connect();
  return {
    async passed() {
      process.kill(starts().at(-1) ?? 0, 'SIGKILL');
      await waitForState(client, 'reconnecting');
      await waitForState(client, 'connected');
    },
  };
}

describe('watchdog', () => {
  it('a killed server is reconnecting, then connected again on a new process after the first delay', async () => {
    const { client, file, states, starts } = start({}, { delays: [400, 800, 1600] });
    await client.connect();
    const [first] = starts();
    if (first === undefined) throw new Error('no server started');
    const killedAt = Date.now();
    process.kill(first, 'SIGKILL');
    await waitForState(client, 'reconnecting');
    const waiting = client.state;
    if (waiting.kind !== 'reconnecting') throw new Error('unreachable');
    expect(waiting).toMatchObject({
      attempt: 1,
      attempts: 3,
      error: { code: 'connection_closed' },
    });
    expect(waiting.error.message).toContain('"dog"');
    expect(waiting.nextAttemptAt).toBeGreaterThanOrEqual(killedAt + 400);
    expect(waiting.nextAttemptAt).toBeLessThanOrEqual(Date.now() + 400);

    await waitForState(client, 'connected');
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(400);
    const [, second] = starts();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(isRunning(first)).toBe(false);
    expect((await echo(client, 'back')).content).toEqual([{ type: 'text', text: 'back' }]);
    expect(requests(file, 'tools/call').map((r) => r.pid)).toEqual([second]);
    // One state per attempt: it says when the attempt starts, and holds while it runs.
    expect(states.map((s) => s.kind)).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'connected',
    ]);
  });

  it('a call while reconnecting fails at once, saying when the next attempt is', async () => {
    const { client, file, starts, states } = start({}, { delays: [2_000, 2_000, 2_000] });
    await client.connect();
    process.kill(starts()[0] ?? 0, 'SIGKILL');
    await waitForState(client, 'reconnecting');
    const before = states.length;
    const calling = echo(client);
    // At once: it waited for nothing, and the server's state did not move.
    const error = await failsAtOnce(calling);
    expect(states.slice(before)).toEqual([]);
    expect(error.code).toBe('connection_closed');
    expect(error.tool).toBe('echo');
    expect(error.message).toContain('MCP server "dog": tools/call "echo" cannot be sent');
    expect(error.message).toMatch(/reconnecting; next attempt in [12]\.\d s \(attempt 1 of 3\)/);
    expect(error.message).toContain('closed the connection');
    expect(requests(file, 'tools/call')).toEqual([]);
  });

  it('a server that keeps dying is failed after three attempts; the next call starts a new series', async () => {
    const flag = join(servers.dir(), 'die');
    const { client, starts, states } = start({ exitAtStartIf: flag }, { delays: [50, 100, 200] });
    const later = await sentinel(500);
    await client.connect();
    writeFileSync(flag, '');
    process.kill(starts()[0] ?? 0, 'SIGKILL');
    await waitForState(client, 'failed');
    const failedAt = states.length;
    const failed = client.state;
    if (failed.kind !== 'failed') throw new Error('unreachable');
    expect(failed.code).toBe('connect_failed');
    expect(failed.message).toContain('Gave up after 3 reconnect attempts');
    expect(failed.stderrTail).toContain('dying: the test asked for it');
    expect(starts()).toHaveLength(4);
    // Failed means failed: no attempt runs on its own any more, not even once a reconnect
    // scheduled after the failure, 500 ms away, has come and gone.
    await later.passed();
    expect(states.slice(failedAt)).toEqual([]);
    expect(starts()).toHaveLength(4);

    rmSync(flag);
    const calling = echo(client);
    // At once: it began the series and waited for nothing, its first attempt (50 ms on) least.
    const error = await failsAtOnce(calling);
    expect(error.message).toMatch(/reconnecting; next attempt in 0\.\d s \(attempt 1 of 3\)/);
    expect(states.slice(failedAt).map((s) => s.kind)).toEqual(['reconnecting']);
    expect(starts()).toHaveLength(4);
    await waitForState(client, 'connected');
    expect(starts()).toHaveLength(5);
    expect((await echo(client, 'alive')).content).toEqual([{ type: 'text', text: 'alive' }]);
  });

  it('reconnect() on a failed server connects at once, and the series follows a failure', async () => {
    const flag = join(servers.dir(), 'die');
    const { client, starts, states } = start({ exitAtStartIf: flag }, { delays: [50, 100, 200] });
    await client.connect();
    writeFileSync(flag, '');
    process.kill(starts()[0] ?? 0, 'SIGKILL');
    await waitForState(client, 'failed');
    // Still dying: one attempt now and the three of a series, then the failure.
    const error = await rejection(client.reconnect());
    expect(error.code).toBe('connect_failed');
    expect(client.state.kind).toBe('failed');
    expect(starts()).toHaveLength(1 + 3 + 4);
    rmSync(flag);
    const before = states.length;
    await client.reconnect();
    expect(states.slice(before).map((s) => s.kind)).toEqual(['connecting', 'connected']);
    expect(starts()).toHaveLength(9);
    expect(existsSync(flag)).toBe(false);
  });

  it('close() during a series stops it: no attempt runs afterwards', async () => {
    const { client, starts, states } = start({}, { delays: [300, 300, 300] });
    const later = await sentinel(700);
    await client.connect();
    process.kill(starts()[0] ?? 0, 'SIGKILL');
    await waitForState(client, 'reconnecting');
    await client.close();
    expect(client.state.kind).toBe('disconnected');
    const closedAt = states.length;
    // Past the series' first two attempts: a reconnect scheduled after close(), 700 ms away, is done.
    await later.passed();
    expect(states.slice(closedAt)).toEqual([]);
    expect(starts()).toHaveLength(1);
    expect(client.state.kind).toBe('disconnected');
  });
});

describe('default reconnect delays', () => {
  it('a client given no delays schedules its three attempts 1 s, 2 s and 4 s after each failure', async () => {
    // A server that keeps dying, watched through its states: each `reconnecting` state that waits
    // carries when its attempt will start (nextAttemptAt, set as it is scheduled). The third
    // attempt is not waited for: its schedule is what is under test, and the tests above show that
    // a series runs the attempts it schedules and then gives up (and watchdog.test.ts, on a fake
    // clock, that each runs at its time).
    const flag = join(servers.dir(), 'die');
    const { client, starts } = servers.start({ exitAtStartIf: flag }, { name: 'dog' });
    // Date.now() stands still (the timers run): a delay read off the schedule is the delay itself,
    // however late the test process reads it.
    vi.useFakeTimers({ toFake: ['Date'] });
    const scheduled: { attempt: number; attempts: number; delayMs: number }[] = [];
    const third = new Promise<void>((resolve) => {
      client.onStateChange((state) => {
        if (state.kind === 'reconnecting' && state.nextAttemptAt !== undefined) {
          const { attempt, attempts, nextAttemptAt: at } = state;
          scheduled.push({ attempt, attempts, delayMs: at - Date.now() });
          if (scheduled.length === 3) resolve();
        }
      });
    });
    try {
      await client.connect();
      writeFileSync(flag, '');
      process.kill(starts()[0] ?? 0, 'SIGKILL');
      await third;
    } finally {
      vi.useRealTimers();
    }
    expect(scheduled).toEqual([
      { attempt: 1, attempts: 3, delayMs: 1_000 },
      { attempt: 2, attempts: 3, delayMs: 2_000 },
      { attempt: 3, attempts: 3, delayMs: 4_000 },
    ]);
    // The first process and the two attempts whose failures scheduled the next.
    expect(starts()).toHaveLength(3);
  });
});

describe('a call during the first connect', () => {
  it('waits for the connection and succeeds', async () => {
    const { client, file } = start({ delayMs: { initialize: 400 } }, { delays: [50] });
    const connecting = client.connect();
    expect(client.state.kind).toBe('connecting');
    const result = await echo(client, 'patient');
    expect(result.content).toEqual([{ type: 'text', text: 'patient' }]);
    await connecting;
    // Sent once the connection was made: after initialize was answered (its server then heard
    // notifications/initialized) and the tools were listed.
    const methods = records(file).flatMap((r) => (r.in?.method === undefined ? [] : [r.in.method]));
    expect(methods.indexOf('tools/call')).toBeGreaterThan(methods.indexOf('tools/list'));
    expect(methods.indexOf('tools/list')).toBeGreaterThan(
      methods.indexOf('notifications/initialized'),
    );
  });

  it("ends with the caller's signal, never sent; the connect goes on", async () => {
    // The server answers initialize only once the test opens its gate (a second line in the
    // barrier file): the call's end cannot be the connect's.
    const gate = { file: join(servers.dir(), 'gate'), count: 2 };
    const { client, file } = start({ barrier: gate }, { delays: [50] });
    const connecting = client.connect();
    const stop = new AbortController();
    const calling = rejection(client.callTool('echo', { text: 'x' }, stop.signal));
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'initialize'));
    stop.abort();
    const error = await calling;
    expect(error.code).toBe('aborted');
    expect(error.message).toContain('while it waited for the server to connect');
    expect(error.message).toContain('never sent');
    expect(client.state.kind).toBe('connecting');
    appendFileSync(gate.file, 'open\n');
    await connecting;
    expect(client.state.kind).toBe('connected');
    expect(requests(file, 'tools/call')).toEqual([]);
  });

  it('ends with connect_timeout when the server never finishes connecting', async () => {
    const { client } = start(
      { delayMs: { initialize: 10_000 } },
      { delays: [50], config: { connectTimeoutMs: 400 } },
    );
    const connecting = rejection(client.connect());
    const started = performance.now();
    // It waited for the connect: it fails with the connect's own deadline, in the connect's words.
    const error = await rejection(echo(client));
    expect(error.message).toContain('did not finish connecting within 400 ms');
    // Not before the deadline: a lower bound, which no slow machine fails (a timer never fires
    // early; Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect((await connecting).code).toBe('connect_timeout');
    await waitForState(client, 'failed');
  });
});
