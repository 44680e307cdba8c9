// `npm run bench` (it builds first): our MCP client against the raw SDK client on the same servers,
// in one run, printed as a table of ratios with each figure's goal. Tool-call latency over stdio
// (a hand-written server and the reference server) and Streamable HTTP; connect + list of one
// server; connectAll's wall time for 20 slow-to-start servers against one and against 20 raw SDK
// clients; a start with a warm schema cache against a cold one; a 2026-07-28 server against a
// 2025-era one (connect + list, warm start, tool call); closing a polite and a hostile server;
// 100 servers x 100 tools; tool definitions found on demand (tokens per request) and their search
// (top 1, top 5 and MRR on each phrasing set, time per query); the tokens the model gets of a real
// server-filesystem read of a 60 KB file; a tool call with an OpenTelemetry SDK registered against none;
// an event stream read through the check of the answers in it against one read without;
// and, in fresh processes, the import; against the raw SDK, the AI SDK's MCP client and a bare
// pipe (no SDK at all, the floor), each on Node 22: a one-shot program's whole life (import, first
// connect, one call, close), 20 stdio servers connected + listed at once, a polite close, and a
// tool call's median and p99; the memory of idle connections, a cold `epoch mcp list` and `epoch
// mcp import` of up to 10,000 servers; an mcp.json and a redaction policy at 1x, 10x and 100x; and
// what the published packages weigh, packed and installed. Servers listen on 127.0.0.1 only; every one of them is stopped before the table is
// printed, and a deadline bounds the whole run.
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startEverything } from '@epoch-agent/testkit';
import { schemaCacheStartTime } from './cache.mjs';
import { callLatencyFresh } from './calls-fresh.mjs';
import { politeCloseFresh } from './close-fresh.mjs';
import { coldListTime } from './cold-cli.mjs';
import { connectAllWallTime } from './connect.mjs';
import { connectOneTime } from './connect-one.mjs';
import { toolDeferral } from './deferral.mjs';
import { disconnectTime, hostileCloseTime } from './disconnect.mjs';
import { eraComparison } from './eras.mjs';
import { eventAnswersCost } from './event-answers.mjs';
import { fanoutTime } from './fanout.mjs';
import { idleConnectionMemory, importTime } from './fresh.mjs';
import { importScale } from './import-scale.mjs';
import { largeInputs } from './large-inputs.mjs';
import { toolCallLatency } from './latency.mjs';
import { onDemandStart } from './on-demand.mjs';
import { connectorsPage } from './page.mjs';
import { formatTable, summary } from './report.mjs';
import { filesystemReadTokens } from './result-tokens.mjs';
import { manyServers } from './scale.mjs';
import { scoped } from './scoped.mjs';
import { searchQuality } from './search.mjs';
import { packageSizes } from './sizes.mjs';
import { startToExitTime } from './start-to-exit.mjs';
import { taskOverhead } from './tasks.mjs';
import { tracingCost } from './tracing.mjs';

/** The whole run; past it, the calls in flight are aborted and everything is stopped. */
const DEADLINE_MS = 600_000;
/** After the run nothing should keep Node alive; if something does, exit anyway rather than hang. */
const EXIT_GRACE_MS = 5_000;

