// The two protocol eras side by side on one server program: testkit's modern-server.mjs, built on
// the official server SDK, met as a 2026-07-28 server and, wired the 2025 way (--legacy-only), as a
// 2025-era one. What a user waits for: connect + list on a first start (our client probes with
// server/discover on the server's own pipe: a 2025 server answers "method not found" first, then
// initialize) and on a warm start (the era verdict and the server's ttlMs kept in the schema cache:
// a 2026-07-28 server is asked nothing but its subscription), and a tool call through the host's
// path. Each sample of a start runs a fresh server process; the eras take turns.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { McpRegistry } from '@epoch-agent/plugin-mcp';
import { McpSchemaCache } from '@epoch-agent/plugin-mcp/cache';
import { MODERN_SERVER } from '@epoch-agent/testkit';
import { alternate, latencies, median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';
import { checkEcho, connectRegistry, executeEcho, serverConfigs } from './sides.mjs';

const ROUNDS = 20;
const CALL_ROUNDS = 300;
const CALLS_PER_ROUND = 10;
const SERVER = 'bench';

const ERAS = {
  modern: {
    transport: 'stdio',
    command: process.execPath,
    args: [MODERN_SERVER, '--tools-ttl-ms=600000'],
  },
  legacy: { transport: 'stdio', command: process.execPath, args: [MODERN_SERVER, '--legacy-only'] },
};

export async function eraComparison(signal) {
  const [modern, legacy] = [ERAS.modern, ERAS.legacy].map((endpoint) =>
    serverConfigs({ [SERVER]: endpoint }),
  );
  // One-time costs (code loaded on first use, JIT) outside the timed runs.
  await firstStart(modern);
  await firstStart(legacy);
  const [coldModern, coldLegacy] = await alternate(
    [() => firstStart(modern), () => firstStart(legacy)],
    ROUNDS,
    signal,
  );
  const [warmModern, warmLegacy] = await scoped(async (defer) => {
    const dir = mkdtempSync(join(os.tmpdir(), 'epoch-bench-eras-'));
    defer(async () => rmSync(dir, { recursive: true, force: true }));
    // One start of each fills the cache; every timed start after it is a warm one.
    const cache = () => new McpSchemaCache({ dir });
    await warmStart(modern, cache());
    await warmStart(legacy, cache());
    return alternate(
      [() => warmStart(modern, cache()), () => warmStart(legacy, cache())],
      ROUNDS,
      signal,
    );
  });
  const [callModern, callLegacy] = await callLatencies(modern, legacy, signal);
  const row = (what, ours, base) => ({
    metric: `${what}: 2026-07-28 (ours) against 2025-11-25 (base), same server, median`,
    ours: median(ours),
    base: median(base),
    goal: { kind: 'info' },
  });
  return [
    row('connect + list over stdio, first start', coldModern, coldLegacy),
    row('connect + list over stdio, warm start (era and ttlMs cached)', warmModern, warmLegacy),
    row('tool call over stdio, EpochTool.execute', callModern, callLegacy),
  ];
}

/** connectAll with no schema cache, until the tools are known. */
function firstStart(configs) {
  return scoped(async (defer) => {
    const registry = new McpRegistry({ schemaCache: null });
    defer(() => registry.disconnectAll());
    return timed(() => connectRegistry(registry, configs));
  });
}

/**
 * connectAll from the cache an earlier start left, until the server is connected (a cached tool
 * list answers connectAll at once; the wait that counts is for the live connection).
 */
function warmStart(configs, schemaCache) {
  return scoped(async (defer) => {
    const registry = new McpRegistry({ schemaCache });
    // disconnectAll keeps the cache entry for the next sample.
    defer(() => registry.disconnectAll());
    return timed(async () => {
      const connected = new Promise((resolve) =>
        registry.onStatus((status) => status.state === 'connected' && resolve()),
      );
      await registry.connectAll(configs, 'user');
      await connected;
    });
  });
}

function callLatencies(modern, legacy, signal) {
  return scoped(async (defer) => {
    const calls = [];
    for (const configs of [modern, legacy]) {
      const registry = new McpRegistry({ schemaCache: null });
      defer(() => registry.disconnectAll());
      await connectRegistry(registry, configs);
      const call = executeEcho(registry, SERVER, signal);
      await checkEcho('eras', call);
      await latencies(call, CALLS_PER_ROUND * 30);
      calls.push(call);
    }
    return alternate(
      calls.map((call) => () => latencies(call, CALLS_PER_ROUND)),
      CALL_ROUNDS,
      signal,
    ).then((rounds) => rounds.map((samples) => samples.flat()));
  });
}
