// The fault-injection suite's harness: one McpRegistry per test with a healthy server beside the
// faulty one, the fault-server.mjs configs, every status each server went through, and finish(),
// which proves the fault left nothing behind: the healthy server still answers, after
// disconnectAll no fixture process runs (checked in /proc) and no socket, pipe, child or timer of
// ours is still open, and no promise rejection went unhandled.
import { createHook } from 'node:async_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@epoch-agent/protocol';
import { remoteConfig, stdioConfig, waitUntil } from '@epoch-agent/testkit';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { McpRegistry } from '../../src/registry/registry.js';
import type { McpRegistryOptions } from '../../src/registry/types.js';
import type { McpEpochTool } from '../../src/tools/epoch-tools.js';
import type {
  McpServerState,
  McpServerStatus,
  RemoteServerConfig,
  StdioServerConfig,
} from '../../src/types.js';
import { isRunning, recordDir, records } from './recording.js';
import { waitForStatus } from './waiting.js';

const FAULT_SERVER = fileURLToPath(new URL('../fixtures/fault-server.mjs', import.meta.url));

export type Fault =
  | 'none'
  | 'crash-at-start'
  | 'hang-initialize'
  | 'endless-line'
  | 'endless-call'
  | 'hang-tool'
  | 'crash-mid-call'
  | 'garbage'
  | 'truncated-exit'
  | 'truncated-continue'
  | 'big'
  | 'exit-after-calls'
  | 'die-for-good'
  | 'leave-for-good'
  | 'error-answer'
  | 'invalid-result'
  | 'late-answer'
  | 'ask-mid-call'
  | 'swap'
  | 'not-mcp';

/** What finish() compares: handles that a leaked connection or child would leave open. */
const TRACKED_RESOURCES = ['ProcessWrap', 'PipeWrap', 'TCPSocketWrap', 'TCPServerWrap'];

/** Every unhandled rejection in this worker since the suite started (see trackRejections). */
const rejections: unknown[] = [];
const onRejection = (reason: unknown): void => {
  rejections.push(reason);
};

/** Watchdog delays short enough for a suite: the schedule's shape, not its 1 s/2 s/4 s length. */
const FAST_WATCHDOG = { reconnectDelaysMs: [100, 200, 400] };

/**
 * Registers a fault suite's hooks: unhandled rejections are tracked around the whole suite, and
 * each test's harness is disposed after it. Returns the function that makes a test's harness.
 */
export function useFaultHarness(): () => FaultHarness {
  let current: FaultHarness | undefined;
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return () => {
    current = new FaultHarness(FAST_WATCHDOG);
    return current;
  };
}

export class FaultHarness {
  readonly registry: McpRegistry;
  readonly #dir = recordDir();
  /** EPOCH_HOME before this test pointed it at its temp dir (OAuth tokens, schema cache). */
  readonly #epochHome = process.env.EPOCH_HOME;
  readonly #baseline = resourceCounts();
  readonly #timers = new TimerWatch();
  readonly #rejectionsBefore = rejections.length;
  readonly #states = new Map<string, McpServerState[]>();
  readonly #cleanups: Array<() => Promise<void>> = [];
  #finished = false;

  constructor(options: McpRegistryOptions = {}) {
    process.env.EPOCH_HOME = this.#dir.path;
    // No schema cache: connectAll must wait for the real connection of every server.
    this.registry = new McpRegistry({ schemaCache: null, ...options });
    this.registry.onStatus((status) => this.states(status.name).push(status.state));
  }

