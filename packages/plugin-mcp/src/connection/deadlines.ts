// The deadlines of the requests in flight (request-limits.ts: a call's `timeout` and its total
// limit), on one Node timer for the whole process. A call starts two such limits and nearly always
// settles long before either passes, so a limit's cost is its start and its cancel: here a small
// object put at the end of a queue and a flag, where a Node timer of its own was a Timeout, a list
// made and dropped each time the call was the only one in flight, and calls into libuv to arm,
// unref and disarm it. The timer is armed for the soonest deadline only; a cancelled deadline stays
// where it is until it comes to the front of its queue, so the timer may wake once for nothing,
// and then sleeps until the next one. It never keeps the process alive: the request in flight does.

import { type Clock, type ClockTimer, realClock } from './clock.js';

/** A queue holding more cancelled deadlines than this (and than live ones) is swept. */
const SWEEP_AT = 64;
/** Come deadlines held before the head of a queue that never empties, before they are let go. */
const COMPACT_AT = 1_024;

class Deadline implements ClockTimer {
  cancelled = false;
  readonly at: number;
  readonly run: () => void;
  /** Its queue, until it comes (or is swept out of it). */
  queue: DeadlineQueue | undefined;

  constructor(queue: DeadlineQueue, at: number, run: () => void) {
    this.queue = queue;
    this.at = at;
    this.run = run;
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.queue?.cancelled(this);
  }
}

/**
 * The deadlines of one length, in the order they were set, which is the order they fall due (the
 * time is performance.now()'s, which never goes back).
 */
class DeadlineQueue {
  #items: Deadline[] = [];
  #head = 0;
  #cancelled = 0;

  add(deadline: Deadline): void {
    this.#items.push(deadline);
  }

  /** The soonest deadline not cancelled, with the cancelled ones before it dropped. */
  first(): Deadline | undefined {
    const items = this.#items;
    let head = this.#head;
    while (head < items.length && (items[head] as Deadline).cancelled) {
      head += 1;
      this.#cancelled -= 1;
    }
    if (head === items.length) {
      this.#items = [];
      this.#head = 0;
      return undefined;
    }
    // Calls that overlap without end never empty the queue: what is behind the head goes.
    if (head > COMPACT_AT && head * 2 > items.length) {
      this.#items = items.slice(head);
      head = 0;
    }
    this.#head = head;
    return this.#items[head];
  }

  /** Takes the first deadline out: it has come. */
  shift(): void {
    const first = this.#items[this.#head];
    if (first !== undefined) first.queue = undefined;
    this.#head += 1;
  }

  cancelled(deadline: Deadline): void {
    this.#cancelled += 1;
    // One call at a time cancels what it set last: the queue empties here as it fills.
    if (this.#items[this.#head] === deadline) {
      this.first();
      return;
    }
    const live = this.#items.length - this.#head - this.#cancelled;
    if (this.#cancelled > SWEEP_AT && this.#cancelled > live) {
      const kept: Deadline[] = [];
      for (const each of this.#items.slice(this.#head)) {
        if (each.cancelled) each.queue = undefined;
        else kept.push(each);
      }
      this.#items = kept;
      this.#head = 0;
      this.#cancelled = 0;
    }
  }
}

class Deadlines {
  readonly #queues = new Map<number, DeadlineQueue>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (performance.now() time). */
  #armedAt = Number.POSITIVE_INFINITY;

  later(ms: number, run: () => void): ClockTimer {
    let queue = this.#queues.get(ms);
    if (queue === undefined) {
      queue = new DeadlineQueue();
      this.#queues.set(ms, queue);
    }
    const deadline = new Deadline(queue, performance.now() + ms, run);
    queue.add(deadline);
    if (deadline.at < this.#armedAt) this.#arm(deadline.at);
    return deadline;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    // Node's timer may fire up to a millisecond before `at` by this clock: fire() then sleeps again.
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, Math.ceil(at - performance.now())));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Deadline[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [ms, queue] of this.#queues) {
      for (let first = queue.first(); first !== undefined; first = queue.first()) {
        if (first.at > now) {
          next = Math.min(next, first.at);
          break;
        }
        queue.shift();
        due.push(first);
      }
      if (queue.first() === undefined) this.#queues.delete(ms);
    }
    if (next < this.#armedAt) this.#arm(next);
    // After the queues are settled: a deadline's run may set new ones.
    for (const deadline of due) {
      if (deadline.cancelled) continue;
      deadline.cancelled = true;
      try {
        deadline.run();
      } catch (error) {
        // Thrown as a Node timer's would be, and after the others have run: none is lost.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

const deadlines = new Deadlines();

/**
 * The clock of request limits: Date.now(), and deadlines on the shared timer. A timer that must
 * keep the process alive is Node's own.
 */
export const requestClock: Clock = {
  now: () => Date.now(),
  later: (ms, run, keepAlive) =>
    keepAlive ? realClock.later(ms, run, keepAlive) : deadlines.later(ms, run),
};
