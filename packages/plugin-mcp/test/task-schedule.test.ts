// A followed task's schedule on a fake clock (task-schedule.ts through followTask): polled at the
// server's interval held between 100 ms and 10 s; a status the server pushes moves the task on at
// once, and the poll then falls back to every 10 s with the call's timeout standing still between
// looks; a subscription that opens asks at once; the timer is gone when the task ends. The requests are the test's own: what is checked is when they
// are made, not what a server answers (task-follow.test.ts has the real servers).
import { describe, expect, it } from 'vitest';
import type { TaskNoteListener } from '../src/tasks/task-notes.js';
import { followTask, type TaskCalls } from '../src/tasks/task-run.js';
import { pollDelay } from '../src/tasks/task-schedule.js';
import { readTask, type TaskState } from '../src/tasks/task-wire.js';
import { FakeClock, settle } from './support/fake-clock.js';

const working = (pollIntervalMs?: number): TaskState => ({
  taskId: 't1',
  status: 'working',
  ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
});
const done: TaskState = {
  taskId: 't1',
  status: 'completed',
  result: { content: [{ type: 'text', text: 'the end' }] },
};

/** Calls whose tasks/get answers from `answers` in turn, and whose watch hands out its listener. */
function fakeCalls(answers: TaskState[]) {
  const gets: string[] = [];
  let listener: TaskNoteListener | undefined;
  let watching = false;
  const calls: TaskCalls = {
    get: async (taskId) => {
      gets.push(taskId);
      const next = answers.shift();
      if (next === undefined) throw new Error('no more answers');
      return next;
    },
    cancel: async () => undefined,
    watch: (_taskId, given) => {
      listener = given;
      watching = true;
      return () => {
        watching = false;
      };
    },
  };
  return {
    calls,
    gets,
    push: (task: TaskState) => listener?.state(task),
    subscribed: () => listener?.subscribed?.(),
    watching: () => watching,
  };
}

function follow(created: TaskState, calls: TaskCalls, clock: FakeClock) {
  const progress: string[] = [];
  /** Whether the call's `timeout` stands still now. */
  const still = { paused: 0 };
  const result = followTask(
    created,
    calls,
    { onprogress: ({ message }) => progress.push(message ?? '') },
    {
      alive: () => {},
      clock,
      pause: () => {
        still.paused += 1;
        return () => {
          still.paused -= 1;
        };
      },
    },
  );
  return { result, progress, still };
}

describe('the poll', () => {
  it("waits the server's interval, never under 100 ms nor over 10 s, 1 s when none is named", async () => {
    for (const [asked, waited] of [
      [5, 100],
      [250, 250],
      [60_000, 10_000],
      [undefined, 1_000],
    ] as const) {
      const clock = new FakeClock();
      const { calls, gets } = fakeCalls([done]);
      const { result } = follow(working(asked), calls, clock);
      await settle();
      expect(clock.pending()).toEqual([{ inMs: waited, keepAlive: true }]);
      await clock.advance(waited - 1);
      expect(gets).toEqual([]);
      await clock.advance(1);
      expect((await result).content).toEqual([{ type: 'text', text: 'the end' }]);
      expect(gets).toEqual(['t1']);
      expect(clock.pending()).toEqual([]);
    }
  });
  it('a server that asks for 0 (either revision) is polled at the floor, not at the 1 s of none named', () => {
    for (const named of [{ pollInterval: 0 }, { pollIntervalMs: 0 }]) {
      const task = readTask({ taskId: 't1', status: 'working', ...named });
      if ('issue' in task) throw new Error(task.issue);
      expect(pollDelay(task)).toBe(100);
    }
  });
});

describe('a pushed status', () => {
  it('moves the task on at once, without a poll; the poll then falls back to every 10 s', async () => {
    const clock = new FakeClock();
    const fake = fakeCalls([]);
    const { result, progress, still } = follow(working(200), fake.calls, clock);
    await settle();
    expect(still.paused).toBe(0);
    fake.push({ ...working(200), statusMessage: 'halfway' });
    await settle();
    expect(progress).toContain('halfway');
    // Silent while nothing changes: the call's timeout stands still until the next look.
    expect(still.paused).toBe(1);
    expect(fake.gets).toEqual([]);
    expect(clock.pending()).toEqual([{ inMs: 10_000, keepAlive: true }]);
    fake.push(done);
    expect((await result).content).toEqual([{ type: 'text', text: 'the end' }]);
    expect(still.paused).toBe(0);
    expect(fake.gets).toEqual([]);
    expect(clock.pending()).toEqual([]);
    expect(fake.watching()).toBe(false);
  });

  it('the fallback poll still ends a task whose last status was never pushed', async () => {
    const clock = new FakeClock();
    const fake = fakeCalls([done]);
    const { result } = follow(working(200), fake.calls, clock);
    await settle();
    fake.push({ ...working(200), statusMessage: 'halfway' });
    await settle();
    await clock.advance(10_000);
    expect((await result).content).toEqual([{ type: 'text', text: 'the end' }]);
    expect(fake.gets).toEqual(['t1']);
  });

  it('a subscription that opens asks at once: a change before it was not pushed', async () => {
    const clock = new FakeClock();
    const fake = fakeCalls([done]);
    const { result } = follow(working(5_000), fake.calls, clock);
    await settle();
    fake.subscribed();
    expect((await result).content).toEqual([{ type: 'text', text: 'the end' }]);
    expect(fake.gets).toEqual(['t1']);
    expect(clock.pending()).toEqual([]);
  });
});
