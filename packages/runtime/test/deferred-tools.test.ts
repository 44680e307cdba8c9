// Tool definitions found on demand, on real server processes: the tool budget deciding what is
// deferred, mcp_search_tools finding a deferred tool by what it does, mcp_call_tool running it as
// the tool itself would run (a stop reaching the server as notifications/cancelled), a permission
// system seeing the real tool through `delegate`, and tools the user turned off never found.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMcpError } from '@epoch-agent/plugin-mcp';
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import {
  CALL_TOOL_NAME,
  estimateToolTokens,
  type Runtime,
  SEARCH_TOOL_NAME,
} from '@epoch-agent/runtime';
import {
  manyToolServers,
  SEARCH_PHRASINGS_FILE,
  type StdioEntry,
  startEverything,
  waitUntil,
} from '@epoch-agent/testkit';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { rejection, useRuntimeHome } from './runtime-helpers.js';

const t = useRuntimeHome();
const RECORDING_SERVER = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/recording-server.mjs', import.meta.url),
);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const signal = () => new AbortController().signal;

function meta(runtime: Runtime, name: string): EpochTool {
  const tool = runtime.tools.get(name);
  if (tool === undefined) throw new Error(`${name} is not offered`);
  return tool;
}

function textOf(result: ToolResult): string {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`not a text answer: ${JSON.stringify(result)}`);
  return first.text;
}

async function search(runtime: Runtime, args: Record<string, unknown>): Promise<string[]> {
  const result = await meta(runtime, SEARCH_TOOL_NAME).execute(args, { signal: signal() });
  const { tools } = JSON.parse(textOf(result)) as { tools: { name: string }[] };
  return tools.map(({ name }) => name);
}

/** A few of the ten servers, by name. */
function some(...names: string[]): Record<string, StdioEntry> {
  const all = manyToolServers(t.home.dir);
  return Object.fromEntries(
    names.flatMap((name) => (all[name] === undefined ? [] : [[name, all[name]]])),
  );
}

const groupTokens = (runtime: Runtime, group: string) =>
  runtime.tools
    .entries()
    .filter((entry) => entry.group === group)
    .reduce((sum, { tool }) => sum + estimateToolTokens(tool), 0);

describe('the tool budget', () => {
  it('the default config of `npm start` (three servers, 45 tools) is offered whole under the default budget', async () => {
    const sse = await startEverything('sse');
    const http = await startEverything('http');
    try {
      const text = await readFile(join(REPO, 'examples', 'mcp.json'), 'utf8');
      const { servers } = parse(text) as { servers: Record<string, Record<string, unknown>> };
      const url = (endpoint: typeof sse.endpoint) =>
        endpoint.transport === 'stdio' ? '' : endpoint.url;
      await t.home.writeUserConfig({
        everything: { ...servers.everything, cwd: REPO },
        'everything-sse': { ...servers['everything-sse'], url: url(sse.endpoint) },
        'everything-http': { ...servers['everything-http'], url: url(http.endpoint) },
      });
      const runtime = await t.build({ registry: { schemaCache: null } });
      expect(runtime.mcp.statuses().map(({ state }) => state)).toEqual([
        'connected',
        'connected',
        'connected',
      ]);
      expect(runtime.tools.toolBudgetTokens).toBe(20_000);
      expect(runtime.tools.tools()).toHaveLength(45);
      expect(runtime.tools.deferred()).toEqual([]);
      expect(runtime.tools.get(SEARCH_TOOL_NAME)).toBeUndefined();
    } finally {
      await Promise.all([sse.stop(), http.stop()]);
    }
  });

  it('past the budget the largest auto server is deferred first; true always, false never, host tools never', async () => {
    await t.home.writeUserConfig({
      ...some('github', 'memory', 'thinking'),
      filesystem: { ...some('filesystem').filesystem, defer: true },
      browser: { ...some('browser').browser, defer: false },
    });
    const runtime = await t.build({ registry: { schemaCache: null }, toolBudgetTokens: 1_000_000 });
    const builtin: EpochTool = {
      name: 'read_notes',
      description: 'Read the notes the user keeps.',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      execute: async () => ({ content: [] }),
    };
    runtime.tools.setGroup('builtin', [builtin]);
    const deferredGroups = () => [...new Set(runtime.tools.deferred().map(({ group }) => group))];

    // Everything fits, yet `defer: true` is found on demand.
    expect(deferredGroups()).toEqual(['mcp:filesystem']);
    expect(runtime.tools.tools().map(({ name }) => name)).toContain(SEARCH_TOOL_NAME);

    // Over the budget by less than github's tools: github goes, the smaller memory stays.
    const offered = (
      ['builtin', 'mcp:github', 'mcp:memory', 'mcp:thinking', 'mcp:browser'] as const
    )
      .map((group) => groupTokens(runtime, group))
      .reduce((a, b) => a + b, 0);
    const searchTools = [SEARCH_TOOL_NAME, CALL_TOOL_NAME]
      .map((name) => estimateToolTokens(meta(runtime, name)))
      .reduce((a, b) => a + b, 0);
    expect(groupTokens(runtime, 'mcp:github')).toBeGreaterThan(groupTokens(runtime, 'mcp:memory'));
    runtime.tools.setToolBudget(offered + searchTools - 1);
    expect(deferredGroups().sort()).toEqual(['mcp:filesystem', 'mcp:github']);

    // A budget of 0: every auto server, never the host's tool or the `defer: false` server.
    runtime.tools.setToolBudget(0);
    expect(deferredGroups().sort()).toEqual([
      'mcp:filesystem',
      'mcp:github',
      'mcp:memory',
      'mcp:thinking',
    ]);
    const names = runtime.tools.tools().map(({ name }) => name);
    expect(names[0]).toBe('read_notes');
    expect(names.filter((name) => name.startsWith('mcp__'))).toEqual(
      runtime.mcp.toolsOf('browser').map(({ name }) => name),
    );
    expect(names.slice(-2)).toEqual([SEARCH_TOOL_NAME, CALL_TOOL_NAME]);
    // The same two objects in every snapshot: a loop built earlier keeps working ones.
    expect(runtime.tools.get(SEARCH_TOOL_NAME)).toBe(meta(runtime, SEARCH_TOOL_NAME));
  });

  it("the file's tool_budget_tokens wins over the host's, and an edit of it or of defer applies without reconnecting", async () => {
    await t.home.writeUserConfig(
      JSON.stringify({ servers: some('memory'), tool_budget_tokens: 1_000_000 }),
    );
    const runtime = await t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
    expect(runtime.tools.toolBudgetTokens).toBe(1_000_000);
    expect(runtime.tools.deferred()).toEqual([]);
    const changes: string[] = [];
    runtime.tools.onChange((change) => changes.push(change.kind));

    await t.home.writeUserConfig(
      JSON.stringify({ servers: { memory: { ...some('memory').memory, defer: true } } }),
    );
    const applied = await runtime.applyMcpConfig();
    expect(applied.reconnected).toEqual([]);
    expect(applied.choiceChanged).toEqual(['memory']);
    expect(runtime.mcp.configOf('memory')?.defer).toBe(true);
    expect(runtime.tools.deferred().map(({ group }) => group)).toContain('mcp:memory');
    // The budget is the host's again once the file stops saying one.
    expect(runtime.tools.toolBudgetTokens).toBe(0);
    expect(changes).toContain('budget');
  });
});

