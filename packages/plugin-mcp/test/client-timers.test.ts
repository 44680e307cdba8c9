import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../src/types.js';
import {
  type Behavior,
  isRunning,
  records,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { rejection, waitForState } from './support/waiting.js';

const servers = useRecordingClients();

function start(name: string, behavior: Behavior, config: Partial<StdioServerConfig>) {
  return servers.start(behavior, { name, config, reconnectDelaysMs: [100, 200, 400] });
}

/** Resolves once the server behind `file` has received `count` more pings than it had so far. */
function morePings(file: string, count: number): Promise<unknown> {
  const before = requests(file, 'ping').length;
  return waitForRecords(file, () => requests(file, 'ping').length >= before + count);
}

describe('keepalive', () => {
  it('sends a ping every keepalive_interval, and none when it is 0', async () => {
    const on = start('on', {}, { keepaliveIntervalMs: 200 });
    const off = start('off', {}, { keepaliveIntervalMs: 0 });
    await Promise.all([on.client.connect(), off.client.connect()]);
    // Both connected together: by the third ping of `on` (600 ms at the least), `off` would have
    // sent one too if it sent any.
    await morePings(on.file, 3);
    const times = requests(on.file, 'ping').map((r) => r.t);
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(180);
    }
    expect(requests(off.file, 'ping')).toEqual([]);
  });

  it('a server that stops answering pings is reconnecting, then connected on a new process', async () => {
    const { client, file, starts } = start(
      'deaf',
      { hangAfter: { ping: 1 } },
      { keepaliveIntervalMs: 150, timeoutMs: 300 },
    );
    await client.connect();
    const [first] = starts();
    await waitForState(client, 'reconnecting');
    const down = client.state;
    if (down.kind !== 'reconnecting') throw new Error('unreachable');
    expect(down.error.code).toBe('request_timeout');
    expect(down.error.message).toContain('ping got no answer');
    expect(down.error.message).toContain('That was a keepalive check');
    // The unanswered ping was cancelled on the server, like any timed-out request. The server
    // records the notification when it reads it, which may be a moment after the state changed.
    const [, unanswered] = requests(file, 'ping');
    await waitUntil(
      () => records(file).some((r) => r.event === 'cancelled' && r.id === unanswered?.in?.id),
      'the unanswered ping to be cancelled on the server',
    );
    await waitForState(client, 'connected');
    const [, second] = starts();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await waitUntil(() => !isRunning(first ?? 0), 'the old process to be reaped');
  });
});

describe('idle_timeout', () => {
  it('closes an idle connection (its process is gone) and the next call starts a new one', async () => {
    const { client, file, states, starts } = start(
      'nap',
      {},
      // Pings are not activity: they do not keep the connection from going idle.
      { idleTimeoutMs: 400, keepaliveIntervalMs: 100, supportsParallel: true },
    );
    await client.connect();
    // A call in flight is not idle: a call that ends only when the test ends it is still running
    // when six pings have followed it (each 100 ms after the one before answered), by which time
    // the 400 ms timeout would have fired had the call not suspended it.
    const stop = new AbortController();
    const hanging = rejection(client.callTool('hang', {}, stop.signal));
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'tools/call'));
    await morePings(file, 6);
    expect(client.state.kind).toBe('connected');
    stop.abort();
    expect((await hanging).code).toBe('aborted');
    await waitForState(client, 'idle');
    const [first] = starts();
    await waitUntil(() => !isRunning(first ?? 0), 'the idle process to be reaped');
    const idle = client.state;
    expect(idle.kind === 'idle' && idle.since).toBeLessThanOrEqual(Date.now());

    const result = await client.callTool('echo', { text: 'awake' });
    expect(result.content).toEqual([{ type: 'text', text: 'awake' }]);
    const [, second] = starts();
    expect(second).toBeDefined();
    expect(requests(file, 'tools/call').at(-1)?.pid).toBe(second);
    expect(states.map((s) => s.kind)).toEqual([
      'connecting',
      'connected',
      'idle',
      'connecting',
      'connected',
    ]);
  });
});

describe('max_lifetime', () => {
  it('recycles after the call in flight finishes, while a call arriving meanwhile runs on the new process', async () => {
    // The long call ends only once the test releases it, after the new process has answered.
    const release = join(servers.dir(), 'release');
    const { client, file, starts } = start(
      'aging',
      { release },
      { maxLifetimeMs: 800, supportsParallel: true },
    );
    await client.connect();
    const [first] = starts();
    const long = client.callTool('sleep', { ms: 1_800 });
    await waitUntil(() => starts().length === 2, 'a new process after the lifetime');
    const [, second] = starts();
    const quick = await client.callTool('echo', { text: 'new' });
    expect(quick.content).toEqual([{ type: 'text', text: 'new' }]);
    const echoCall = requests(file, 'tools/call').find((r) => r.in?.params?.name === 'echo');
    expect(echoCall?.pid).toBe(second);
    // The old process still runs the long call; it is not cut off.
    expect(isRunning(first ?? 0)).toBe(true);
    writeFileSync(release, '');
    expect((await long).content).toEqual([{ type: 'text', text: 'slept 1800' }]);
    const sleepCall = requests(file, 'tools/call').find((r) => r.in?.params?.name === 'sleep');
    expect(sleepCall?.pid).toBe(first);
    await waitUntil(() => !isRunning(first ?? 0), 'the old process to close once its call ended');
  });
});

describe('close()', () => {
  it('clears every timer: no ping, idle close or recycle happens after it', async () => {
    const { client, file, states, starts } = start(
      'closed',
      {},
      { keepaliveIntervalMs: 100, idleTimeoutMs: 200, maxLifetimeMs: 300 },
    );
    // Another connection's pings tell the time: its fourth after the close is sent 400 ms after
    // it at the least, when every timer of the closed one (scheduled before) would have fired.
    const sentinel = start('sentinel', {}, { keepaliveIntervalMs: 100 });
    await sentinel.client.connect();
    // Closed in the turn its connect ends: no timer of it can have fired before the close, however
    // slow the machine (connected beside the sentinel, it sat open while the sentinel connected).
    await client.connect();
    await client.close();
    const seen = states.length;
    await morePings(sentinel.file, 4);
    expect(requests(file, 'ping')).toEqual([]);
    expect(starts()).toHaveLength(1);
    expect(states.length).toBe(seen);
    expect(client.state.kind).toBe('disconnected');
  });
});
