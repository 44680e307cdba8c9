// The connection states as a registry reports them: status events with each state's payload
// (reconnecting with its attempt and next attempt time, idle, needsLogin), and reconnect(name)
// bringing a failed server back.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import type { HttpServerConfig, McpServerStatus, StdioServerConfig } from '../src/types.js';
import { startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';
import { type Behavior, recordDir, recordingConfig, records } from './support/recording.js';
import { waitForStatus } from './support/waiting.js';

let dir: ReturnType<typeof recordDir>;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = recordDir();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dir.remove();
});

function registry(): { reg: McpRegistry; events: McpServerStatus[] } {
  // No OAuth login for any server: the remote one's 401 must be needsLogin, not a token refresh.
  const logins = ownLogins();
  cleanups.push(async () => logins.remove());
  const reg = new McpRegistry({
    schemaCache: null,
    reconnectDelaysMs: [200, 200, 200],
    createTransport: logins.createTransport,
  });
  cleanups.push(() => reg.disconnectAll());
  const events: McpServerStatus[] = [];
  reg.onStatus((status) => events.push(status));
  return { reg, events };
}

function server(
  name: string,
  behavior: Behavior = {},
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return recordingConfig(name, join(dir.path, `${name}.jsonl`), behavior, overrides);
}

function pids(name: string): number[] {
  return records(join(dir.path, `${name}.jsonl`))
    .filter((r) => r.event === 'start')
    .map((r) => r.pid ?? 0);
}

describe('status events', () => {
  it('a killed server reports reconnecting (attempt, next attempt time, error, stderr), then connected', async () => {
    const { reg, events } = registry();
    await reg.connectAll([server('k', { stderr: 'k: ready' })], 'user');
    process.kill(pids('k')[0] ?? 0, 'SIGKILL');
    await waitForStatus(reg, 'k', 'reconnecting');
    await waitForStatus(reg, 'k', 'connected');
    // One event per attempt, not one when it is scheduled and another when it starts.
    expect(events.map((e) => e.state)).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'connected',
    ]);
    const [waiting] = events.filter((e) => e.state === 'reconnecting');
    if (waiting?.state !== 'reconnecting') throw new Error('unreachable');
    expect(waiting).toMatchObject({
      name: 'k',
      source: 'user',
      // Its tools stay offered while it reconnects (a call fails fast with the reason), so counted.
      toolCount: reg.tools().length,
      reconnect: { attempt: 1, attempts: 3 },
      error: { code: 'connection_closed' },
    });
    expect(waiting.reconnect.nextAttemptAt).toBeTypeOf('number');
    expect(waiting.stderrTail).toContain('k: ready');
  });

  it('idle and needsLogin carry their payloads', async () => {
    const { reg } = registry();
    const http = await startHttpMcpServer({ mode: 'http', header: ['x-api-key', 'k-123'] });
    cleanups.push(() => http.stop());
    const locked: HttpServerConfig = {
      ...server('locked'),
      transport: 'http',
      url: http.url,
      headers: {},
    };
    await reg.connectAll([server('sleepy', {}, { idleTimeoutMs: 200 }), locked], 'user');
    await waitForStatus(reg, 'sleepy', 'idle');
    const [sleepy, refused] = reg.statuses();
    expect(sleepy?.state === 'idle' && sleepy.since).toBeLessThanOrEqual(Date.now());
    expect(refused).toMatchObject({ state: 'needsLogin', error: { code: 'needs_login' } });
    expect(refused?.state === 'needsLogin' && refused.error.message).toContain('Log in to it');
  });
});

describe('connecting', () => {
  it('a started server is connecting from the first moment, with the instant its connect began', async () => {
    const { reg } = registry();
    const told = new Promise<McpServerStatus>((resolve) => reg.onStatus(resolve));
    const before = Date.now();
    const connecting = reg.connectAll([server('slow', { hang: ['initialize'] })], 'user');
    const [now] = reg.statuses();
    expect(now?.state).toBe('connecting');
    const since = now?.state === 'connecting' ? now.since : 0;
    expect(since).toBeGreaterThanOrEqual(before);
    // The client's own `connecting` is the same connect: its instant does not move.
    await expect(told).resolves.toMatchObject({ state: 'connecting', since });
    await reg.disconnect('slow');
    await connecting;
  });

  it('a server disconnected while its start reads the cache is never started', async () => {
    const { reg } = registry();
    const connecting = reg.connectAll([server('gone')], 'user');
    await reg.disconnect('gone');
    await connecting;
    expect(pids('gone')).toEqual([]);
  });
});

describe('reconnect(name)', () => {
  it('brings a failed server back and resolves with its connected status', async () => {
    const { reg } = registry();
    const flag = join(dir.path, 'die');
    await reg.connectAll([server('phoenix', { exitAtStartIf: flag })], 'user');
    writeFileSync(flag, '');
    process.kill(pids('phoenix')[0] ?? 0, 'SIGKILL');
    await waitForStatus(reg, 'phoenix', 'failed');
    rmSync(flag);
    const status = await reg.reconnect('phoenix');
    expect(status).toMatchObject({ name: 'phoenix', state: 'connected', toolCount: 4 });
    expect(pids('phoenix')).toHaveLength(5);
  });
});