describe('mcp_search_tools', () => {
  it('finds a tool by a phrasing that shares no word with its name', async () => {
    await t.home.writeUserConfig(some('filesystem', 'memory', 'github'));
    const runtime = await t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
    const phrasing = 'make a new folder for the reports';
    const wanted = 'mcp__filesystem__create_directory';
    const words = new Set(phrasing.split(' '));
    expect(wanted.split(/_+/).filter((word) => words.has(word))).toEqual([]);
    expect((await search(runtime, { query: phrasing })).slice(0, 3)).toContain(wanted);

    // A hit carries everything needed to call it.
    const result = await meta(runtime, SEARCH_TOOL_NAME).execute(
      { query: phrasing, server: 'filesystem', limit: 1 },
      { signal: signal() },
    );
    const [hit] = JSON.parse(textOf(result)).tools;
    expect(hit).toMatchObject({
      name: wanted,
      server: 'filesystem',
      title: 'Create Directory',
      annotations: { readOnlyHint: false, destructiveHint: false },
      input_schema: { type: 'object', required: ['path'] },
    });
    expect(hit.description).toContain('directory');
  });

  it('never finds a tool the user turned off, and mcp_call_tool does not run it', async () => {
    const fs = some('filesystem').filesystem;
    await t.home.writeUserConfig({ filesystem: { ...fs, exclude_tools: ['create_directory'] } });
    const runtime = await t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
    const found = await search(runtime, { query: 'create directory folder', limit: 20 });
    expect(found.length).toBeGreaterThan(0);
    expect(found).not.toContain('mcp__filesystem__create_directory');
    const call = meta(runtime, CALL_TOOL_NAME);
    const args = { name: 'mcp__filesystem__create_directory', arguments: { path: t.home.dir } };
    expect(call.delegate?.(args)).toBeUndefined();
    const result = await call.execute(args, { signal: signal() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('there is no MCP tool');
  });

  it('on the phrasings of bench/fixtures over ten servers and 158 tools, the right tool is in the top 5 for at least 90%', async () => {
    await t.home.writeUserConfig(manyToolServers(t.home.dir));
    const runtime = await t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
    expect(runtime.tools.deferred()).toHaveLength(158);
    // The set written by someone who had seen neither the search nor a ranking, and the set the
    // search was built on: each holds the goal on its own (today 58 of 60, and 62 of 68).
    for (const file of [
      SEARCH_PHRASINGS_FILE.replace(/\.json$/, '-blind.json'),
      SEARCH_PHRASINGS_FILE,
    ]) {
      const { phrasings } = JSON.parse(await readFile(file, 'utf8')) as {
        phrasings: [string, string[]][];
      };
      expect(phrasings.length).toBeGreaterThanOrEqual(50);
      let hits = 0;
      for (const [query, expected] of phrasings) {
        const found = await search(runtime, { query, limit: 5 });
        if (expected.some((name) => found.includes(name))) hits += 1;
      }
      expect(hits / phrasings.length, file).toBeGreaterThanOrEqual(0.9);
    }
  });
});

describe('mcp_call_tool', () => {
  it('a destructive deferred tool is judged by its own annotations, never as read-only', async () => {
    await t.home.writeUserConfig({ memory: { ...some('memory').memory, defer: true } });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const call = meta(runtime, CALL_TOOL_NAME);
    expect(call.annotations.readOnlyHint).not.toBe(true);
    expect(call.annotations.destructiveHint).toBe(true);

    const target = call.delegate?.({
      name: 'mcp__memory__delete_entities',
      arguments: { entityNames: ['Alice'] },
    });
    expect(target).toMatchObject({
      name: 'mcp__memory__delete_entities',
      title: 'Delete Entities',
      server: 'memory',
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    for (const { tool } of runtime.tools.deferred()) {
      if (tool.annotations.destructiveHint !== true) continue;
      expect(call.delegate?.({ name: tool.name })?.annotations.readOnlyHint).not.toBe(true);
    }
    expect(call.delegate?.({ name: 'mcp__memory__no_such_tool' })).toBeUndefined();
    expect(call.delegate?.({})).toBeUndefined();

    // And it runs the tool itself: the entity created through it is read back through it.
    const create = await call.execute(
      {
        name: 'mcp__memory__create_entities',
        arguments: {
          entities: [{ name: 'Alice', entityType: 'person', observations: ['at Acme'] }],
        },
      },
      { signal: signal() },
    );
    expect(create.isError).not.toBe(true);
    const read = await call.execute({ name: 'mcp__memory__read_graph' }, { signal: signal() });
    expect(textOf(read)).toContain('at Acme');
  });

  it('a call the user stops reaches the server as notifications/cancelled; so does one past its timeout', async () => {
    const record = join(t.home.dir, 'record.jsonl');
    await t.home.writeUserConfig({
      slow: { command: process.execPath, args: [RECORDING_SERVER, record], defer: true },
      quick: {
        command: process.execPath,
        args: [RECORDING_SERVER, `${record}.quick`],
        defer: true,
        timeout: 0.3,
      },
    });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const call = meta(runtime, CALL_TOOL_NAME);

    const stop = new AbortController();
    const stopped = call.execute({ name: 'mcp__slow__hang' }, { signal: stop.signal });
    const id = await waitUntil(() => callId(record), 'the call to reach the server');
    stop.abort();
    const error = await rejection(stopped);
    expect(isMcpError(error)).toBe(true);
    await waitUntil(() => cancelled(record).includes(id), 'the cancellation to reach the server');

    const timedOut = await rejection(
      call.execute({ name: 'mcp__quick__hang' }, { signal: signal() }),
    );
    expect(isMcpError(timedOut, 'request_timeout')).toBe(true);
    const quickId = await waitUntil(() => callId(`${record}.quick`), 'the quick call');
    await waitUntil(
      () => cancelled(`${record}.quick`).includes(quickId),
      'the quick call to be cancelled',
    );
  });

  it('a name that is offered directly, or arguments that are not an object: an error the model reads', async () => {
    await t.home.writeUserConfig({
      memory: { ...some('memory').memory, defer: false },
      github: { ...some('github').github, defer: true },
    });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const call = meta(runtime, CALL_TOOL_NAME);
    const offered = await call.execute({ name: 'mcp__memory__read_graph' }, { signal: signal() });
    expect(textOf(offered)).toContain('call it directly');
    const bad = await call.execute(
      { name: 'mcp__github__get_issue', arguments: 'owner=a' },
      { signal: signal() },
    );
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('"arguments" must be an object');
  });
});

interface Entry {
  readonly in?: { readonly id?: number; readonly method?: string };
  readonly event?: string;
  readonly id?: number;
}

function entries(file: string): Entry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Entry);
}

function callId(file: string): number | undefined {
  return entries(file).find((entry) => entry.in?.method === 'tools/call')?.in?.id;
}

function cancelled(file: string): (number | undefined)[] {
  return entries(file)
    .filter((entry) => entry.event === 'cancelled')
    .map((entry) => entry.id);
}
