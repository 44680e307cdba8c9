// Both protocol eras on real servers: a 2026-07-28 server built on the official server SDK
// (testkit's modern-server.mjs, over stdio and Streamable HTTP) and a 2025-era one (testkit's
// fixture server). Each connects with no config change; the first connect probes on the server's
// own pipe (one process per start, never a second), and a later start begins from the verdict the
// schema cache kept: no probe at all, and on 2026-07-28 no handshake and, while the server's ttlMs
// holds, no tools/list. Cancellation, keepalive, list changes and idle work in the new era too.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import {
  fixtureServerArgs,
  MODERN_SERVER,
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  stdioConfig,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpSchemaCache } from '../src/cache.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpToolsChangedEvent } from '../src/registry/types.js';
import type { McpServerConfig, McpServerStatus, StdioServerConfig } from '../src/types.js';
import { jsonLines } from './support/recording.js';

let dir: string;
let record: string;
const registries: McpRegistry[] = [];
let http: RunningModernServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(os.tmpdir(), 'epoch-era-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  try {
    await Promise.all(registries.splice(0).map((registry) => registry.disconnectAll()));
    await http?.stop();
    http = undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A registry whose schema cache lives in this test's dir: a second one is a warm start. */
function registry(): McpRegistry {
  const created = new McpRegistry({ schemaCache: new McpSchemaCache({ dir: join(dir, 'cache') }) });
  registries.push(created);
  return created;
}

function modernStdio(...args: string[]): StdioServerConfig {
  return stdioConfig('modern', process.execPath, [MODERN_SERVER, ...args], {
    env: { RECORD_FILE: record },
  });
}

function legacyStdio(...args: string[]): StdioServerConfig {
  return stdioConfig('legacy', process.execPath, fixtureServerArgs('pid', ...args), {
    env: { RECORD_FILE: record, PID_FILE: join(dir, 'pids') },
  });
}

/** What the server recorded, one entry per line. */
const recorded = (): Record<string, unknown>[] => jsonLines(record);
const methods = (): unknown[] => recorded().flatMap(({ method }) => method ?? []);
const starts = (): number => recorded().filter((entry) => 'start' in entry).length;

async function connected(registry: McpRegistry, config: McpServerConfig): Promise<McpServerStatus> {
  const [status] = await registry.connectAll([config], 'user');
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
  return status;
}

function call(registry: McpRegistry, name: string, args: Record<string, unknown> = {}) {
  const tool = registry.tools().find((each) => each.name === name);
  if (tool === undefined)
    throw new Error(`no tool ${name} among ${registry.tools().map((t) => t.name)}`);
  return tool.execute(args, { signal: new AbortController().signal });
}

describe('a 2026-07-28 server over stdio', () => {
  it('connects in the modern era from one process, and a warm start skips the probe and the list', async () => {
    const config = modernStdio('--tools-ttl-ms=600000');
    const first = await connected(registry(), config);
    expect(first).toMatchObject({ protocol: { era: 'modern', version: '2026-07-28' } });
    expect(starts()).toBe(1);
    expect(methods()).toEqual(['server/discover', 'subscriptions/listen', 'tools/list']);
    await registries[0]?.disconnectAll();

    const second = registry();
    await second.connectAll([config], 'user');
    const status = await waitUntil(
      () => second.statuses().find(({ state }) => state === 'connected'),
      'the warm start to connect',
    );
    expect(status).toMatchObject({ protocol: { era: 'modern', version: '2026-07-28' } });
    expect(starts()).toBe(2);
    // The second process was asked nothing before it was listened to: no discover, no list.
    const [, secondRun = []] = splitByStart(recorded());
    expect(secondRun.flatMap(({ method }) => method ?? [])).toEqual(['subscriptions/listen']);
    expect(await call(second, 'mcp__modern__echo', { message: 'warm' })).toMatchObject({
      content: [{ type: 'text', text: 'warm' }],
    });
  });

  it('a timed-out call sends notifications/cancelled, and the server stops the work', async () => {
    const reg = registry();
    await connected(reg, { ...modernStdio(), timeoutMs: 300 });
    await expect(call(reg, 'mcp__modern__slow')).rejects.toMatchObject({ code: 'request_timeout' });
    await waitUntil(() => recorded().some((entry) => entry.cancelled === true), 'the cancellation');
    expect(methods()).toContain('notifications/cancelled');
  });

  it('keepalive asks server/discover, which 2026-07-28 has instead of ping, and stays connected', async () => {
    const reg = registry();
    await connected(reg, { ...modernStdio(), keepaliveIntervalMs: 50 });
    await waitUntil(
      () => methods().filter((method) => method === 'server/discover').length >= 3,
      'three keepalive checks',
    );
    expect(methods()).not.toContain('ping');
    expect(reg.statuses()[0]?.state).toBe('connected');
  });

  it('a list change comes by subscriptions/listen and is announced as a diff', async () => {
    const reg = registry();
    const events: McpToolsChangedEvent[] = [];
    reg.onToolsChanged((event) => events.push(event));
    await connected(reg, modernStdio());
    await call(reg, 'mcp__modern__grow');
    const event = await waitUntil(() => events[0], 'the tools-changed event');
    expect(event).toMatchObject({ reason: 'list_changed', added: ['mcp__modern__grown'] });
    expect(await call(reg, 'mcp__modern__grown')).toMatchObject({
      content: [{ type: 'text', text: 'here' }],
    });
  });

  it('closes when idle and connects again, without a probe, for the next call', async () => {
    const reg = registry();
    await connected(reg, { ...modernStdio(), idleTimeoutMs: 100 });
    await waitUntil(() => reg.statuses()[0]?.state === 'idle', 'the idle close');
    expect(await call(reg, 'mcp__modern__echo', { message: 'again' })).toMatchObject({
      content: [{ type: 'text', text: 'again' }],
    });
    expect(starts()).toBe(2);
    expect(methods().filter((method) => method === 'server/discover')).toHaveLength(1);
  });
});

describe('a 2026-07-28 server over stdio, recycled and restarted', () => {
  it('max_lifetime recycles it into a new process, met from the verdict (no second probe)', async () => {
    const reg = registry();
    await connected(reg, { ...modernStdio(), maxLifetimeMs: 200 });
    await waitUntil(() => starts() >= 2, 'the recycle to start a second process');
    expect(await call(reg, 'mcp__modern__echo', { message: 'recycled' })).toMatchObject({
      content: [{ type: 'text', text: 'recycled' }],
    });
    expect(methods().filter((method) => method === 'server/discover')).toHaveLength(1);
  });

  it('the watchdog brings back a server that died, in the modern era', async () => {
    const reg = registry();
    await connected(reg, modernStdio());
    const [answer] = (await call(reg, 'mcp__modern__whoami')).content;
    const { pid } = JSON.parse(answer?.type === 'text' ? answer.text : '{}');
    process.kill(pid, 'SIGKILL');
    await waitUntil(
      () => starts() >= 2 && reg.statuses()[0]?.state === 'connected',
      'the reconnect',
    );
    expect(reg.statuses()[0]).toMatchObject({ protocol: { era: 'modern' } });
    expect(await call(reg, 'mcp__modern__echo', { message: 'back' })).toMatchObject({
      content: [{ type: 'text', text: 'back' }],
    });
  });
});

describe('a 2025-era server over stdio', () => {
  it('is probed once on its own pipe, answers initialize, and a warm start skips the probe', async () => {
    const config = legacyStdio();
    const status = await connected(registry(), config);
    expect(status.state === 'connected' && status.protocol.era).toBe('legacy');
    expect(methods().slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n')).toHaveLength(1);
    await registries[0]?.disconnectAll();
    const before = methods().length;

    const warm = registry();
    await warm.connectAll([config], 'user');
    // Cached tools make the warm start answer at once; wait for the live connection.
    await waitUntil(() => warm.statuses()[0]?.state === 'connected', 'the warm start to connect');
    expect(methods()[before]).toBe('initialize');
    expect(methods().slice(before)).not.toContain('server/discover');
  });

  it('one that exits on a request before initialize is started again with initialize, once', async () => {
    const config = legacyStdio('--initialize-first');
    const status = await connected(registry(), config);
    expect(status.state === 'connected' && status.protocol.era).toBe('legacy');
    expect(methods()).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
    const pids = () => readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n');
    expect(pids()).toHaveLength(2);
    await registries[0]?.disconnectAll();

    // The verdict is kept: the next start is one process, asked no probe.
    const warm = registry();
    await warm.connectAll([config], 'user');
    await waitUntil(() => warm.statuses()[0]?.state === 'connected', 'the warm start to connect');
    expect(pids()).toHaveLength(3);
    expect(methods().filter((method) => method === 'server/discover')).toHaveLength(1);
  });

  it('one that never answers what it does not know: the probe gives up, initialize follows on the same process', async () => {
    const config = { ...legacyStdio('--silent-unknown'), connectTimeoutMs: 2_000 };
    const status = await connected(registry(), config);
    expect(status.state === 'connected' && status.protocol.era).toBe('legacy');
    expect(methods().slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a remembered verdict that no longer holds costs one attempt, then a probe', async () => {
    // The cache says modern (a 2026 server ran under this config); now a 2025-era one answers.
    const modern = modernStdio();
    await connected(registry(), modern);
    await registries[0]?.disconnectAll();
    const legacyUnderSameConfig: StdioServerConfig = { ...modern, args: fixtureServerArgs('pid') };
    const cache = new McpSchemaCache({ dir: join(dir, 'cache') });
    const remembered = await cache.get(modern);
    if (remembered === undefined) throw new Error('nothing cached');
    await cache.set(legacyUnderSameConfig, remembered);

    const reg = registry();
    await reg.connectAll([legacyUnderSameConfig], 'user');
    const status = await waitUntil(
      () => reg.statuses().find(({ state }) => state === 'connected' || state === 'failed'),
      'the connect to settle',
    );
    expect(status).toMatchObject({ state: 'connected', protocol: { era: 'legacy' } });
  });
});

describe('a 2026-07-28 server over Streamable HTTP', () => {
  it('connects in the modern era, calls, and sees a list change', async () => {
    http = await startModernHttp(['--modern-only']);
    const reg = registry();
    const events: McpToolsChangedEvent[] = [];
    reg.onToolsChanged((event) => events.push(event));
    const status = await connected(reg, remoteConfig('web', 'http', http.url));
    expect(status).toMatchObject({ protocol: { era: 'modern', version: '2026-07-28' } });
    expect(await call(reg, 'mcp__web__echo', { message: 'over http' })).toMatchObject({
      content: [{ type: 'text', text: 'over http' }],
    });
    await call(reg, 'mcp__web__grow');
    const event = await waitUntil(() => events[0], 'the tools-changed event');
    expect(event).toMatchObject({ reason: 'list_changed', added: ['mcp__web__grown'] });
  });
});

describe('the cache hints of a 2026-07-28 list (ttlMs, cacheScope)', () => {
  const cacheFiles = (): string[] => {
    try {
      return readdirSync(join(dir, 'cache'));
    } catch {
      return [];
    }
  };

  it('a public list fresh for 10 minutes is written, and a warm start asks only for the subscription', async () => {
    http = await startModernHttp(['--tools-ttl-ms=600000', '--tools-scope=public'], {
      RECORD_FILE: record,
    });
    const config = remoteConfig('web', 'http', http.url);
    await connected(registry(), config);
    expect(methods()).toEqual(['server/discover', 'subscriptions/listen', 'tools/list']);
    await registries[0]?.disconnectAll();
    expect(cacheFiles()).toHaveLength(1);
    const before = methods().length;

    const warm = registry();
    await warm.connectAll([config], 'user');
    await waitUntil(() => warm.statuses()[0]?.state === 'connected', 'the warm start to connect');
    expect(methods().slice(before)).toEqual(['subscriptions/listen']);
    expect(warm.tools().map(({ name }) => name)).toContain('mcp__web__echo');
  });

  it('a private list of a server that may be reached with a login is never written to disk', async () => {
    http = await startModernHttp(['--tools-ttl-ms=600000', '--tools-scope=private']);
    await connected(registry(), remoteConfig('web', 'http', http.url));
    await registries[0]?.disconnectAll();
    expect(cacheFiles()).toEqual([]);
    // Given in its own Authorization header, the login is the config's: the list may be kept.
    const withHeader = remoteConfig('web', 'http', http.url, {
      headers: { Authorization: 'Bearer config-token' },
    });
    await connected(registry(), withHeader);
    await registries[1]?.disconnectAll();
    expect(cacheFiles()).toHaveLength(1);
  });
});

/** The recorded entries of each process, split at each `start`. */
function splitByStart(entries: Record<string, unknown>[]): Record<string, unknown>[][] {
  const runs: Record<string, unknown>[][] = [];
  for (const entry of entries) {
    if ('start' in entry) runs.push([]);
    else runs.at(-1)?.push(entry);
  }
  return runs;
}