/** Hand-written and cheap, so a call's time is mostly the client's; it exits when stdin ends. */
const ECHO_SERVER = {
  transport: 'stdio',
  command: process.execPath,
  args: [new URL('./fixtures/echo-server.mjs', import.meta.url).pathname],
};
/** The SDK's own reference server: what a call costs with a real server's work in it. */
const REFERENCE_LABEL = 'stdio (server-everything)';

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
      ...(await step('tool calls over stdio, hand-written server', () =>
        toolCallLatency('stdio (hand-written server)', ECHO_SERVER, signal, {
          median: 0.6,
          p99: 1.0,
        }),
      )),
      ...(await step('tool calls over stdio, server-everything', () =>
        toolCallLatency(REFERENCE_LABEL, stdio.endpoint, signal),
      )),
      ...(await step('tool calls over Streamable HTTP', () =>
        toolCallLatency('HTTP', httpEndpoint, signal),
      )),
      ...(await step('connect + list', () => connectOneTime(ECHO_SERVER, signal))),
      ...(await step('2026-07-28 against 2025', () => eraComparison(signal))),
      ...(await step('a call as a task against a plain call', () => taskOverhead(signal))),
      ...(await step('connectAll', () => connectAllWallTime(signal))),
      ...(await step('schema cache', () => schemaCacheStartTime(signal))),
      ...(await step('20 servers, on demand against at start, fresh processes', () =>
        onDemandStart(signal),
      )),
      ...(await step('polite close over stdio', () =>
        disconnectTime('stdio', ECHO_SERVER, signal),
      )),
      ...(await step('polite close over Streamable HTTP', () =>
        disconnectTime('HTTP', httpEndpoint, signal),
      )),
      ...(await step('hostile close over stdio', () => hostileCloseTime(signal))),
      ...(await step('100 servers x 100 tools', () => manyServers(signal))),
      ...(await step('deferred tools, 10 real servers', () => toolDeferral(signal))),
      ...(await step('a 60 KB server-filesystem read', () => filesystemReadTokens(signal))),
      ...(await step('deferred-tool search: quality and time', () => searchQuality(signal))),
      ...(await step('import, fresh processes', () => importTime(signal))),
      ...(await step('tracing off and on, fresh processes', () => tracingCost(signal))),
      ...(await step('the answer check on event streams', () => eventAnswersCost(signal))),
      ...(await step(
        'start to exit against the raw SDK, the AI SDK and the bare pipe, fresh processes',
        () => startToExitTime(signal),
      )),
      ...(await step('20 stdio servers connect + list against the peers, fresh processes', () =>
        fanoutTime(signal),
      )),
      ...(await step('polite close against the peers, fresh processes', () =>
        politeCloseFresh(signal),
      )),
      ...(await step('tool calls against the peers and the bare pipe, fresh processes', () =>
        callLatencyFresh(signal),
      )),
      ...(await step('idle connection memory, fresh processes', () =>
        idleConnectionMemory(signal),
      )),
      ...(await step('cold epoch mcp list, fresh processes', () => coldListTime(signal))),
      ...(await step('the connectors page in Chromium, 30 servers', () => connectorsPage(signal))),
      ...(await step('mcp.json and redaction at 1x, 10x, 100x', () => largeInputs(signal))),
      ...(await step('epoch mcp import of 100 to 10,000 servers, fresh processes', () =>
        importScale(signal),
      )),
      ...(await step('package sizes, npm pack and install', () => packageSizes())),
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
ratio = ours / base; times are medians unless the metric says p99 or worst.
Tool calls: the echo tool; 300 warm-up calls, then 6,000 timed calls per client over stdio (2,000
over HTTP), the three clients taking turns every 10 calls. Ours = EpochTool.execute from McpRegistry.tools() (the host's path) or
McpClient.callTool; base = the SDK's Client.callTool over its own StdioClientTransport /
StreamableHTTPClientTransport, on the same server program. The hand-written server
(bench/fixtures/echo-server.mjs) answers in microseconds, so its rows compare the clients' own
work; server-everything's rows include a real server's, which no client can make faster.
Connect + list: McpRegistry.connectAll with an empty default schema cache (a first start) against
the SDK Client's connect + listTools, each on a fresh server process, in this warmed-up process.
Eras: testkit's modern-server.mjs (the official server SDK) met as a 2026-07-28 server, against the
same program wired the 2025 way; ours both. First start = no cache (a 2025 server answers the
server/discover probe with "method not found", then initialize, on the same process); warm start =
until connected from the cache an earlier start left (the era verdict, and the server's ttlMs of 10
minutes on its tool list); tool call = EpochTool.execute, 3,000 calls each, taking turns every 10.
connectAll: servers that wait 500 ms before answering initialize; base = the same connectAll for 1
server, or 20 raw SDK clients connected (initialize + tools/list) with Promise.all; both goals.
Schema cache: connectAll of 10 servers that take 1.5 s to start, each run on a new registry and
cache; warm = the cache files of an earlier start (tools at once, servers connect in the
background once the tools are served; on_demand: not started at all), cold = an empty cache
directory.
On demand: a fresh process (bench/probes/on-demand.mjs) with 20 stdio servers (17 hand-written
Node servers, two reference servers, one of them through \`npx --no\`) on the cache an earlier
start left, calling the echo tool of 2 of them; at_start waits until all 20 connected first.
Processes = servers that connected; peak RSS = this process and every descendant, from /proc
every 10 ms; CPU = the process's own and its reaped children's (/proc/self/stat), all closed.
First call on demand = the second server called (the first call also loads the SDK, which a
start at start pays before the tools are served); base = a client's connect of one more such
server in the same process plus a call to a running one.
Close: ours = registry.disconnect(name), which also reaps the process tree; base = the raw SDK's
client.close(). Polite: a server that exits on stdin EOF; over stdio both closes wait for it to
exit, so the goal is ours <= the raw SDK's + 1 ms. Hostile: the echo server behind
\`/bin/sh -c\`, ignoring stdin EOF and SIGTERM, with a helper in its process group and one that left
it with setsid; processes left = those of the tree still running when the close resolved (the
bench kills them afterwards). "process table from ps": ours again, the reaper reading the table
from one \`ps\` call per look (the macOS path, EPOCH_PROCESS_TABLE=ps) instead of /proc; base =
ours from /proc. \`ps\` cannot tell that a process ignores SIGTERM, so that close waits out the
SIGTERM grace (500 ms) that /proc's cuts short. Over Streamable HTTP ours also ends the session with HTTP DELETE, as
the spec asks of a client that leaves; the raw close() does not.
100 x 100: servers over an in-memory transport; 10 pairs of names that collide after sanitizing.
Deferred tools: 10 stdio servers (the four reference servers and six catalog servers of
bench/fixtures), tokens = estimateToolTokens summed over runtime.tools.tools(); base = every tool
offered. Search: mcp_search_tools over all 158 tools deferred; a phrasing counts when one of its
tools is in the top 5. The held-out set was written after the search's vocabulary was fixed.
A 60 KB read: server-filesystem's read_text_file and read_file of a 60 KB text file, through
EpochTool.execute and the Anthropic adapter; ours = the estimated tokens of the text the model gets,
base = the file's own. It sends the file as text and as structuredContent: both copies were about
25,100 tokens (cut to the default max_output_tokens of 25,000, with a note); one copy is 15,000.
Fresh processes: a new node for every sample. Import = \`import()\` of @epoch-agent/plugin-mcp
against @modelcontextprotocol/client, timed inside the process.
Against the peers (bench/peers-rows.mjs prints these rows alone): ours, the raw SDK, the AI SDK's
MCP client (@ai-sdk/mcp 2.0.99, installed apart in bench/peers: it asks for Node 22) and the bare
pipe (bench/probes/bare-pipe.mjs: the echo server driven with node:child_process and JSON.parse
only, no SDK, no checks: the floor), each sample a fresh process on Node 22 (every side alike; the
servers, the hand-written echo server, on this Node), the sides taking turns, each round starting
with the next side; a figure is the median of the processes', shown with their min-max (the last
column). Ours = McpRegistry (no schema cache: a first start) and its EpochTools, or McpClient where
the row says; raw = the SDK's Client over its StdioClientTransport; AI SDK = createMCPClient over
its stdio transport and the tools of tools().
Start -> exit: a one-shot program (bench/probes/start-to-exit.mjs): ours = connectAll, the echo
EpochTool's execute, disconnectAll; raw = connect, listTools, callTool, close; AI SDK =
createMCPClient, tools(), the echo tool's execute, close(); bare = initialize, tools/list,
tools/call, stdin ended. Spawn to exit, timed by the parent; import + first connect + list = timed
inside the same processes (ours loads on its first connect what the import left out).
20 servers (bench/probes/fanout.mjs): 20 echo servers started, connected and listed at once (ours
connectAll; raw 20 Clients, connect + listTools, with Promise.all; AI SDK 20 clients + tools(); bare
20 pipes), timed inside the process from after the client's import until every tool list was in,
then all closed; import + connect + list from the process's start.
Polite close (bench/probes/close.mjs): each process connects a new echo server 6 times and times
the close of the last 5 (the first loads what a close needs): ours = registry.disconnect(name), raw
= client.close(), AI SDK = close(), bare = stdin ended and the exit awaited; the process's figure is
the median of its 5.
Calls (bench/probes/calls.mjs): one echo server per process; a checked call, 500 warm-up calls,
then 3,000 timed calls one after another; each process's median and p99 (nearest rank).
CPU time rows (shown, not judged): the client process's own (process.cpuUsage, user + system, every
thread of it: a call's can pass its wall time), over the same span as the row's time; steadier than
wall time on a busy machine.
Processes left = the server's still running (a zombie has ended) when the client's close resolved,
and when the process had exited; the AI SDK's close signals the server and does not wait. Memory =
JS heap + external (process.memoryUsage, after GC) per connection, 20 idle stdio servers (shell
scripts) against one. Cold CLI = spawn to exit of \`epoch mcp list --config <3 servers>\` against
\`node -e 0\`.
Large inputs: readMcpServers of a user mcp.json of 1,000, 10,000 and 100,000 keys in five shapes,
and a redaction policy of 800, 8,000 and 80,000 env_file values ("a b" and three characters: each
looked for as written, in JSON and URL-encoded), made and then given 1 MB of a server's environment
dump in 64 KiB pieces; the CPU time of the bench's process (a busy machine moves wall time by more
than the ratio is about), medians of 5; each size against the one 10 times smaller (in proportion:
10).
Import at scale: \`epoch mcp import\` of 100, 1,000 and 10,000 servers of one ~/.cursor/mcp.json
(npx packages with an env key each), spawn to exit, with --dry-run and writing into an empty
mcp.json (medians of 5, 3 and 1 runs); the ratio rows take the 100-server run off both sides (a
process's own cost), so linear is 1.0.
Sizes: each published package's tarball as npm pack makes it (plugin-mcp's against the raw SDK
client's, the version it bundles), and \`npm install -g\` of the cli with everything it depends on,
file sizes under the prefix's lib/node_modules, against the SDK client's install the same way.
Connectors page (bench/page.mjs): epoch web on 30 servers (six catalog servers three times, two pid
servers of 20 tools, the reference server, 4 that fail at start, 3 off, 2 that never finish
connecting) in Chromium at 1280 px. First keystroke = from the keydown of one letter in "Find a
tool" to the first frame after the count of matches changed, on a fresh load, 5 loads; idle = 10 s
untouched: the longest task (PerformanceObserver longtask), the main thread's task time per second
(CDP Performance.getMetrics), the DOM nodes added, removed or changed per second.`;

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
