// What the schema cache buys at startup: connectAll's wall time for servers that are slow to start,
// with an empty cache (a first start: every server is awaited) against a warm one (a later start:
// each server's tools come from the cache and it connects in the background). Each run uses a new
// registry and a new McpSchemaCache on the same directory, so a warm run reads the files from disk
// the way a new process would, not from the previous run's memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpRegistry, McpSchemaCache } from '@epoch-agent/plugin-mcp';
import { alternate, median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';
import { serverConfigs } from './sides.mjs';

const SERVERS = 10;
const START_DELAY_S = 1.5;
const REPS = 3;
const SLOW_INIT_SCRIPT = new URL('./fixtures/slow-init-server.sh', import.meta.url).pathname;

/**
 * Two rows: a warm start against a cold one, the servers started at start (each connects in the
 * background, spawned once the cached tools are served) and on demand (none started), with the
 * goal warm <= 5% of cold.
 */
export async function schemaCacheStartTime(signal) {
  return scoped(async (defer) => {
    const warmDir = await mkdtemp(join(tmpdir(), 'epoch-bench-cache-'));
    defer(() => rm(warmDir, { recursive: true, force: true }));
    // The warm directory gets its files from one cold start; it also pays one-time costs (lazily
    // loaded code, JIT) outside the timed runs.
    await connectOnce(warmDir, { expect: 'connected' });
    const [cold, warm, lazy] = await alternate(
      [
        () => coldStart(),
        () => connectOnce(warmDir, { expect: 'connecting' }),
        () => connectOnce(warmDir, { expect: 'notStarted', start: 'on_demand' }),
      ],
      REPS,
      signal,
    );
    const metric = `connectAll ${SERVERS} stdio servers (${START_DELAY_S} s start), warm cache vs cold`;
    return [
      { metric, ours: median(warm), base: median(cold), goal: { kind: 'ratio', max: 0.05 } },
      {
        metric: `${metric}, on_demand`,
        ours: median(lazy),
        base: median(cold),
        goal: { kind: 'ratio', max: 0.05 },
      },
    ];
  });
}

async function coldStart() {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-cache-'));
  try {
    return await connectOnce(dir, { expect: 'connected' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * connectAll's time on a new registry whose cache is `dir`; every server must end up in `expect`
 * (a cold start that failed, or a warm one that waited, must not be timed as a success).
 */
function connectOnce(dir, { expect, start = 'at_start' }) {
  return scoped(async (defer) => {
    const registry = new McpRegistry({ schemaCache: new McpSchemaCache({ dir }), start });
    defer(() => registry.disconnectAll());
    let statuses = [];
    const ms = await timed(async () => {
      statuses = await registry.connectAll(configs(), 'user');
    });
    const wrong = statuses.filter((status) => status.state !== expect);
    if (wrong.length > 0) {
      throw new Error(
        `schema cache bench: ${wrong.length} of ${statuses.length} servers were ${wrong[0].state}, expected ${expect}`,
      );
    }
    return ms;
  });
}

// The server's name as an extra argument (the script ignores it) makes each config's fingerprint,
// and so its cache entry, its own, as ten different servers would have.
function configs() {
  const endpoints = {};
  for (let i = 1; i <= SERVERS; i++) {
    const name = `slow-${String(i).padStart(2, '0')}`;
    endpoints[name] = {
      transport: 'stdio',
      command: 'sh',
      args: [SLOW_INIT_SCRIPT, String(START_DELAY_S), name],
    };
  }
  return serverConfigs(endpoints);
}
