// closeTransportAndReap: how a stdio server is stopped so that nothing of it is left. Three steps:
// snapshot the server's whole process tree, close gracefully (stdin EOF, grace, SIGTERM to the
// group, grace), then sweep (SIGKILL whatever of the snapshot still runs). The SDK's own stdio
// close signals only its direct child, so a server behind `sh -c` / `npx`, or one with helpers,
// leaves orphans; this is why we have our own transport at all.
//
// PLATFORM: on Linux the snapshot comes from /proc (see process-tree.ts) and catches helpers that
// left the group (setsid). Elsewhere only the server's process group is signalled and watched.

import {
  collectTree,
  groupExists,
  isRunning,
  ownsGroup,
  type ProcessTable,
  readProcessTable,
  signalGroup,
  signalTracked,
  type TrackedProcess,
} from './process-tree.js';

export interface ReapOptions {
  /** How long the server gets to exit on its own after stdin EOF. Default 2000 ms. */
  readonly stdinGraceMs?: number;
  /** How long the tree gets after SIGTERM before it is killed. Default 2000 ms. */
  readonly termGraceMs?: number;
}

/** What the reaper needs from a transport; `StdioTransport` implements it. */
export interface ReapableTransport {
  /**
   * The server process as spawned (its pid is also its process group and session id); undefined
   * if nothing was spawned.
   */
  readonly leader: TrackedProcess | undefined;
  /** Ends the server's stdin: a well-behaved server exits on EOF. */
  endInput(): void;
  /** Runs once the tree is gone: drain and release the pipes, fire onclose (exactly once). */
  release(): Promise<void>;
}

const DEFAULT_STDIN_GRACE_MS = 2000;
const DEFAULT_TERM_GRACE_MS = 2000;
/** Short, because a well-behaved server must be closed well under 100 ms. */
const POLL_MS = 5;
/** After SIGKILL only an unkillable process (stuck in the kernel) outlives this; we stop waiting. */
const KILL_WAIT_MS = 2000;

interface Closing {
  readonly done: Promise<void>;
  readonly force: AbortController;
  /** Whether closeTransportAndReap() was called: a second call escalates. */
  callerClosed: boolean;
}

const closings = new WeakMap<ReapableTransport, Closing>();

/**
 * Closes the transport and kills every process of its server's tree. Safe to call many times:
 * calls join the close in flight, and the second call of this function skips what is left of the
 * grace periods and kills at once. Resolves once no process of the snapshot runs (or, for a process
 * that SIGKILL cannot end, after a bounded wait) and onclose has fired.
 */
export function closeTransportAndReap(
  transport: ReapableTransport,
  options: ReapOptions = {},
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
  options: ReapOptions = {},
): Promise<void> {
  return begin(transport, options, false);
}

function begin(transport: ReapableTransport, options: ReapOptions, byCaller: boolean) {
  const existing = closings.get(transport);
  if (existing !== undefined) {
    if (byCaller) {
      if (existing.callerClosed) existing.force.abort();
      existing.callerClosed = true;
    }
    return existing.done;
  }
  const force = new AbortController();
  const done = reap(transport, options, force.signal);
  closings.set(transport, { done, force, callerClosed: byCaller });
  return done;
}

async function reap(
  transport: ReapableTransport,
  options: ReapOptions,
  force: AbortSignal,
): Promise<void> {
  const leader = transport.leader;
  try {
    if (leader === undefined) return;
    const tree = new Tree(leader);
    transport.endInput();
    if (await tree.waitGone(options.stdinGraceMs ?? DEFAULT_STDIN_GRACE_MS, force)) return;
    tree.signal('SIGTERM');
    if (await tree.waitGone(options.termGraceMs ?? DEFAULT_TERM_GRACE_MS, force)) return;
    tree.signal('SIGKILL');
    await tree.waitGone(KILL_WAIT_MS);
  } finally {
    await transport.release();
  }
}

/** The snapshot of one server's tree, grown by every rescan, never shrunk. */
class Tree {
  readonly #leader: TrackedProcess;
  readonly #tracked = new Map<number, TrackedProcess>();
  #table: ProcessTable | undefined;

  /** Step 1: the snapshot, taken before anything is closed, while every parent link still holds. */
  constructor(leader: TrackedProcess) {
    this.#leader = leader;
    this.#rescan();
  }

  /** Signals the group, then each tracked process that left it; rescans first for late children. */
  signal(signal: NodeJS.Signals): void {
    this.#rescan();
    signalGroup(this.#leader, signal, this.#table);
    for (const tracked of this.#tracked.values()) {
      if (tracked.pgid !== this.#leader.pid) signalTracked(tracked, signal);
    }
  }

  /** Polls until nothing of the tree runs (true), or the time is up or `force` fired (false). */
  async waitGone(ms: number, force?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.#gone()) return true;
      if (force?.aborted || Date.now() >= deadline) return false;
      await sleep(Math.min(POLL_MS, deadline - Date.now()), force);
    }
  }

  #gone(): boolean {
    if (this.#table === undefined) return !groupExists(this.#leader.pid);
    if ([...this.#tracked.values()].some(isRunning)) return false;
    // Everything we knew of is gone; one more look catches what was born since.
    return !this.#rescan();
  }

  /** Adds every running process of the tree to the snapshot; true if one runs. */
  #rescan(): boolean {
    const table = readProcessTable();
    this.#table = table;
    if (table === undefined) return false;
    const group = ownsGroup(table, this.#leader) ? this.#leader.pid : undefined;
    const found = collectTree(table, [this.#leader, ...this.#tracked.values()], group);
    for (const tracked of found) this.#tracked.set(tracked.pid, tracked);
    return found.length > 0;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
