// Tool definitions found on demand, on ten real servers with 158 tools (testkit's manyToolServers):
// the tokens of tool definitions every request carries with everything offered one by one
// (`"tool_budget_tokens": 1000000`) against a budget of 2,000 tokens, under which the largest
// servers' tools are deferred behind mcp_search_tools / mcp_call_tool, and against the default
// budget (20,000: these 158 tools fit in it, so nothing is deferred). How well the search finds
// them is bench/search.mjs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRuntime, estimateToolTokens } from '@epoch-agent/runtime';
import { manyToolServers } from '@epoch-agent/testkit';
import { scoped } from './scoped.mjs';

const TIGHT_BUDGET = 2_000;

export async function toolDeferral(signal) {
  return scoped(async (defer) => {
    const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-defer-'));
    defer(() => rm(dir, { recursive: true, force: true }));
    const servers = manyToolServers(dir);
    const tokensOf = (tools) => tools.reduce((sum, tool) => sum + estimateToolTokens(tool), 0);
    const start = async (budget) => {
      const configFile = join(dir, `mcp-${budget ?? 'default'}.json`);
      const file = budget === undefined ? { servers } : { servers, tool_budget_tokens: budget };
      await writeFile(configFile, JSON.stringify(file));
      const runtime = await buildRuntime({ configFile, registry: { schemaCache: null }, signal });
      defer(() => runtime.close());
      const down = runtime.mcp.statuses().filter(({ state }) => state !== 'connected');
      if (down.length > 0) throw new Error(`deferral bench: ${down.map((s) => s.name)} not up`);
      return runtime;
    };
    const all = await start(1_000_000);
    const deferred = await start(TIGHT_BUDGET);
    const byDefault = await start(undefined);
    const before = tokensOf(all.tools.tools());
    const after = tokensOf(deferred.tools.tools());
    const size = `${Object.keys(servers).length} servers / ${all.tools.tools().length} tools`;
    return [
      {
        metric: `tool definitions per request, ${size}, budget ${TIGHT_BUDGET.toLocaleString('en-US')}`,
        ours: after,
        base: before,
        unit: 'tokens',
        goal: { kind: 'ratio', max: 0.15 },
      },
      {
        metric: `tool definitions per request, ${size}, default budget`,
        ours: tokensOf(byDefault.tools.tools()),
        base: before,
        unit: 'tokens',
        goal: { kind: 'info' },
      },
    ];
  });
}
