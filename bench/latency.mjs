// Tool-call latency, ours against the raw SDK, over one transport and one server. Three clients of
// the same server program (for stdio each spawns its own copy; for HTTP all three talk to the one
// server): a host's path (EpochTool.execute from McpRegistry.tools()), McpClient.callTool under it,
// and the SDK's Client.callTool. Each gets the same warm-up, then they take turns in short rounds of
// calls. A p99 is the 1% slowest calls: over stdio, where a call takes a tenth of a millisecond,
// each client makes 6,000 timed calls, so that a few pauses of the machine (which land on whichever
// client runs then) move it little; over HTTP 2,000.
import { alternate, latencies, median, percentile } from './measure.mjs';
import { scoped } from './scoped.mjs';
import {
  checkEcho,
  clientEcho,
  executeEcho,
  ourClient,
  ourRegistry,
  rawClient,
  rawEcho,
} from './sides.mjs';

const WARMUP_CALLS = 300;
/** Rounds of 10 calls: the clients take turns every 10 calls. */
const ROUNDS = { stdio: 600, http: 200 };
const CALLS_PER_ROUND = 10;
const SERVER = 'bench';
const SAME_AS_RAW = { median: 1.0, p99: 1.0 };

/**
 * Report rows: median and p99 of each of our two paths, each against the raw SDK, with the goal
 * ratios `goals` (`{ median, p99 }`; default: no slower than the raw SDK).
 */
export function toolCallLatency(transportLabel, endpoint, signal, goals = SAME_AS_RAW) {
  return scoped(async (defer) => {
    const registry = await ourRegistry(SERVER, endpoint);
    defer(() => registry.disconnectAll());
    const client = await ourClient(SERVER, endpoint);
    defer(() => client.close());
    const rawSdk = await rawClient(endpoint, signal);
    defer(() => rawSdk.close());

    // The raw SDK last: it is the base of both comparisons.
    const sides = [
      { path: 'EpochTool.execute', call: executeEcho(registry, SERVER, signal) },
      { path: 'McpClient.callTool', call: clientEcho(client, signal) },
      { path: 'Client.callTool (raw SDK)', call: rawEcho(rawSdk, signal) },
    ];
    for (const { path, call } of sides) {
      await checkEcho(`${transportLabel} ${path}`, call);
      await latencies(call, WARMUP_CALLS);
    }
    const tasks = sides.map(
      ({ call }) =>
        () =>
          latencies(call, CALLS_PER_ROUND),
    );
    const rounds = ROUNDS[endpoint.transport === 'stdio' ? 'stdio' : 'http'];
    const samples = (await alternate(tasks, rounds, signal)).map((turns) => turns.flat());
    const base = samples[sides.length - 1];

    return sides.slice(0, -1).flatMap(({ path }, index) => {
      const ours = samples[index];
      const metric = (stat) => `${transportLabel} tool call ${stat}, ${path}`;
      return [
        {
          metric: metric('median'),
          ours: median(ours),
          base: median(base),
          goal: { kind: 'ratio', max: goals.median },
        },
        {
          metric: metric('p99'),
          ours: percentile(ours, 99),
          base: percentile(base, 99),
          goal: { kind: 'ratio', max: goals.p99 },
        },
      ];
    });
  });
}