  /** A fault-server.mjs config. Short timeouts by default; a test widens what it needs. */
  stdio(
    name: string,
    fault: Fault = 'none',
    overrides: Partial<StdioServerConfig> = {},
    flags: readonly string[] = [],
  ): StdioServerConfig {
    return stdioConfig(
      name,
      process.execPath,
      [FAULT_SERVER, this.#recordFile(name), `--fault=${fault}`, ...flags],
      overrides,
    );
  }

  /** The healthy neighbour every fault test connects beside its faulty server. */
  healthy(): StdioServerConfig {
    return this.stdio('healthy');
  }

  remote<T extends 'sse' | 'http'>(
    name: string,
    transport: T,
    url: string,
    overrides: Partial<RemoteServerConfig<T>> = {},
  ): RemoteServerConfig<T> {
    return remoteConfig(name, transport, url, overrides);
  }

  /** Something of the test's (an HTTP fixture server) to stop before finish() checks for leaks. */
  own(stop: () => Promise<void>): void {
    this.#cleanups.push(stop);
  }

  /** Every state `name` went through, in order. */
  states(name: string): McpServerState[] {
    let list = this.#states.get(name);
    if (list === undefined) {
      list = [];
      this.#states.set(name, list);
    }
    return list;
  }

  status(name: string): McpServerStatus {
    const status = this.registry.statuses().find((s) => s.name === name);
    if (status === undefined) throw new Error(`no server "${name}" is registered`);
    return status;
  }

  /** The tool as the model sees it; keep it to call it again while the server is not connected. */
  tool(server: string, tool: string): McpEpochTool {
    const found = this.registry
      .tools()
      .find((t) => t.server === server && t.target.kind === 'tool' && t.target.name === tool);
    if (found === undefined) {
      throw new Error(
        `tool "${tool}" of "${server}" is not offered (${this.status(server).state})`,
      );
    }
    return found;
  }

  call(
    server: string,
    tool: string,
    args: Record<string, unknown> = {},
    signal = new AbortController().signal,
  ): Promise<ToolResult> {
    return this.tool(server, tool).execute(args, { signal });
  }

  /** Proves a server works: its echo answers. */
  async expectEcho(server: string): Promise<void> {
    const result = await this.call(server, 'echo', { text: `still here: ${server}` });
    expect(result.content).toEqual([{ type: 'text', text: `still here: ${server}` }]);
  }

  /** Resolves when `name`'s status is `state`: now, or at the status event into it. */
  async waitForState(name: string, state: McpServerState): Promise<void> {
    await waitForStatus(this.registry, name, state).catch((error: unknown) => {
      throw new Error(
        `${(error as Error).message}; went through ${this.states(name).join(' -> ')}`,
      );
    });
  }

  /** The fixture processes `name` has started so far, oldest first. */
  pids(name: string): number[] {
    return records(this.#recordFile(name)).flatMap((r) => (r.pid === undefined ? [] : [r.pid]));
  }

  /** What `name`'s fixture processes received, in order. */
  received(name: string): ReturnType<typeof records> {
    return records(this.#recordFile(name));
  }

  /**
   * The end of every fault test: the healthy server still answers; then disconnectAll, after which
   * no fixture process of any server runs, no handle of ours is left open and no rejection went
   * unhandled.
   */
  async finish(): Promise<void> {
    await this.expectEcho('healthy');
    const pids = this.#allPids();
    await this.#teardown();
    expect(pids.filter(isRunning)).toEqual([]);
    expect(await settledLeaks(this.#baseline)).toEqual({});
    expect(this.#timers.pending()).toEqual([]);
    expect(rejections.slice(this.#rejectionsBefore)).toEqual([]);
  }

  /** For afterEach: tears down what a failed test left (a no-op after finish()). */
  async dispose(): Promise<void> {
    if (!this.#finished) {
      await this.#teardown().catch(() => {});
      for (const pid of this.#allPids().filter(isRunning)) process.kill(pid, 'SIGKILL');
    }
    if (this.#epochHome === undefined) delete process.env.EPOCH_HOME;
    else process.env.EPOCH_HOME = this.#epochHome;
    this.#dir.remove();
  }

  async #teardown(): Promise<void> {
    this.#finished = true;
    try {
      await this.registry.disconnectAll();
      for (const stop of this.#cleanups.splice(0).reverse()) await stop();
    } finally {
      this.#timers.stop();
    }
  }

  #allPids(): number[] {
    return [...this.#states.keys()].flatMap((name) => this.pids(name));
  }

  #recordFile(name: string): string {
    // Registered here too, so #allPids() sees a server that never reported a status.
    this.states(name);
    return join(this.#dir.path, `${name}.jsonl`);
  }
}

/**
 * The timers created from its start on that are still pending: a timer of ours (a reconnect, a
 * keepalive, a request timeout, a reap grace) that outlives disconnectAll. Counting 'Timeout' in
 * getActiveResourcesInfo() cannot tell: a timer of vitest's that ends meanwhile hides a new one.
 */
class TimerWatch {
  readonly #pending = new Map<number, { hasRef(): boolean; _idleTimeout?: number }>();
  readonly #hook = createHook({
    init: (id, type, _trigger, resource) => {
      if (type === 'Timeout') this.#pending.set(id, resource as { hasRef(): boolean });
    },
    destroy: (id) => {
      this.#pending.delete(id);
    },
  }).enable();

  stop(): void {
    this.#hook.disable();
  }

  /**
   * The delays (ms) of the timers still pending that keep the process alive. Node marks a cleared
   * timer with _idleTimeout -1; unref'd ones (undici's clock) hold nothing open.
   */
  pending(): number[] {
    return [...this.#pending.values()]
      .filter((timer) => (timer._idleTimeout ?? -1) >= 0 && timer.hasRef())
      .map((timer) => timer._idleTimeout ?? -1);
  }
}

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) {
    if (TRACKED_RESOURCES.includes(type)) counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

/**
 * The tracked handles open now beyond `baseline`, by type; empty when none. Sockets and pipes
 * finish closing on later ticks with no event of ours to wait on, so this polls (generously) for
 * them to go, and returns what is left.
 */
async function settledLeaks(baseline: Map<string, number>): Promise<Record<string, number>> {
  const extra = (): Record<string, number> => {
    const over: Record<string, number> = {};
    for (const [type, count] of resourceCounts()) {
      const more = count - (baseline.get(type) ?? 0);
      if (more > 0) over[type] = more;
    }
    return over;
  };
  await waitUntil(() => Object.keys(extra()).length === 0, 'handles to close').catch(() => {});
  return extra();
}

/** What `promise` rejected with; undefined when it resolved. */
export function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e ?? new Error('rejected without a reason'),
  );
}
