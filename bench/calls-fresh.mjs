// Tool-call latency in fresh processes (probes/calls.mjs), one stdio echo server each: a warm-up,
// then CALLS timed calls one after another; each process gives its median and p99, and a row's
// figure is the median of the processes' (its spread their min–max). Ours by both paths
// (EpochTool.execute, a host's; McpClient.callTool under it) against the raw SDK's callTool, the
// AI SDK's tool execute and a bare pipe (tools/call written, the answer line parsed: the floor).
// The bare pipe also runs to a server in a session of its own, as ours are (the SDKs keep theirs in
// the caller's): shown beside the floor, it tells what the session costs apart from the client.
// The in-process rows of latency.mjs stay beside these.
import { comparedRow, freshSides } from './fresh-sides.mjs';

const PROBE = new URL('./probes/calls.mjs', import.meta.url).pathname;
const WARMUP = 500;
const CALLS = 3000;
export const CALL_ROUNDS = 7;
const PATHS = { execute: 'EpochTool.execute', callTool: 'McpClient.callTool' };

/**
 * Goal rows, for each of our paths: median <= 1.3x the bare pipe's, p99 <= the raw SDK's and the
 * AI SDK's. Shown: the median against each SDK, the p99 against the bare pipe to a server in a
 * session of its own, and that pipe against the plain one.
 */
export async function callLatencyFresh(signal, rounds = CALL_ROUNDS) {
  const sides = await freshSides({
    probe: PROBE,
    sides: ['execute', 'callTool', 'raw', 'ai-sdk', 'bare', 'bare-session'],
    args: [String(WARMUP), String(CALLS)],
    rounds,
    signal,
  });
  const medians = (side) => sides[side].map(({ medianUs }) => medianUs);
  const p99s = (side) => sides[side].map(({ p99Us }) => p99Us);
  const info = { kind: 'info' };
  const asGood = { kind: 'ratio', max: 1.0 };
  const ownSession = 'bare pipe, its server in a session of its own (as ours)';
  const session = ['median', 'p99'].map((stat) => {
    const of = stat === 'p99' ? p99s : medians;
    return comparedRow(
      `stdio tool call ${stat} (${CALLS} calls each), fresh processes on Node 22, ${ownSession}, vs the bare pipe (x${rounds})`,
      of('bare-session'),
      of('bare'),
      info,
      'µs',
    );
  });
  const paths = Object.entries(PATHS).flatMap(([side, path]) => {
    const what = (stat) =>
      `stdio tool call ${stat} (${CALLS} calls each), fresh processes on Node 22, ${path}`;
    const row = (stat, peer, label, goal) =>
      comparedRow(
        `${what(stat)}, vs ${label} (x${rounds})`,
        stat === 'p99' ? p99s(side) : medians(side),
        stat === 'p99' ? p99s(peer) : medians(peer),
        goal,
        'µs',
      );
    const cpu = (peer, label) =>
      comparedRow(
        `stdio tool call, the client process's CPU time (user + system) per call, ${path}, vs ${label} (x${rounds})`,
        sides[side].map(({ cpuUsPerCall }) => cpuUsPerCall),
        sides[peer].map(({ cpuUsPerCall }) => cpuUsPerCall),
        info,
        'µs',
      );
    return [
      row('median', 'bare', 'bare pipe', { kind: 'ratio', max: 1.3 }),
      row('p99', 'raw', 'raw SDK', asGood),
      row('p99', 'ai-sdk', 'AI SDK', asGood),
      row('median', 'raw', 'raw SDK', info),
      row('median', 'ai-sdk', 'AI SDK', info),
      row('p99', 'bare-session', ownSession, info),
      cpu('bare', 'bare pipe'),
      cpu('raw', 'raw SDK'),
    ];
  });
  return [...paths, ...session];
}
