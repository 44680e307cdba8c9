// The request limits' shared timer (connection/deadlines.ts) on Node's real timers: deadlines of
// several lengths come in the order they fall due, a cancelled one never runs, wherever it is in
// its queue, and a queue swept of many cancelled deadlines still runs the live ones.
import { describe, expect, it } from 'vitest';
import { requestClock } from '../src/connection/deadlines.js';

/** A deadline in `ms` that records `name` when it runs; resolves then. */
function due(ms: number, name: string, ran: string[]): Promise<void> {
  return new Promise((resolve) => {
    requestClock.later(
      ms,
      () => {
        ran.push(name);
        resolve();
      },
      false,
    );
  });
}

describe('the shared timer of request limits', () => {
  it('runs deadlines of several lengths in the order they fall due', async () => {
    const ran: string[] = [];
    await Promise.all([due(90, 'last', ran), due(10, 'first', ran), due(50, 'middle', ran)]);
    expect(ran).toEqual(['first', 'middle', 'last']);
  });

  it('never runs a cancelled deadline: at the front of its queue, or behind live ones', async () => {
    const ran: string[] = [];
    requestClock.later(5, () => ran.push('front'), false).cancel();
    const first = due(30, 'kept', ran);
    const behind = requestClock.later(30, () => ran.push('behind'), false);
    const after = due(30, 'after', ran);
    behind.cancel();
    await Promise.all([first, after, due(60, 'later', ran)]);
    expect(ran).toEqual(['kept', 'after', 'later']);
  });

  it('sweeps a queue of many cancelled deadlines and still runs the live one among them', async () => {
    const ran: string[] = [];
    const timers = Array.from({ length: 300 }, (_, index) =>
      requestClock.later(40, () => ran.push(`#${index}`), false),
    );
    const live = due(40, 'live', ran);
    // From the back: none is at the front of the queue when it is cancelled, so they pile up.
    for (const timer of timers.reverse()) timer.cancel();
    await live;
    await due(60, 'then', ran);
    expect(ran).toEqual(['live', 'then']);
  });
});
