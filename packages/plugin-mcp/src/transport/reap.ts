// closeTransportAndReap: how a stdio server is stopped so that nothing of it is left. Three steps:
// snapshot the server's whole process tree, close gracefully (stdin EOF, grace, SIGTERM to the
// group, grace), then sweep (SIGKILL whatever of the tree still runs). The SDK's own stdio close
// signals only its direct child, so a server behind `sh -c` / `npx`, or one with helpers, leaves
// orphans; this is why we have our own transport at all.
//
// A well-behaved server must be closed as soon as it has exited, also on a machine with hundreds of
// processes: the tree is looked at cheaply (process-tree.ts), and the server's exit wakes the wait.
//
// PLATFORM: the tree comes from the platform's process table (process-tree.ts): /proc on Linux,
// `ps` on macOS, Win32_Process on Windows, where the signals are taskkill /T /F of the tree.

import type { ProcessTableSource } from './process-table/table.js';
import { ServerTree } from './process-tree.js';
import type { TrackedProcess } from './tracked-process.js';

/** The grace periods of the graceful step; see the defaults below for why they are what they are. */
export interface ReapOptions {
  /** How long the server gets to exit on its own after stdin EOF. Default 500 ms. */
  readonly stdinGraceMs?: number;
  /**
   * How long the tree gets after SIGTERM before it is killed. Default 500 ms. Cut short once every
   * process left ignores SIGTERM: nothing is waited for then.
   */
  readonly termGraceMs?: number;
}

/** What the reaper needs from a transport; `StdioTransport` implements it. */
export interface ReapableTransport {
  /**
   * The server process as spawned (its pid is also its process group and session id); undefined
   * if nothing was spawned.
   */
  readonly leader: TrackedProcess | undefined;
  /** Settles once the server process has exited. */
  readonly exited: Promise<void>;
  /**
   * Whether the server process has not been reaped by Node yet (it runs, or it is a zombie): until
   * then its pid is its own, and no read is needed to know it is still there.
   */
  readonly unreaped: boolean;
  /**
   * Ends the server's stdin: a well-behaved server exits on EOF. The EOF may reach the server
   * before this returns (nothing of ours was still waiting to be written), so whatever must be
   * seen as it was before the EOF is read first. Resolves once the end is out, or at once if
   * there is no stdin left to end.
   */
  endInput(): Promise<void>;
  /**
   * Runs once the tree is gone: drain the pipes (closed right after, once the caller has its
   * answer), fire onclose (exactly once), and take the server out of the crash record
   * (leftovers.ts) before resolving.
   */
  release(): Promise<void>;
  /** The grace periods this transport's server gets, unless a caller passes others. */
  readonly reapOptions: ReapOptions;
}

// The MCP spec's stdio shutdown (Lifecycle, "Shutdown") is this sequence: close the server's
// stdin, wait for it to exit, SIGTERM if it has not within "a reasonable time", SIGKILL if it has
// not within a reasonable time after that. The spec leaves the times to the client. Ours:
// - A server that honours EOF exits as soon as its read loop sees it: a Node server takes about
//   5 ms here, the time its runtime needs to shut down. 500 ms is a hundred times that, and leaves
//   room for a server that flushes a file or a connection on the way out.
// - SIGTERM's default action ends a process at once; a handler that cleans up gets the same 500 ms.
// - Together they bound what a user waits for the worst server (one that ignores both) at about a
//   second: what closing a CLI or a host may cost before it feels stuck. The SDK waits 2 s + 2 s,
//   and still leaves that server's helpers running.
// Hosts that know their servers need longer pass ReapOptions (McpRegistryOptions.reap).
const DEFAULT_STDIN_GRACE_MS = 500;
const DEFAULT_TERM_GRACE_MS = 500;
/** For the tree's other processes; the server's own exit wakes the wait at once. */
const POLL_MS = 5;
/** After SIGKILL only an unkillable process (stuck in the kernel) outlives this; we stop waiting. */
const KILL_WAIT_MS = 2000;

interface Closing {
  readonly done: Promise<void>;
  readonly alarm: Alarm;
  /** Whether closeTransportAndReap() was called: a second call escalates. */
  callerClosed: boolean;
}

const closings = new WeakMap<ReapableTransport, Closing>();

/**
 * Closes the transport and kills every process of its server's tree. Safe to call many times:
 * calls join the close in flight, and the second call of this function skips what is left of the
 * grace periods and kills at once. Resolves once no process of the tree runs (or, for a process
 * that SIGKILL cannot end, after a bounded wait) and onclose has fired.
 */
export function closeTransportAndReap(
  transport: ReapableTransport,
  options: ReapOptions = transport.reapOptions,
): Promise<void> {
  return begin(transport, options, true);
}

/**
 * The same close, but one that never escalates: for the transport's own close() (the SDK calls it
 * on its own, e.g. after a failed handshake) and for a server that exited or broke the protocol.
 * Only a caller's repeated closeTransportAndReap() means "stop waiting".
 */
export function reapTransport(
  transport: ReapableTransport,
  options: ReapOptions = transport.reapOptions,
): Promise<void> {
  return begin(transport, options, false);
}

