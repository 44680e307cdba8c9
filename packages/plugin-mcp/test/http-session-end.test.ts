// A Streamable HTTP session ends with HTTP DELETE and its Mcp-Session-Id whenever we are done with
// it: disconnect(), disconnectAll() (how a runtime and `epoch mcp status` end), an idle close and
// a lifetime recycle. Proven on a recording server on 127.0.0.1 (support/http-mcp-server.ts),
// which also answers DELETE with 405 or never, to show neither holds a close up for long: what
// ended the wait for the DELETE (its answer, or END_SESSION_TIMEOUT_MS, which logs that it passed)
// is read from the log, not from a clock (which only says the bound did not pass early).
import { remoteConfig, waitUntil } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import { END_SESSION_TIMEOUT_MS } from '../src/transport/end-session.js';
import type { HttpServerConfig, McpServerState } from '../src/types.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';
import { memoryLogger } from './support/recording.js';
import { waitForStatus } from './support/waiting.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(
  options: Parameters<typeof startHttpMcpServer>[0] = { mode: 'http' },
): Promise<RunningHttpMcpServer> {
  const running = await startHttpMcpServer(options);
  cleanups.push(() => running.stop());
  return running;
}

function registry() {
  const logger = memoryLogger();
  // No OAuth login for these servers: the DELETE carries what the config says, nothing else.
  const logins = ownLogins();
  const reg = new McpRegistry({
    logger,
    schemaCache: null,
    createTransport: logins.createTransport,
  });
  const states = new Map<string, McpServerState[]>();
  reg.onStatus((status) => {
    states.set(status.name, [...(states.get(status.name) ?? []), status.state]);
  });
  cleanups.push(async () => {
    await reg.disconnectAll();
    logins.remove();
  });
  return { reg, logger, states: (name: string) => states.get(name) ?? [] };
}

function http(
  name: string,
  running: RunningHttpMcpServer,
  overrides: Partial<HttpServerConfig> = {},
): HttpServerConfig {
  return remoteConfig(name, 'http', running.url, { connectTimeoutMs: 5_000, ...overrides });
}

/** The sessions the client used, in the order it first used them. */
function sessionsUsed(running: RunningHttpMcpServer): string[] {
  const used = running.records.flatMap((r) =>
    r.httpMethod !== 'DELETE' && r.session !== undefined ? [r.session] : [],
  );
  return [...new Set(used)];
}

/** The sessions the client ended with DELETE, in order. */
function deleted(running: RunningHttpMcpServer): string[] {
  return running.records.flatMap((r) => (r.httpMethod === 'DELETE' ? [r.session ?? '(none)'] : []));
}

/** Whether the wait for a DELETE's answer was ended by END_SESSION_TIMEOUT_MS (it logs so). */
function boundPassed(logger: ReturnType<typeof memoryLogger>): boolean {
  return logger.lines.some((line) =>
    line.message.includes('did not answer the DELETE that ends our session'),
  );
}

async function echo(reg: McpRegistry, server: string, text: string): Promise<unknown> {
  const tool = reg.tools().find((t) => t.name === `mcp__${server}__echo`);
  if (tool === undefined) throw new Error(`no echo tool for "${server}"`);
  return (await tool.execute({ text }, { signal: new AbortController().signal })).content;
}

describe('a Streamable HTTP session ends with DELETE', () => {
  it('on disconnect(name): its Mcp-Session-Id, before disconnect resolves, its answer waited for', async () => {
    const running = await server();
    const { reg, states, logger } = registry();
    await reg.connectAll([http('gw', running)], 'user');
    expect(sessionsUsed(running)).toEqual(['session-1']);
    await reg.disconnect('gw');
    expect(deleted(running)).toEqual(['session-1']);
    // Ended by the server's answer, not by END_SESSION_TIMEOUT_MS.
    expect(boundPassed(logger)).toBe(false);
    expect(states('gw')).toEqual(['connecting', 'connected', 'disconnected']);
    // The DELETE is the last thing the server heard of it.
    expect(running.records.at(-1)?.httpMethod).toBe('DELETE');
  });

  it('on disconnectAll (how a runtime and `epoch mcp status` end): every server its own', async () => {
    const [one, two] = [await server(), await server()];
    const { reg } = registry();
    await reg.connectAll([http('one', one), http('two', two)], 'user');
    await reg.disconnectAll();
    expect(deleted(one)).toEqual(sessionsUsed(one));
    expect(deleted(two)).toEqual(sessionsUsed(two));
    expect(deleted(one)).toHaveLength(1);
  });

  it('on an idle close; the next call opens a new session', async () => {
    const running = await server();
    const { reg, states } = registry();
    await reg.connectAll([http('sleepy', running, { idleTimeoutMs: 200 })], 'user');
    await waitForStatus(reg, 'sleepy', 'idle');
    await waitUntil(() => deleted(running).length === 1, 'the DELETE');
    expect(deleted(running)).toEqual(['session-1']);
    expect(await echo(reg, 'sleepy', 'awake')).toEqual([{ type: 'text', text: 'awake' }]);
    expect(sessionsUsed(running)).toEqual(['session-1', 'session-2']);
    expect(states('sleepy').slice(0, 3)).toEqual(['connecting', 'connected', 'idle']);
  });

  it('on a lifetime recycle: the old session, while a new one takes over', async () => {
    const running = await server();
    const { reg, states } = registry();
    await reg.connectAll([http('aging', running, { maxLifetimeMs: 300 })], 'user');
    await waitUntil(() => deleted(running).length >= 1, 'the first recycle');
    expect(deleted(running)[0]).toBe('session-1');
    await waitUntil(() => sessionsUsed(running).length >= 2, 'the new session');
    expect(sessionsUsed(running).slice(0, 2)).toEqual(['session-1', 'session-2']);
    expect(await echo(reg, 'aging', 'still')).toEqual([{ type: 'text', text: 'still' }]);
    // Transparent: never down, and a status that stayed the same is no event.
    expect(states('aging')).toEqual(['connecting', 'connected']);
  });

  it('a server that refuses DELETE with 405 is fine: closed at once, nothing logged above debug', async () => {
    const running = await server({ mode: 'http', onDelete: 'refuse405' });
    const { reg, logger } = registry();
    await reg.connectAll([http('keeper', running)], 'user');
    await reg.disconnect('keeper');
    expect(deleted(running)).toEqual(['session-1']);
    // At once: the 405 is an answer, and the close did not wait out END_SESSION_TIMEOUT_MS.
    expect(boundPassed(logger)).toBe(false);
    expect(logger.lines.filter((line) => line.level !== 'debug')).toEqual([]);
  });

  it('a server that never answers DELETE holds the close for END_SESSION_TIMEOUT_MS at most', async () => {
    const running = await server({ mode: 'http', onDelete: 'hang' });
    const { reg, logger, states } = registry();
    await reg.connectAll([http('slow', running)], 'user');
    const started = performance.now();
    await reg.disconnect('slow');
    expect(deleted(running)).toEqual(['session-1']);
    expect(states('slow').at(-1)).toBe('disconnected');
    expect(logger.lines.filter((line) => line.level !== 'debug')).toEqual([]);
    // The close waited for the answer until the bound passed, and then went on without it.
    expect(boundPassed(logger)).toBe(true);
    // Not before the bound: a lower bound, which no slow machine fails (a timer never fires early;
    // Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThanOrEqual(END_SESSION_TIMEOUT_MS - 50);
    expect(logger.lines.map((line) => line.message)).toContainEqual(
      expect.stringContaining(`within ${END_SESSION_TIMEOUT_MS} ms; closing without it`),
    );
  });
});
