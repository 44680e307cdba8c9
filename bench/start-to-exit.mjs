// A one-shot program's whole life with one stdio server, three clients: ours, the raw SDK and the
// AI SDK's MCP client (`@ai-sdk/mcp`). Each sample is a fresh process (probes/start-to-exit.mjs)
// that imports the client, connects + lists, calls `echo` once and closes; it is timed from spawn to
// exit, as a user waits for it, and reports its import + first connect + list, timed inside it. The
// AI SDK needs Node >= 22, so every side's process runs on the Node 22 binary (the server, the
// hand-written echo server, on the machine's Node, as in every other row). Also counted: the
// server's processes still running when the close resolved, and when the process had exited.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_22 } from '../conformance/node-22.mjs';
import { alternate, freshNode, median } from './measure.mjs';
import { isRunning, killSurvivors, recordedPids } from './processes.mjs';

const ROUNDS = 11;
const PROBE = new URL('./probes/start-to-exit.mjs', import.meta.url).pathname;
const ECHO_SERVER = [
  process.execPath,
  new URL('./fixtures/echo-server.mjs', import.meta.url).pathname,
];
/** The probe calls echo with `bench`; the server answers `Echo: bench`. */
const ECHOED = 'Echo: bench';

/**
 * Goal rows: the whole process against the AI SDK's, the first connect against the raw SDK's.
 * Shown beside each: the third client, and the processes the close left to each of ours and the AI SDK.
 */
export async function startToExitTime(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-start-'));
  try {
    let sample = 0;
    const run = (side) => () => lifetime(side, join(dir, `pids-${sample++}`), signal);
    const [ours, raw, aiSdk] = await alternate(
      [run('ours'), run('raw'), run('ai-sdk')],
      ROUNDS,
      signal,
    );
    const whole = 'fresh process, start → exit (import, connect + list, one call, close), Node 22';
    const first = 'fresh process, import + first connect + list, Node 22';
    const left = 'fresh process, server processes left running';
    const medianOf = (samples, key) => median(samples.map((sample) => sample[key]));
    const worstOf = (samples, key) => Math.max(...samples.map((sample) => sample[key]));
    return [
      {
        metric: `${whole}, vs AI SDK (x${ROUNDS})`,
        ours: medianOf(ours, 'ms'),
        base: medianOf(aiSdk, 'ms'),
        goal: { kind: 'ratio', max: 1.0 },
      },
      {
        metric: `${whole}, vs raw SDK (x${ROUNDS})`,
        ours: medianOf(ours, 'ms'),
        base: medianOf(raw, 'ms'),
        goal: { kind: 'info' },
      },
      {
        metric: `${first}, vs raw SDK (x${ROUNDS})`,
        ours: medianOf(ours, 'firstConnectMs'),
        base: medianOf(raw, 'firstConnectMs'),
        goal: { kind: 'ratio', max: 1.0 },
      },
      {
        metric: `${first}, vs AI SDK (x${ROUNDS})`,
        ours: medianOf(ours, 'firstConnectMs'),
        base: medianOf(aiSdk, 'firstConnectMs'),
        goal: { kind: 'info' },
      },
      {
        metric: `${left} when the close resolved, vs AI SDK (worst of ${ROUNDS})`,
        ours: worstOf(ours, 'leftAtClose'),
        base: worstOf(aiSdk, 'leftAtClose'),
        unit: 'processes',
        goal: { kind: 'info' },
      },
      {
        metric: `${left} when the process exited, vs AI SDK (worst of ${ROUNDS})`,
        ours: worstOf(ours, 'leftAtExit'),
        base: worstOf(aiSdk, 'leftAtExit'),
        unit: 'processes',
        goal: { kind: 'info' },
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One fresh process of `side` (ours|raw|ai-sdk), checked; whatever it left running is killed. */
async function lifetime(side, pidFile, signal) {
  try {
    const { ms, stdout } = await freshNode([PROBE, side, ...ECHO_SERVER], signal, {
      node: NODE_22,
      env: { ...process.env, PID_FILE: pidFile },
    });
    const leftAtExit = recordedPids(pidFile).filter(isRunning).length;
    const { importMs, connectMs, leftAtClose, text } = JSON.parse(stdout);
    if (!text.includes(ECHOED)) {
      throw new Error(`start to exit, ${side}: echo did not echo: ${text.slice(0, 300)}`);
    }
    return { ms, firstConnectMs: importMs + connectMs, leftAtClose, leftAtExit };
  } finally {
    await killSurvivors(pidFile);
  }
}
