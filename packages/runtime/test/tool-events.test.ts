// The events a host acts on, counted exactly on real fixture-server processes: a status event only
// when a server's status changed, a tool-group event only when its tools did, each with the tools
// added, removed and changed; applyMcpConfig's adds, removals and reconnects among them. Every
// count is checked after a later event the test waits for (a sync point), never after a sleep.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerStatus, McpToolsChangedEvent, Runtime } from '@epoch-agent/runtime';
import { describe, expect, it } from 'vitest';
import { approveEverything, isAlive, pidOf, pidServer, useRuntimeHome } from './runtime-helpers.js';

const test = useRuntimeHome();
const signal = new AbortController().signal;

/** Every event of the runtime from now on, by kind; `status` only for the servers named. */
function record(rt: Runtime, ...servers: string[]) {
  const seen = {
    statuses: [] as string[],
    groups: [] as unknown[],
    toolsChanged: [] as Omit<McpToolsChangedEvent, 'source'>[],
  };
  rt.mcp.onStatus((status) => {
    if (servers.includes(status.name)) seen.statuses.push(`${status.name} ${status.state}`);
  });
  rt.tools.onChange((change) => seen.groups.push(change));
  rt.mcp.onToolsChanged(({ source: _, ...event }) => seen.toolsChanged.push(event));
  return seen;
}

/** How many requests of `method` the fixture server recorded in `file`. */
function requests(file: string, method: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  return text
    .split('\n')
    .filter((line) => line !== '' && (JSON.parse(line) as { method: string }).method === method)
    .length;
}

/** Calls `touch` of server `server`: it sends list_changed, the description first when given. */
async function touch(rt: Runtime, server: string, description?: string): Promise<void> {
  const tool = rt.tools.get(`mcp__${server}__touch`);
  if (tool === undefined) throw new Error(`no touch tool on "${server}"`);
  await tool.execute(description === undefined ? {} : { description }, { signal });
}

