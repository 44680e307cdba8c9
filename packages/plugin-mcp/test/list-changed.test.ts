// notifications/tools/list_changed on a real server process: the registry asks for the list again
// (once per burst: the server records every tools/list it receives), updates tools() and the
// schema cache, and emits the diff as a tools-changed event.
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpSchemaCache } from '../src/cache.js';
import { fingerprint } from '../src/config/fingerprint.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpToolsChangedEvent } from '../src/registry/types.js';
import {
  CHANGE_TOOLS,
  type ChangingToolsServer,
  changingToolsServer,
  eventually,
  type TempHome,
  tempHome,
  tool,
} from './support/changing-tools.js';

let home: TempHome;
let reg: McpRegistry;
let s: ChangingToolsServer;
let events: McpToolsChangedEvent[];

beforeEach(async () => {
  home = tempHome();
  reg = new McpRegistry({ schemaCache: new McpSchemaCache({ dir: home.cacheDir }) });
  events = [];
  reg.onToolsChanged((event) => events.push(event));
  s = changingToolsServer(home.path, 'live', { tools: [CHANGE_TOOLS, tool('alpha')] });
  const [status] = await reg.connectAll([s.config], 'host');
  expect(status?.state).toBe('connected');
  expect(s.toolsListCount()).toBe(1);
});

afterEach(async () => {
  try {
    await reg.disconnectAll();
  } finally {
    home.remove();
  }
});

async function changeTools(tools: readonly Tool[], notifications: number): Promise<void> {
  const change = reg.tools().find((t) => t.name === 'mcp__live__change_tools');
  if (change === undefined) throw new Error('change_tools is not offered');
  await change.execute({ tools, notifications }, { signal: new AbortController().signal });
}

/**
 * The positive event after which any tools/list the client still owed for earlier notifications
 * has reached the server: one more change (the tool `marker` added, everything in `keep` kept),
 * announced by one notification and seen as its own tools-changed event. The client's debounce
 * timers fire in the order they were set, and the server reads requests in the order sent.
 */
async function afterAMarker(keep: readonly Tool[]): Promise<void> {
  await changeTools([...keep, tool('marker')], 1);
  await eventually(
    'the marker',
    () => events.some((event) => event.added.includes('mcp__live__marker')),
    Boolean,
  );
}

function cachedToolNames(): string[] | undefined {
  const text = home.cacheFiles()[`${fingerprint(s.config)}.json`];
  return text === undefined
    ? undefined
    : (JSON.parse(text) as { tools: Tool[] }).tools.map((t) => t.name);
}

describe('notifications/tools/list_changed', () => {
  it('a burst of notifications makes one tools/list; tools(), the cache and an event follow', async () => {
    await changeTools([CHANGE_TOOLS, tool('alpha', 'Alpha, now different.'), tool('beta')], 5);
    await eventually(
      'the tools-changed event',
      () => events.length,
      (n) => n > 0,
    );
    expect(events).toEqual([
      {
        server: 'live',
        source: 'host',
        reason: 'list_changed',
        added: ['mcp__live__beta'],
        removed: [],
        changed: ['mcp__live__alpha'],
        withheld: [],
      },
    ]);
    expect(reg.tools().map((t) => [t.name, t.description])).toEqual([
      ['mcp__live__change_tools', CHANGE_TOOLS.description],
      ['mcp__live__alpha', 'Alpha, now different.'],
      ['mcp__live__beta', 'The beta tool.'],
    ]);
    expect(reg.statuses()[0]).toMatchObject({ state: 'connected', toolCount: 3 });
    await eventually(
      'cache updated',
      cachedToolNames,
      (names) => names?.join() === 'change_tools,alpha,beta',
    );
    await afterAMarker([CHANGE_TOOLS, tool('alpha', 'Alpha, now different.'), tool('beta')]);
    // The one at connect, and one for the whole burst of five (then the marker's own).
    expect(s.toolsListCount()).toBe(2 + 1);
    expect(events).toHaveLength(1 + 1);
  });

  it('tools taken before the change keep working: the registry swaps nothing under a running agent', async () => {
    const before = reg.tools();
    await changeTools([CHANGE_TOOLS], 1);
    await eventually(
      'the tools-changed event',
      () => events.length,
      (n) => n > 0,
    );
    expect(events[0]).toMatchObject({ removed: ['mcp__live__alpha'], added: [], changed: [] });
    expect(reg.tools().map((t) => t.name)).toEqual(['mcp__live__change_tools']);
    expect(before.map((t) => t.name)).toEqual(['mcp__live__change_tools', 'mcp__live__alpha']);
  });

  it('a list_changed after which the list is the same emits nothing', async () => {
    await changeTools([CHANGE_TOOLS, tool('alpha')], 3);
    await eventually(
      'the re-list',
      () => s.toolsListCount(),
      (n) => n === 2,
    );
    await afterAMarker([CHANGE_TOOLS, tool('alpha')]);
    expect(s.toolsListCount()).toBe(2 + 1);
    // Nothing but the marker's own event.
    expect(events.map((event) => event.added)).toEqual([['mcp__live__marker']]);
  });
});
