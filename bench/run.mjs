// `npm run bench` (it builds first): our MCP client against the raw SDK client on the same servers,
// in one run, printed as a table of ratios. Tool-call latency over stdio and Streamable HTTP (the
// reference server's `echo`), connectAll's wall time for 20 slow-to-start servers against one, a
// start with a warm schema cache against a cold one, and the time to disconnect one server. Servers listen on 127.0.0.1 only; every one of them is
// stopped before the table is printed, and a deadline bounds the whole run.
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startEverything } from '@epoch-agent/testkit';
import { schemaCacheStartTime } from './cache.mjs';
import { connectAllWallTime } from './connect.mjs';
import { disconnectTime } from './disconnect.mjs';
import { toolCallLatency } from './latency.mjs';
import { formatTable, summary } from './report.mjs';
import { scoped } from './scoped.mjs';

/** The whole run; past it, the calls in flight are aborted and everything is stopped. */
const DEADLINE_MS = 170_000;
/** After the run nothing should keep Node alive; if something does, exit anyway rather than hang. */
const EXIT_GRACE_MS = 5_000;

const WELL_BEHAVED_SERVER = {
  transport: 'stdio',
  command: process.execPath,
  args: [new URL('./fixtures/echo-server.mjs', import.meta.url).pathname],
};

const signal = AbortSignal.timeout(DEADLINE_MS);
// Every request in flight listens on it: 20 raw SDK clients connecting at once are 20 listeners.
setMaxListeners(100, signal);

async function main() {
  const started = performance.now();
  const step = async (label, run) => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`bench [${elapsed} s]: ${label}`);
    const result = await run();
    return Array.isArray(result) ? result : [result];
  };
  const loadBefore = loadAverage();
  const rows = await scoped(async (defer) => {
    // Nothing the plugin writes (caches, tokens) lands in the user's real ~/.epoch.
    const home = mkdtempSync(join(os.tmpdir(), 'epoch-bench-'));
    process.env.EPOCH_HOME = home;
    defer(async () => rmSync(home, { recursive: true, force: true }));
    const stdio = await startEverything('stdio');
    defer(() => stdio.stop());
    const http = await startEverything('http');
    defer(() => http.stop());
    const httpEndpoint = { transport: 'http', url: http.endpoint.url };
    return [
      ...(await step('tool calls over stdio', () =>
        toolCallLatency('stdio', stdio.endpoint, signal),
      )),
      ...(await step('tool calls over Streamable HTTP', () =>
        toolCallLatency('HTTP', httpEndpoint, signal),
      )),
      ...(await step('connectAll', () => connectAllWallTime(signal))),
      ...(await step('schema cache', () => schemaCacheStartTime(signal))),
      ...(await step('disconnect over stdio', () =>
        disconnectTime('stdio', WELL_BEHAVED_SERVER, signal),
      )),
      ...(await step('disconnect over Streamable HTTP', () =>
        disconnectTime('HTTP', httpEndpoint, signal),
      )),
    ];
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `epoch-agent MCP bench — Node ${process.version}, ${os.cpus().length} CPUs, load ${loadBefore} -> ${loadAverage()}, ${seconds} s`,
  );
  console.log(formatTable(rows));
  console.log(summary(rows));
  console.log(NOTES);
}

const NOTES = `
ratio = ours / base; times are medians unless the metric says p99.
Tool calls: server-everything's echo; 300 warm-up calls, then 2,000 timed calls per client, the
three clients taking turns every 10 calls. Ours = EpochTool.execute from McpRegistry.tools() (the
host's path) or McpClient.callTool; base = the SDK's Client.callTool over its own
StdioClientTransport / StreamableHTTPClientTransport, on the same server program.
connectAll: servers that wait 500 ms before answering initialize; base = the same connectAll for 1
server (goal), or 20 raw SDK clients connected with Promise.all (info).
Schema cache: connectAll of 10 servers that take 1.5 s to start, each run on a new registry and
cache; warm = the cache files of an earlier start (tools at once, servers connect in the
background), cold = an empty cache directory.
Disconnect: a server that exits on stdin EOF; ours = registry.disconnect(name), which also reaps
the process tree; base = the raw SDK's client.close(). Over Streamable HTTP ours also ends the
session with HTTP DELETE, as the spec asks of a client that leaves; the raw close() does not.`;

function loadAverage() {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join('/');
}

main()
  .catch((error) => {
    if (signal.aborted) {
      console.error(`bench: stopped at its ${DEADLINE_MS / 1000} s deadline (a loaded machine?).`);
    }
    console.error(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
    );
    process.exitCode = 1;
  })
  .finally(() => {
    setTimeout(() => {
      console.error(
        `bench: something still held the process ${EXIT_GRACE_MS} ms after the run; exiting.`,
      );
      process.exit(process.exitCode ?? 1);
    }, EXIT_GRACE_MS).unref();
  });
