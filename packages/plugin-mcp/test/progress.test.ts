// Progress of a tools/call on every path: a progressToken on every call, each report to the
// caller's onProgress, `timeout` started again by each report, and the total limit
// (`max_total_timeout`) that no amount of progress gets past. The 2025-era stdio hot path
// (direct-calls.ts) against the fixture server, the SDK's path against the reference server over
// Streamable HTTP and the 2026-era server over stdio. What is timed here is the server's: the
// limits are seconds apart from what the servers do, so a busy machine does not decide a result.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolProgress } from '@epoch-agent/protocol';
import {
  endpointConfig,
  fixtureServerArgs,
  MODERN_SERVER,
  type RunningEverything,
  startEverything,
  stdioConfig,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { RequestLimits } from '../src/connection/request-limits.js';
import type { McpServerConfig } from '../src/types.js';
import { FakeClock } from './support/fake-clock.js';
import { rejection } from './support/waiting.js';

let dir: string;
const clients: McpClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-progress-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

function client(config: McpServerConfig): McpClient {
  const made = new McpClient({ config });
  clients.push(made);
  return made;
}

function progressServer(limits: { timeoutMs: number; maxTotalTimeoutMs: number }): McpClient {
  return client(
    stdioConfig('progress', process.execPath, fixtureServerArgs('progress'), {
      ...limits,
      env: { RECORD_FILE: join(dir, 'record.jsonl') },
    }),
  );
}

async function recordedCalls(): Promise<Array<{ _meta?: { progressToken?: unknown } }>> {
  const lines = (await readFile(join(dir, 'record.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .map((line) => JSON.parse(line) as { method?: string; params?: object })
    .filter((entry) => entry.method === 'tools/call')
    .map((entry) => entry.params as { _meta?: { progressToken?: unknown } });
}

describe('progress on the 2025-era stdio path', () => {
  it('a call that reports progress runs past timeout and completes, each report to onProgress', async () => {
    const server = progressServer({ timeoutMs: 1_500, maxTotalTimeoutMs: 60_000 });
    await server.connect();
    const reports: ToolProgress[] = [];
    const started = Date.now();
    // The server ticks for 4 s by its own clock, past the 1.5 s timeout: only the progress kept
    // the call alive to its answer.
    const result = await server.callTool(
      'tick',
      { every_ms: 100, for_ms: 4_000 },
      undefined,
      (progress) => reports.push(progress),
    );
    // A lower bound, which no slow machine fails.
    expect(Date.now() - started).toBeGreaterThan(1_500);
    expect(result.content).toEqual([{ type: 'text', text: `ticked ${reports.length} times` }]);
    expect(reports.length).toBeGreaterThan(10);
    expect(reports[0]).toEqual({ progress: 1, message: 'tick 1' });
    expect(reports.map((r) => r.progress)).toEqual(reports.map((_, i) => i + 1));
  });

  it('every call carries its own progressToken, with or without onProgress', async () => {
    const server = progressServer({ timeoutMs: 10_000, maxTotalTimeoutMs: 60_000 });
    await server.connect();
    await server.callTool('log', { count: 0 });
    await server.callTool('log', { count: 0 }, undefined, () => {});
    const tokens = (await recordedCalls()).map((params) => params._meta?.progressToken);
    expect(tokens).toHaveLength(2);
    for (const token of tokens) expect(token).toBeTypeOf('number');
    expect(new Set(tokens).size).toBe(2);
  });

  it('a call whose progress stops times out at timeout, the reports before it delivered', async () => {
    const server = progressServer({ timeoutMs: 1_000, maxTotalTimeoutMs: 60_000 });
    await server.connect();
    const reports: ToolProgress[] = [];
    const started = Date.now();
    const error = await rejection(
      server.callTool('stall', { reports: 2 }, undefined, (progress) => reports.push(progress)),
    );
    expect(error.code).toBe('request_timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(reports).toEqual([
      { progress: 1, total: 10, message: 'started' },
      { progress: 2, total: 10, message: 'started' },
    ]);
  });

  it('a call that reports progress for ever fails at the total limit, with a code that says so', async () => {
    const server = progressServer({ timeoutMs: 1_500, maxTotalTimeoutMs: 3_000 });
    await server.connect();
    let reports = 0;
    const started = Date.now();
    const error = await rejection(
      server.callTool(
        'until_file',
        { file: join(dir, 'never'), every_ms: 100 },
        undefined,
        () => reports++,
      ),
    );
    expect(error.code).toBe('request_total_timeout');
    expect(error.message).toContain('max_total_timeout');
    expect(error.message).toContain('3 s');
    // The total limit, not the 1.5 s timeout (request_timeout): progress kept restarting that.
    // Not before the limit: a lower bound, which no slow machine fails (a timer never fires early;
    // Node counts it from when it is set).
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(reports).toBeGreaterThan(5);
    // The server was told to stop: the connection is fine for the next call.
    await writeFile(join(dir, 'released'), '');
    await expect(
      server.callTool('until_file', { file: join(dir, 'released'), every_ms: 20 }),
    ).resolves.toMatchObject({ content: [{ type: 'text', text: 'released' }] });
  });
});

describe('progress on the SDK path', () => {
  let everything: RunningEverything;
  beforeEach(async () => {
    everything = await startEverything('http');
  });
  afterEach(async () => {
    await everything.stop();
  });

  it("the reference server's trigger-long-running-operation reports each step and outlives timeout", async () => {
    const server = client(
      endpointConfig('everything', everything.endpoint, {
        timeoutMs: 1_500,
        maxTotalTimeoutMs: 60_000,
      }),
    );
    await server.connect();
    const reports: ToolProgress[] = [];
    const result = await server.callTool(
      'trigger-long-running-operation',
      { duration: 3, steps: 6 },
      undefined,
      (progress) => reports.push(progress),
    );
    expect(result.content[0]).toMatchObject({ type: 'text' });
    expect(reports).toEqual([1, 2, 3, 4, 5, 6].map((progress) => ({ progress, total: 6 })));
  });
});

describe('progress in the 2026 era', () => {
  it('a 2026-07-28 server over stdio: each report reaches onProgress', async () => {
    const server = client(stdioConfig('modern', process.execPath, [MODERN_SERVER, '--progress']));
    await server.connect();
    expect(server.state).toMatchObject({ kind: 'connected', protocol: { era: 'modern' } });
    const reports: ToolProgress[] = [];
    const result = await server.callTool('ticks', { count: 3 }, undefined, (progress) =>
      reports.push(progress),
    );
    expect(result.content).toEqual([{ type: 'text', text: 'ticked' }]);
    expect(reports).toEqual(
      [1, 2, 3].map((n) => ({ progress: n, total: 3, message: `tick ${n}` })),
    );
  });
});

describe('the total limit', () => {
  it('aborts its signal at the limit, not before, and says it passed; end() stops it', async () => {
    const clock = new FakeClock();
    const limit = new RequestLimits({ caller: undefined, totalMs: 5_000, clock });
    await clock.advance(4_999);
    expect(limit.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.passed).toBe('total');
    const ended = new RequestLimits({ caller: undefined, totalMs: 5_000, clock });
    ended.end();
    expect(clock.pending()).toEqual([]);
    expect(ended.passed).toBeUndefined();
  });

  it("the caller's abort goes through, and is not the limit passing", async () => {
    const clock = new FakeClock();
    const caller = new AbortController();
    const limit = new RequestLimits({ caller: caller.signal, totalMs: 5_000, clock });
    caller.abort();
    expect(limit.signal.aborted).toBe(true);
    expect(limit.passed).toBeUndefined();
    limit.end();
  });
});
