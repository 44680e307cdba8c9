// SerialQueue: with a concurrency above 1, how stdio starts are bounded (session.ts); a turn given
// up before its task ends, how a call the server made a task of lets other calls go.
import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../src/connection/serial-queue.js';

describe('SerialQueue with concurrency', () => {
  it('runs at most `concurrency` tasks at once, the next starting as one settles', async () => {
    const queue = new SerialQueue({ concurrency: 2 });
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    const all = Array.from({ length: 5 }, () => queue.run(task));
    expect(running).toBe(2);
    while (releases.length > 0) {
      releases.shift()?.();
      await Promise.resolve();
      await Promise.resolve();
    }
    // Each release lets exactly one waiting task start, never more than two in flight.
    await Promise.all(all);
    expect(most).toBe(2);
  });

  it('a waiting task whose signal aborts never runs', async () => {
    const queue = new SerialQueue({ concurrency: 1 });
    let release = (): void => {};
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const abort = new AbortController();
    let ran = false;
    const second = queue.run(async () => {
      ran = true;
    }, abort.signal);
    abort.abort(new Error('closed'));
    await expect(second).rejects.toThrow('closed');
    release();
    await first;
    expect(ran).toBe(false);
  });

  it('close() rejects the waiting tasks with one error, made only when a task waits', async () => {
    const queue = new SerialQueue();
    let made = 0;
    const reason = (): Error => {
      made += 1;
      return new Error('closed');
    };
    queue.close(reason);
    expect(made).toBe(0);
    let release = (): void => {};
    const running = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = [queue.run(async () => {}), queue.run(async () => {})];
    queue.close(reason);
    expect(made).toBe(1);
    for (const task of waiting) await expect(task).rejects.toThrow('closed');
    // The running one settles on its own.
    release();
    await running;
  });
});

describe('a turn given up before its task ends', () => {
  it('lets the next task run; a step it takes later waits behind what waits then', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    let go = (): void => {};
    let finishSecond = (): void => {};
    const first = queue.run(async (turn) => {
      order.push('first made');
      turn.release();
      // Released twice (again when it settles): the second release gives up nothing more.
      turn.release();
      await new Promise<void>((resolve) => (go = resolve));
      await turn.take(async () => {
        order.push('first step');
      });
    });
    const second = queue.run(async () => {
      order.push('second');
      await new Promise<void>((resolve) => (finishSecond = resolve));
    });
    await Promise.resolve();
    expect(order).toEqual(['first made', 'second']);
    const third = queue.run(async () => {
      order.push('third');
    });
    go();
    await Promise.resolve();
    finishSecond();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first made', 'second', 'third', 'first step']);
  });
});
