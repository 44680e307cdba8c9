// McpRegistry with its schema cache, on real server processes and a temp EPOCH_HOME: a warm start
// that does not wait for a slow server, a call on a cached server that waits for its connection,
// a stale cache corrected by the live list (with the diff as an event), and what drops an entry
// (disconnect, reconnect, a changed fingerprint) or keeps it (disconnectAll), a corrupt file, and
// no secret in the cache.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpSchemaCache } from '../src/cache.js';
import { fingerprint } from '../src/config/fingerprint.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpToolsChangedEvent } from '../src/registry/types.js';
import type { McpServerConfig, McpServerStatus } from '../src/types.js';
import {
  type ChangingToolsServer,
  changingToolsServer,
  eventually,
  type TempHome,
  tempHome,
  tool,
} from './support/changing-tools.js';
import { memoryLogger } from './support/recording.js';

const SLOW_START_MS = 1_500;
const TOOLS_V1: Tool[] = [tool('alpha'), tool('beta'), tool('gamma')];

let home: TempHome;
let registries: McpRegistry[] = [];

beforeEach(() => {
  home = tempHome();
});

afterEach(async () => {
  try {
    await Promise.all(registries.map((registry) => registry.disconnectAll()));
  } finally {
    registries = [];
    home.remove();
  }
});

/** A registry as a new process would have it: its own empty memory, the home's cache on disk. */
function registry(logger = memoryLogger()): McpRegistry {
  const created = new McpRegistry({
    logger,
    schemaCache: new McpSchemaCache({ dir: home.cacheDir, logger }),
  });
  registries.push(created);
  return created;
}

function server(name: string, tools: readonly Tool[], initializeDelayMs = 0): ChangingToolsServer {
  return changingToolsServer(home.path, name, { tools, initializeDelayMs });
}

function cacheFileOf(config: McpServerConfig): string {
  return `${fingerprint(config)}.json`;
}

/** The tool names in the config's cache file; undefined while there is none (or not a valid one). */
function cachedToolNames(config: McpServerConfig): string[] | undefined {
  const text = home.cacheFiles()[cacheFileOf(config)];
  try {
    return (JSON.parse(text ?? '') as { tools: Tool[] }).tools.map((t) => t.name);
  } catch {
    return undefined;
  }
}

/** Connects once, cold, so that the cache holds the server's list; then ends that "process". */
async function warmUp(config: McpServerConfig): Promise<void> {
  const first = registry();
  const [status] = await first.connectAll([config], 'user');
  expect(status?.state).toBe('connected');
  // disconnectAll resolves once the cache write is on disk: a process may exit right after it.
  await first.disconnectAll();
  expect(cachedToolNames(config)).toBeDefined();
}

function nextStatus(
  reg: McpRegistry,
  name: string,
  state: McpServerStatus['state'],
): Promise<McpServerStatus> {
  return new Promise((resolve) => {
    const stop = reg.onStatus((status) => {
      if (status.name !== name || status.state !== state) return;
      stop();
      resolve(status);
    });
  });
}

function nextToolsChange(reg: McpRegistry): Promise<McpToolsChangedEvent> {
  return new Promise((resolve) => {
    const stop = reg.onToolsChanged((event) => {
      stop();
      resolve(event);
    });
  });
}

const signal = () => new AbortController().signal;

