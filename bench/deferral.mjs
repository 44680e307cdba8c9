// Tool definitions found on demand, on ten real servers with 158 tools (testkit's manyToolServers):
// the tokens of tool definitions every request carries with everything offered one by one
// (`"tool_budget_tokens": 1000000`) against a budget of 2,000 tokens, under which the largest
// servers' tools are deferred behind mcp_search_tools / mcp_call_tool, and against the default
// budget (20,000: these 158 tools fit in it, so nothing is deferred); and how often the search puts
// the right tool in its top 5 for the phrasings of bench/fixtures/search-phrasings*.json (the
// `-blind` set was written by someone who had seen neither the search nor a ranking).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRuntime, estimateToolTokens, SEARCH_TOOL_NAME } from '@epoch-agent/runtime';
import { manyToolServers, SEARCH_PHRASINGS_FILE } from '@epoch-agent/testkit';
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
    // The search is measured over every tool: all of them deferred.
    const everyDeferred = await start(0);
    const before = tokensOf(all.tools.tools());
    const after = tokensOf(deferred.tools.tools());
    const sets = [
      ['', SEARCH_PHRASINGS_FILE],
      [', held out', SEARCH_PHRASINGS_FILE.replace(/\.json$/, '-held-out.json')],
      [', written blind', SEARCH_PHRASINGS_FILE.replace(/\.json$/, '-blind.json')],
    ];
    const searchRows = [];
    for (const [label, file] of sets) {
      const { phrasings } = JSON.parse(await readFile(file, 'utf8'));
      const hits = await topFiveHits(everyDeferred, phrasings);
      searchRows.push({
        metric: `deferred-tool search: right tool in top 5, ${phrasings.length} phrasings${label}`,
        ours: Math.round((hits / phrasings.length) * 1000) / 10,
        base: undefined,
        unit: '%',
        // The goal is for a set of at least 50 phrasings; a smaller one is shown, not judged.
        goal: phrasings.length >= 50 ? { kind: 'atLeast', min: 90 } : { kind: 'info' },
      });
    }
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
      ...searchRows,
    ];
  });
}

/** How many phrasings have one of their tools among the search's first five. */
export async function topFiveHits(runtime, phrasings) {
  const search = runtime.tools.get(SEARCH_TOOL_NAME);
  if (search === undefined) throw new Error('deferral bench: nothing was deferred');
  let hits = 0;
  for (const [query, expected] of phrasings) {
    const result = await search.execute({ query, limit: 5 }, { signal: AbortSignal.timeout(5000) });
    const names = JSON.parse(result.content[0].text).tools.map(({ name }) => name);
    if (expected.some((name) => names.includes(name))) hits += 1;
    else if (process.env.EPOCH_BENCH_VERBOSE) console.error(`miss: ${query} -> ${names}`);
  }
  return hits;
}