describe('honest events', () => {
  it('a server that sends list_changed right after initialize is one connecting, one connected and one group event', async () => {
    const recordFile = join(test.home.dir, 'live.jsonl');
    await test.home.writeUserConfig({
      live: {
        ...pidServer('--list-changed-at-start', '--mutable'),
        env: { RECORD_FILE: recordFile },
        // Its description changes on purpose: not withheld for it (see tool-pins.test.ts).
        pin_tools: false,
      },
    });
    const statuses: McpServerStatus[] = [];
    const rt = await test.build({
      approve: approveEverything,
      connect: 'background',
      onStatus: (status) => statuses.push(status),
    });
    const seen = record(rt);
    // The list asked again for the notification at start has been answered...
    await expect.poll(() => requests(recordFile, 'tools/list'), { timeout: 30_000 }).toBe(2);
    // ...and a later change, awaited as its own event, is the sync point: the client reads
    // answers in order, so whatever the second list caused has happened by now.
    await expect.poll(() => rt.tools.get('mcp__live__touch'), { timeout: 30_000 }).toBeDefined();
    await touch(rt, 'live', 'who answers, v2');
    await expect.poll(() => seen.toolsChanged.length, { timeout: 30_000 }).toBe(1);

    expect(statuses.map(({ state }) => state)).toEqual(['connecting', 'connected']);
    expect(seen.groups).toEqual([
      {
        kind: 'set',
        group: 'mcp:live',
        added: ['mcp__live__whoami', 'mcp__live__touch'],
        removed: [],
        changed: [],
      },
      { kind: 'set', group: 'mcp:live', added: [], removed: [], changed: ['mcp__live__whoami'] },
    ]);
    expect(seen.toolsChanged).toEqual([
      {
        server: 'live',
        reason: 'list_changed',
        added: [],
        removed: [],
        changed: ['mcp__live__whoami'],
        withheld: [],
      },
    ]);
  });

  it('list_changed with the same list fires nothing; a changed description fires `changed`', async () => {
    const recordFile = join(test.home.dir, 'live.jsonl');
    await test.home.writeUserConfig({
      live: { ...pidServer('--mutable'), env: { RECORD_FILE: recordFile }, pin_tools: false },
    });
    const rt = await test.build({ approve: approveEverything });
    const seen = record(rt, 'live');
    await touch(rt, 'live');
    await expect.poll(() => requests(recordFile, 'tools/list'), { timeout: 30_000 }).toBe(2);
    await touch(rt, 'live', 'who answers, v2');
    await expect.poll(() => seen.groups.length, { timeout: 30_000 }).toBe(1);
    await touch(rt, 'live', 'who answers, v2');
    await expect.poll(() => requests(recordFile, 'tools/list'), { timeout: 30_000 }).toBe(4);
    // The sync point for the last one: a change after it.
    await touch(rt, 'live', 'who answers, v3');
    await expect.poll(() => seen.groups.length, { timeout: 30_000 }).toBe(2);

    const changedWhoami = {
      kind: 'set',
      group: 'mcp:live',
      added: [],
      removed: [],
      changed: ['mcp__live__whoami'],
    };
    expect(seen.groups).toEqual([changedWhoami, changedWhoami]);
    expect(seen.toolsChanged.map(({ changed }) => changed)).toEqual([
      ['mcp__live__whoami'],
      ['mcp__live__whoami'],
    ]);
    expect(seen.statuses).toEqual([]);
    expect(rt.tools.get('mcp__live__whoami')?.description).toBe('who answers, v3');
  });

  it('applyMcpConfig: an added server, a removed one and a reconfigured one are each their tool diff', async () => {
    await test.home.writeUserConfig({ gone: pidServer(), edited: pidServer('--tool=old') });
    const rt = await test.build({ approve: approveEverything });
    const seen = record(rt, 'gone', 'edited', 'added');

    await test.home.writeUserConfig({
      edited: pidServer('--tool=new'),
      added: pidServer('--tool=extra'),
    });
    const applied = await rt.applyMcpConfig();
    expect(applied).toMatchObject({
      added: ['added'],
      removed: ['gone'],
      reconnected: ['edited'],
    });
    const byGroup = (group: string) =>
      seen.groups.filter((change) => (change as { group: string }).group === group);
    expect(byGroup('mcp:gone')).toEqual([
      {
        kind: 'removed',
        group: 'mcp:gone',
        added: [],
        removed: ['mcp__gone__whoami'],
        changed: [],
      },
    ]);
    expect(byGroup('mcp:added')).toEqual([
      {
        kind: 'set',
        group: 'mcp:added',
        added: ['mcp__added__whoami', 'mcp__added__extra'],
        removed: [],
        changed: [],
      },
    ]);
    // One event for the reconnect, its net diff: the group was never emptied in between.
    expect(byGroup('mcp:edited')).toEqual([
      {
        kind: 'set',
        group: 'mcp:edited',
        added: ['mcp__edited__new'],
        removed: ['mcp__edited__old'],
        changed: [],
      },
    ]);
    expect(seen.groups).toHaveLength(3);
    expect(seen.toolsChanged).toEqual([
      {
        server: 'edited',
        reason: 'connect',
        added: ['mcp__edited__new'],
        removed: ['mcp__edited__old'],
        changed: [],
        withheld: [],
      },
    ]);
    // Each server's own: the order across servers is the processes'.
    const of = (name: string) => seen.statuses.filter((line) => line.startsWith(`${name} `));
    expect(of('gone')).toEqual(['gone disconnected']);
    expect(of('edited')).toEqual(['edited connecting', 'edited connected']);
    expect(of('added')).toEqual(['added connecting', 'added connected']);
  });

  it('a reconfigure that changes no tool (a new env) is a new process and no tool event', async () => {
    await test.home.writeUserConfig({ edited: { ...pidServer(), env: { LEVEL: '1' } } });
    const rt = await test.build({ approve: approveEverything });
    const seen = record(rt, 'edited');
    await test.home.writeUserConfig({ edited: { ...pidServer(), env: { LEVEL: '2' } } });
    expect(await rt.applyMcpConfig()).toMatchObject({ reconnected: ['edited'] });
    expect(seen.statuses).toEqual(['edited connecting', 'edited connected']);
    expect(seen.groups).toEqual([]);
    expect(seen.toolsChanged).toEqual([]);
  });

  it('a tool held from before applyMcpConfig reconfigured its server calls the new process', async () => {
    await test.home.writeUserConfig({ edited: { ...pidServer(), env: { LEVEL: '1' } } });
    const rt = await test.build({ approve: approveEverything });
    const held = rt.tools.get('mcp__edited__whoami');
    if (held === undefined) throw new Error('no whoami');
    const before = await pidOf(rt, 'edited');
    await test.home.writeUserConfig({ edited: { ...pidServer(), env: { LEVEL: '2' } } });
    expect(await rt.applyMcpConfig()).toMatchObject({ reconnected: ['edited'] });

    const result = await held.execute({}, { signal });
    const answered = JSON.parse(result.content[0]?.type === 'text' ? result.content[0].text : '{}');
    expect(answered.pid).not.toBe(before);
    expect(answered.pid).toBe(await pidOf(rt, 'edited'));
    expect(isAlive(before)).toBe(false);
  });
});
