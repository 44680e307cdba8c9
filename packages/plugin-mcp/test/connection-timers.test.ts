// A live connection's timers on a fake clock: the keepalive cadence (the next interval starts when
// a ping answers), a failed ping ending the pings, idle suspended while a request is in flight and
// re-armed when the last one settles, the lifetime's one end, 0 turning each off, and stop()
// clearing everything, a late answer included.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTimers, type ConnectionTimersOptions } from '../src/connection/timers.js';
import { FakeClock, settle } from './support/fake-clock.js';

type Answer = 'ok' | 'fail' | 'hold';

/** Timers on a fake clock; every ping, idle and lifetime end is recorded at its time from start. */
function timed(
  options: Partial<
    Pick<ConnectionTimersOptions, 'keepaliveIntervalMs' | 'idleTimeoutMs' | 'maxLifetimeMs'>
  >,
  answers: Answer[] = [],
) {
  const clock = new FakeClock();
  const t0 = clock.now();
  const at = () => clock.now() - t0;
  const pings: number[] = [];
  const held: { answer: () => void; fail: () => void }[] = [];
  const events: { event: 'idle' | 'lifetime' | 'ping failed'; at: number }[] = [];
  const timers = new ConnectionTimers({
    keepaliveIntervalMs: 0,
    idleTimeoutMs: 0,
    maxLifetimeMs: 0,
    ...options,
    clock,
    ping: () => {
      pings.push(at());
      const answer = answers.shift() ?? 'ok';
      if (answer === 'ok') return Promise.resolve();
      if (answer === 'fail') return Promise.reject(new Error('no pong'));
      return new Promise<void>((resolve, reject) => {
        held.push({ answer: resolve, fail: () => reject(new Error('no pong')) });
      });
    },
    onPingFailed: () => events.push({ event: 'ping failed', at: at() }),
    onIdle: () => events.push({ event: 'idle', at: at() }),
    onLifetimeEnd: () => events.push({ event: 'lifetime', at: at() }),
  });
  return { timers, clock, pings, held, events };
}

describe('keepalive', () => {
  it('pings every interval while each ping answers at once', async () => {
    const { clock, pings, events } = timed({ keepaliveIntervalMs: 200 });
    await clock.advance(199);
    expect(pings).toEqual([]);
    await clock.advance(1);
    expect(pings).toEqual([200]);
    await clock.advance(1_000);
    expect(pings).toEqual([200, 400, 600, 800, 1_000, 1_200]);
    expect(events).toEqual([]);
  });

  it('one ping at a time: the next interval starts when the previous ping has answered', async () => {
    const { clock, pings, held } = timed({ keepaliveIntervalMs: 200 }, ['hold']);
    await clock.advance(200);
    expect(pings).toEqual([200]);
    // The ping takes 1 s to answer: no second ping meanwhile, and no timer waiting.
    await clock.advance(1_000);
    expect(pings).toEqual([200]);
    expect(clock.pending()).toEqual([]);
    held[0]?.answer();
    await settle();
    expect(clock.pending()).toEqual([{ inMs: 200, keepAlive: false }]);
    await clock.advance(200);
    expect(pings).toEqual([200, 1_400]);
  });

  it('a failed ping is reported once, and no more pings are sent', async () => {
    const { clock, pings, events } = timed({ keepaliveIntervalMs: 100 }, ['ok', 'fail']);
    await clock.advance(200);
    expect(pings).toEqual([100, 200]);
    expect(events).toEqual([{ event: 'ping failed', at: 200 }]);
    await clock.advance(10_000);
    expect(pings).toHaveLength(2);
    expect(clock.pending()).toEqual([]);
  });

  it('0 sends no ping at all', async () => {
    const { clock, pings } = timed({ keepaliveIntervalMs: 0 });
    expect(clock.pending()).toEqual([]);
    await clock.advance(60_000);
    expect(pings).toEqual([]);
  });
});

describe('idle timeout', () => {
  it('fires once after the timeout with no request in flight; pings are not activity', async () => {
    const { clock, pings, events } = timed({ idleTimeoutMs: 400, keepaliveIntervalMs: 100 });
    await clock.advance(399);
    expect(events).toEqual([]);
    await clock.advance(1);
    expect(pings).toEqual([100, 200, 300, 400]);
    expect(events).toEqual([{ event: 'idle', at: 400 }]);
    await clock.advance(10_000);
    expect(events).toHaveLength(1);
  });

  it('a request in flight suspends it; the last one settling re-arms it for a full timeout', async () => {
    const { timers, clock, events } = timed({ idleTimeoutMs: 400 });
    await clock.advance(300);
    timers.busy(true);
    expect(clock.pending()).toEqual([]);
    // The call runs far past the timeout: never idle meanwhile.
    await clock.advance(5_000);
    expect(events).toEqual([]);
    timers.busy(false);
    expect(clock.pending()).toEqual([{ inMs: 400, keepAlive: false }]);
    await clock.advance(399);
    expect(events).toEqual([]);
    await clock.advance(1);
    expect(events).toEqual([{ event: 'idle', at: 5_700 }]);
  });

  it('0 never goes idle', async () => {
    const { timers, clock, events } = timed({ idleTimeoutMs: 0 });
    timers.busy(true);
    timers.busy(false);
    expect(clock.pending()).toEqual([]);
    await clock.advance(60_000);
    expect(events).toEqual([]);
  });
});

describe('max lifetime', () => {
  it('ends once, at the lifetime, busy or not', async () => {
    const { timers, clock, events } = timed({ maxLifetimeMs: 800 });
    await clock.advance(500);
    timers.busy(true);
    await clock.advance(299);
    expect(events).toEqual([]);
    await clock.advance(1);
    expect(events).toEqual([{ event: 'lifetime', at: 800 }]);
    await clock.advance(60_000);
    expect(events).toHaveLength(1);
  });

  it('0 never ends', async () => {
    const { clock, events } = timed({ maxLifetimeMs: 0 });
    await clock.advance(60_000);
    expect(events).toEqual([]);
  });
});

describe('stop()', () => {
  it('clears every timer: no ping, idle or lifetime end afterwards', async () => {
    const { timers, clock, pings, events } = timed({
      keepaliveIntervalMs: 100,
      idleTimeoutMs: 200,
      maxLifetimeMs: 300,
    });
    expect(clock.pending()).toHaveLength(3);
    await clock.advance(100);
    expect(pings).toEqual([100]);
    timers.stop();
    expect(clock.pending()).toEqual([]);
    timers.busy(false);
    expect(clock.pending()).toEqual([]);
    await clock.advance(60_000);
    expect(pings).toEqual([100]);
    expect(events).toEqual([]);
  });

  it('a ping answered or failed after stop() schedules and reports nothing', async () => {
    const { timers, clock, held, events } = timed({ keepaliveIntervalMs: 100 }, ['hold']);
    await clock.advance(100);
    timers.stop();
    held[0]?.answer();
    await settle();
    expect(clock.pending()).toEqual([]);

    const other = timed({ keepaliveIntervalMs: 100 }, ['hold']);
    await other.clock.advance(100);
    other.timers.stop();
    other.held[0]?.fail();
    await settle();
    expect(other.events).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('on the real clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs on Node's timers by default", async () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    const timers = new ConnectionTimers({
      keepaliveIntervalMs: 0,
      idleTimeoutMs: 100,
      maxLifetimeMs: 0,
      ping: async () => {},
      onPingFailed: () => {},
      onIdle: () => fired.push('idle'),
      onLifetimeEnd: () => {},
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(fired).toEqual(['idle']);
    timers.stop();
  });
});
