// How well and how fast mcp_search_tools finds a deferred tool: for each set of task phrasings,
// how often the right tool comes first (top 1), is among the first five (top 5), and the mean of
// 1 / its rank (MRR, 0 when it is not in the first 20); and the search's time per query, warm
// (median and worst over every phrasing, and a 1 MB query of one-letter words).
//
// The sets: the repo's own (bench/fixtures/search-phrasings*.json, over the ten servers of
// testkit's manyToolServers), and every `bench/fixtures/outside/<set>-phrasings.json` beside an
// `outside/<set>/` directory of real servers' captured tool lists, each served as it was captured
// by bench/fixtures/catalog-server.mjs under its file's `server` name. Outside sets were written by
// people who had seen only the tool lists; the goal is held to them.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRuntime, SEARCH_TOOL_NAME } from '@epoch-agent/runtime';
import { manyToolServers, SEARCH_PHRASINGS_FILE } from '@epoch-agent/testkit';
import { scoped } from './scoped.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const OUTSIDE = join(FIXTURES, 'outside');
const CATALOG_SERVER = join(FIXTURES, 'catalog-server.mjs');
/** The rank MRR looks to: a tool past it counts 0. */
const DEPTH = 20;
/** The goals for a set this repo did not write, of at least 50 phrasings. */
const OUTSIDE_GOALS = { top1: 65, top5: 90 };
const LATENCY_GOAL_MS = 50;

export async function searchQuality(signal) {
  return scoped(async (defer) => {
    const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-search-'));
    defer(() => rm(dir, { recursive: true, force: true }));
    const start = async (name, servers) => {
      const configFile = join(dir, `${name}.json`);
      await writeFile(configFile, JSON.stringify({ servers, tool_budget_tokens: 0 }));
      const runtime = await buildRuntime({ configFile, registry: { schemaCache: null }, signal });
      defer(() => runtime.close());
      const down = runtime.mcp.statuses().filter(({ state }) => state !== 'connected');
      if (down.length > 0) throw new Error(`search bench: ${down.map((s) => s.name)} not up`);
      return runtime;
    };
    const repo = await start('repo', manyToolServers(dir));
    const sets = [
      ['repo', repo, SEARCH_PHRASINGS_FILE, false],
      ['repo, held out', repo, SEARCH_PHRASINGS_FILE.replace(/\.json$/, '-held-out.json'), false],
      ['repo, written blind', repo, SEARCH_PHRASINGS_FILE.replace(/\.json$/, '-blind.json'), false],
    ];
    for (const set of await outsideSets()) {
      const runtime = await start(`outside-${set.name}`, await catalogueServers(set.dir));
      sets.push([`outside ${set.name}`, runtime, set.phrasings, true]);
    }
    const rows = [];
    const times = [];
    for (const [label, runtime, file, outside] of sets) {
      const { phrasings } = JSON.parse(await readFile(file, 'utf8'));
      const size = `${phrasings.length} phrasings, ${runtime.tools.deferred().length} tools`;
      const ranks = [];
      for (const [query, expected] of phrasings) {
        const { names, ms } = await timedSearch(runtime, query);
        times.push(ms);
        ranks.push(names.findIndex((name) => expected.includes(name)));
      }
      // A goal is judged on a set of at least 50 phrasings; a smaller one is shown.
      const judged = phrasings.length >= 50;
      const share = (within) =>
        percent(ranks.filter((rank) => rank >= 0 && rank < within).length, ranks.length);
      const goal = (min) =>
        judged && min !== undefined ? { kind: 'atLeast', min } : { kind: 'info' };
      rows.push(
        {
          metric: `search ${label}: right tool first (top 1), ${size}`,
          ours: share(1),
          base: undefined,
          unit: '%',
          goal: goal(outside ? OUTSIDE_GOALS.top1 : undefined),
        },
        {
          metric: `search ${label}: right tool in top 5, ${size}`,
          ours: share(5),
          base: undefined,
          unit: '%',
          goal: goal(outside ? OUTSIDE_GOALS.top5 : 90),
        },
        {
          metric: `search ${label}: mean reciprocal rank, ${size}`,
          ours:
            ranks.reduce((sum, rank) => sum + (rank < 0 ? 0 : 1 / (rank + 1)), 0) / ranks.length,
          base: undefined,
          unit: 'score',
          goal: { kind: 'info' },
        },
      );
    }
    times.sort((a, b) => a - b);
    const letters = 'bcdefghjklmnopqrstuvwxyz';
    const huge = Array.from({ length: 500_000 }, (_, i) => letters[i % letters.length]).join(' ');
    const { ms: hugeMs } = await timedSearch(repo, huge);
    const latency = { kind: 'absolute', max: LATENCY_GOAL_MS };
    rows.push(
      {
        metric: `search time per query, warm, median of ${times.length} phrasings`,
        ours: times[Math.floor(times.length / 2)],
        base: undefined,
        goal: latency,
      },
      {
        metric: `search time per query, warm, worst of ${times.length} phrasings`,
        ours: times.at(-1),
        base: undefined,
        goal: latency,
      },
      {
        metric: 'search time of a 1 MB query of one-letter words, warm',
        ours: hugeMs,
        base: undefined,
        goal: latency,
      },
    );
    return rows;
  });
}

/**
 * The search's first DEPTH names for `query`, and its time warm: the least of three runs after a
 * first, as this machine's other work (other processes on its few cores, a collection of garbage
 * left by anything before) shows in a single run as a pause the query did not cause.
 */
async function timedSearch(runtime, query) {
  const search = runtime.tools.get(SEARCH_TOOL_NAME);
  if (search === undefined) throw new Error('search bench: nothing was deferred');
  const run = async () => {
    const result = await search.execute(
      { query, limit: DEPTH },
      { signal: AbortSignal.timeout(5000) },
    );
    return JSON.parse(result.content[0].text).tools.map(({ name }) => name);
  };
  const names = await run();
  let ms = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    await run();
    ms = Math.min(ms, performance.now() - started);
  }
  return { names, ms };
}

/** Each outside set that has both its phrasings and its servers' tool lists. */
async function outsideSets() {
  if (!existsSync(OUTSIDE)) return [];
  const files = (await readdir(OUTSIDE)).filter((file) => file.endsWith('-phrasings.json')).sort();
  return files
    .map((file) => {
      const name = file.slice(0, -'-phrasings.json'.length);
      return { name, dir: join(OUTSIDE, name), phrasings: join(OUTSIDE, file) };
    })
    .filter(({ dir }) => existsSync(dir));
}

/** A catalog server for each captured tool list of `dir`, under the server name it was captured as. */
async function catalogueServers(dir) {
  const servers = {};
  for (const file of (await readdir(dir)).filter((each) => each.endsWith('.json')).sort()) {
    const { server } = JSON.parse(await readFile(join(dir, file), 'utf8'));
    servers[server] = { command: process.execPath, args: [CATALOG_SERVER, join(dir, file)] };
  }
  return servers;
}

function percent(part, whole) {
  return Math.round((part / whole) * 1000) / 10;
}