function begin(transport: ReapableTransport, options: ReapOptions, byCaller: boolean) {
  const existing = closings.get(transport);
  if (existing !== undefined) {
    if (byCaller) {
      if (existing.callerClosed) existing.alarm.force();
      existing.callerClosed = true;
    }
    return existing.done;
  }
  const alarm = new Alarm();
  const done = reap(transport, options, alarm);
  closings.set(transport, { done, alarm, callerClosed: byCaller });
  return done;
}

async function reap(
  transport: ReapableTransport,
  options: ReapOptions,
  alarm: Alarm,
): Promise<void> {
  const leader = transport.leader;
  try {
    if (leader === undefined) return;
    // The snapshot sees every parent link as it was before EOF, and the end follows at once:
    // nothing else is read or set up before it, the server should be on its way out, not
    // waiting for us.
    const tree = new ServerTree(leader, () => transport.unreaped);
    const inputEnded = transport.endInput();
    alarm.watch(transport.exited);
    void inputEnded.then(() => tree.noteStrangers());
    const graceful = { tree, alarm, skippable: true };
    if (await waitGone(graceful, options.stdinGraceMs ?? DEFAULT_STDIN_GRACE_MS)) return;
    await terminate(graceful, options);
  } finally {
    await transport.release();
  }
}

/**
 * Reaps the tree of a server whose client is gone (a process of ours that died without closing
 * it, leftovers.ts): its stdin has long reached EOF, so SIGTERM, the grace, SIGKILL. `leader` is
 * known by its pid and start time, so a process that got its pid since is never signalled.
 * Resolves whether anything of the tree was left to end.
 */
export async function reapAbandoned(
  leader: TrackedProcess,
  source: ProcessTableSource,
  options: ReapOptions = {},
): Promise<boolean> {
  const tree = new ServerTree(leader, () => false, source);
  if (await tree.gone()) return false;
  // Nobody waits for this process's exit: the alarm never rings, the polls do the looking.
  await terminate({ tree, alarm: new Alarm() }, options);
  return true;
}

/** The end of every reap: SIGTERM, its grace (cut short once all left ignore it), SIGKILL. */
async function terminate(graceful: Waiting, options: ReapOptions): Promise<void> {
  const { tree, alarm } = graceful;
  await tree.signal('SIGTERM');
  const term = { ...graceful, ignored: 'SIGTERM' } as const;
  if (await waitGone(term, options.termGraceMs ?? DEFAULT_TERM_GRACE_MS)) return;
  await tree.signal('SIGKILL');
  await waitGone({ tree, alarm }, KILL_WAIT_MS);
}

interface Waiting {
  readonly tree: ServerTree;
  readonly alarm: Alarm;
  /** Whether a second close (Alarm.force) cuts the wait short; not once there is nothing to skip. */
  readonly skippable?: boolean;
  /** The signal just sent: once every process left ignores it, the wait is over. */
  readonly ignored?: NodeJS.Signals;
}

/**
 * Looks until nothing of the tree runs (true), or the time is up, a second close skipped the wait
 * or what is left ignores the signal sent (false).
 */
async function waitGone(
  { tree, alarm, skippable = false, ignored }: Waiting,
  ms: number,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await tree.gone()) return true;
    if ((skippable && alarm.forced) || Date.now() >= deadline) return false;
    if (ignored !== undefined && tree.ignores(ignored)) return false;
    // While the server itself runs a look sees nothing (gone() reads nothing then), and its exit
    // wakes the sleep: a poll then is only CPU taken from the server on its way out. Not while a
    // signal is out: each look also asks whether what is left ignores it.
    const nap = ignored === undefined && tree.leaderRuns ? ms : POLL_MS;
    await alarm.sleep(Math.min(nap, deadline - Date.now()), skippable);
  }
}

/**
 * Wakes the reaper's waits: when the server process exits, which is how a well-behaved server's
 * close ends (it should end then, not at the next poll), and when a second close skips what is
 * left of the grace periods. A flag and one callback, not an AbortSignal: a listener per poll
 * cost more than the rest of a polite close's waiting.
 */
class Alarm {
  #exited = false;
  #forced = false;
  #sleeper: ((why: 'exit' | 'force') => void) | undefined;

  /** Whether a second close asked to skip the grace periods. */
  get forced(): boolean {
    return this.#forced;
  }

  /** Rings once `exited` settles (the server process exited). */
  watch(exited: Promise<void>): void {
    void exited.then(() => {
      this.#exited = true;
      this.#sleeper?.('exit');
    });
  }

  force(): void {
    this.#forced = true;
    this.#sleeper?.('force');
  }

  /**
   * Sleeps `ms`, less if the server exits meanwhile (only the first time it has: after that its
   * exit is old news) or, if `skippable`, a second close comes.
   */
  sleep(ms: number, skippable: boolean): Promise<void> {
    if (skippable && this.#forced) return Promise.resolve();
    const wakesOnExit = !this.#exited;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#sleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#sleeper = (why) => {
        if (why === 'exit' ? wakesOnExit : skippable) done();
      };
    });
  }
}