describe('warm start', () => {
  it('connectAll returns at once for a slow server with a cached list, its tools usable, then it connects', async () => {
    const slow = server('slow', TOOLS_V1, SLOW_START_MS);
    await warmUp(slow.config);

    const reg = registry();
    const connected = nextStatus(reg, 'slow', 'connected');
    const [status] = await reg.connectAll([slow.config], 'user');
    // At once: before the server answered initialize (SLOW_START_MS after it got it).
    expect(status?.state).toBe('connecting');
    // The status counts what tools() offers, cached tools included.
    expect(status?.toolCount).toBe(3);
    expect(reg.tools().map((t) => t.name)).toEqual([
      'mcp__slow__alpha',
      'mcp__slow__beta',
      'mcp__slow__gamma',
    ]);
    await connected;
    expect(reg.statuses()[0]?.state).toBe('connected');
    expect(reg.tools().map((t) => t.name)).toHaveLength(3);
  });

  it('a cold start waits for the same server (what the cached list spares)', async () => {
    const slow = server('slow', TOOLS_V1, SLOW_START_MS);
    const [status] = await registry().connectAll([slow.config], 'user');
    // It waited for the server: connected when connectAll returned.
    expect(status?.state).toBe('connected');
    await eventually('cache written', () => cachedToolNames(slow.config), Boolean);
    expect(cachedToolNames(slow.config)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('only servers without a cached list are awaited: a cold fast one is connected, a warm slow one is not waited for', async () => {
    const slow = server('slow', TOOLS_V1, SLOW_START_MS);
    await warmUp(slow.config);
    const fast = server('fast', [tool('now')]);
    const reg = registry();
    const statuses = await reg.connectAll([slow.config, fast.config], 'user');
    // The fast one was waited for, the slow one was not.
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['slow', 'connecting'],
      ['fast', 'connected'],
    ]);
    expect(reg.tools().map((t) => t.name)).toEqual([
      'mcp__slow__alpha',
      'mcp__slow__beta',
      'mcp__slow__gamma',
      'mcp__fast__now',
    ]);
  });

  it('a tool call on a cached server that is still connecting waits for the connection', async () => {
    const slow = server('slow', TOOLS_V1, SLOW_START_MS);
    await warmUp(slow.config);
    const reg = registry();
    await reg.connectAll([slow.config], 'user');
    expect(reg.statuses()[0]?.state).toBe('connecting');
    const alpha = reg.tools().find((t) => t.name === 'mcp__slow__alpha');
    const result = await alpha?.execute({ x: 1 }, { signal: signal() });
    expect(result?.content).toEqual([{ type: 'text', text: 'alpha {"x":1}' }]);
    expect(reg.statuses()[0]?.state).toBe('connected');
  });
});

describe('the live list replaces a stale cache', () => {
  it('emits the diff: added, removed, changed (description, schema, annotations, title)', async () => {
    const before: Tool[] = [
      tool('keep'),
      tool('drop'),
      tool('describe'),
      tool('reshape'),
      tool('annotate'),
      tool('retitle'),
    ];
    const s = server('s', before, 300);
    await warmUp(s.config);
    s.setTools([
      tool('keep'),
      tool('describe', 'A new description.'),
      {
        ...tool('reshape'),
        inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      },
      { ...tool('annotate'), annotations: { destructiveHint: true } },
      { ...tool('retitle'), title: 'Retitled' },
      tool('fresh'),
    ]);
    const reg = registry();
    const change = nextToolsChange(reg);
    const [status] = await reg.connectAll([s.config], 'user');
    expect(status?.state).toBe('connecting');
    expect(reg.tools().some((t) => t.name === 'mcp__s__drop')).toBe(true);
    expect(await change).toEqual({
      server: 's',
      source: 'user',
      reason: 'connect',
      added: ['mcp__s__fresh'],
      removed: ['mcp__s__drop'],
      changed: ['mcp__s__describe', 'mcp__s__reshape', 'mcp__s__annotate', 'mcp__s__retitle'],
      withheld: [],
    });
    expect(reg.tools().map((t) => t.name)).toEqual([
      'mcp__s__keep',
      'mcp__s__describe',
      'mcp__s__reshape',
      'mcp__s__annotate',
      'mcp__s__retitle',
      'mcp__s__fresh',
    ]);
    await eventually(
      'cache replaced',
      () => cachedToolNames(s.config),
      (names) => names?.includes('fresh') === true,
    );
    expect(cachedToolNames(s.config)).toEqual([
      'keep',
      'describe',
      'reshape',
      'annotate',
      'retitle',
      'fresh',
    ]);
  });

  it('a live list equal to the cache emits nothing and leaves the file alone', async () => {
    const s = server('s', TOOLS_V1);
    await warmUp(s.config);
    const before = home.cacheFiles();
    const reg = registry();
    const events: McpToolsChangedEvent[] = [];
    reg.onToolsChanged((event) => events.push(event));
    const connected = nextStatus(reg, 's', 'connected');
    await reg.connectAll([s.config], 'user');
    await connected;
    expect(events).toEqual([]);
    expect(home.cacheFiles()).toEqual(before);
  });
});

describe('what drops a cache entry, and what keeps it', () => {
  it('disconnect(name) drops it from memory and disk; a later start waits for the server', async () => {
    const s = server('s', TOOLS_V1, 300);
    const reg = registry();
    await reg.connectAll([s.config], 'user');
    await eventually('cache written', () => cachedToolNames(s.config), Boolean);
    await reg.disconnect('s');
    expect(home.cacheFiles()).toEqual({});
    // The same registry (its memory included) no longer has it: the server is awaited again.
    const [status] = await reg.connectAll([s.config], 'user');
    expect(status?.state).toBe('connected');
  });

  it('disconnectAll keeps it: it is how a process ends, and the next start is warm', async () => {
    const s = server('s', TOOLS_V1);
    await warmUp(s.config);
    expect(cachedToolNames(s.config)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('reconnect(name) drops it: no cached tools while the server starts again, then its fresh list and the diff', async () => {
    const s = server('s', TOOLS_V1, 500);
    const reg = registry();
    await reg.connectAll([s.config], 'user');
    await eventually('cache written', () => cachedToolNames(s.config), Boolean);
    s.setTools([tool('alpha'), tool('delta')]);
    const change = nextToolsChange(reg);
    const connecting = nextStatus(reg, 's', 'connecting');
    const reconnected = reg.reconnect('s');
    await connecting;
    expect(home.cacheFiles()).toEqual({});
    expect(reg.tools()).toEqual([]);
    expect((await reconnected).state).toBe('connected');
    expect(reg.tools().map((t) => t.name)).toEqual(['mcp__s__alpha', 'mcp__s__delta']);
    expect(await change).toMatchObject({
      server: 's',
      reason: 'connect',
      added: ['mcp__s__delta'],
      removed: ['mcp__s__beta', 'mcp__s__gamma'],
      changed: [],
    });
    await eventually(
      'cache rewritten',
      () => cachedToolNames(s.config),
      (names) => names?.join() === 'alpha,delta',
    );
  });

  it('reconnect of a name that is not registered is unknown_server', async () => {
    await expect(registry().reconnect('nope')).rejects.toMatchObject({ code: 'unknown_server' });
  });

  it('a changed fingerprint never reads the old entry: the server is awaited like a first start', async () => {
    const s = server('s', TOOLS_V1, 500);
    await warmUp(s.config);
    const changed = { ...s.config, env: { LOG_LEVEL: 'debug' } };
    const reg = registry();
    const [status] = await reg.connectAll([changed], 'user');
    // Awaited: connected when connectAll returned (from a cached list it would be connecting).
    expect(status?.state).toBe('connected');
  });
});

describe('a corrupt cache file', () => {
  it('is ignored with a warning: the server is awaited, then the file is replaced', async () => {
    const s = server('s', TOOLS_V1);
    await warmUp(s.config);
    const file = join(home.cacheDir, cacheFileOf(s.config));
    writeFileSync(file, '{"version":1,"tools":[{"oops"');
    const logger = memoryLogger();
    const reg = registry(logger);
    const [status] = await reg.connectAll([s.config], 'user');
    expect(status?.state).toBe('connected');
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringContaining('not valid JSON'),
    ]);
    await eventually(
      'file replaced',
      () => cachedToolNames(s.config),
      (names) => names?.join() === 'alpha,beta,gamma',
    );
  });
});

describe('secrets', () => {
  it('env values of a real server never reach the cache directory', async () => {
    const secret = 'sk-live-registry-cache-4567';
    const s = changingToolsServer(home.path, 's', {
      tools: TOOLS_V1,
      overrides: { env: { API_TOKEN: secret } },
    });
    const reg = registry();
    await reg.connectAll([s.config], 'user');
    await eventually('cache written', () => cachedToolNames(s.config), Boolean);
    const files = JSON.stringify(home.cacheFiles());
    expect(files).not.toContain(secret);
    expect(files).not.toContain('API_TOKEN');
  });
});
