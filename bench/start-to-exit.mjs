// A one-shot program's whole life with one stdio server, four clients: ours, the raw SDK, the AI
// SDK's MCP client (`@ai-sdk/mcp` 2.x, installed in bench/peers) and a bare pipe (the floor). Each
// sample is a fresh process (probes/start-to-exit.mjs) that imports the client, connects + lists,
// calls `echo` once and closes; it is timed from spawn to exit, as a user waits for it, and reports
// its import + first connect + list, timed inside it. The AI SDK needs Node >= 22, so every side's
// process runs on the Node 22 binary (the server, the hand-written echo server, on the machine's
// Node, as in every other row). Also counted: the server's processes still running when the close
// resolved, and when the process had exited.
import { comparedRow, freshSides } from './fresh-sides.mjs';

export const START_ROUNDS = 11;
const PROBE = new URL('./probes/start-to-exit.mjs', import.meta.url).pathname;
/** The probe calls echo with `bench`; the server answers `Echo: bench`. */
const ECHOED = 'Echo: bench';

/**
 * Goal rows: the whole process against the AI SDK's, the first connect against the raw SDK's.
 * Shown beside each: the other clients, and the processes the close left to each of ours and the
 * AI SDK.
 */
export async function startToExitTime(signal, rounds = START_ROUNDS) {
  const sides = await freshSides({
    probe: PROBE,
    sides: ['ours', 'raw', 'ai-sdk', 'bare'],
    rounds,
    signal,
  });
  for (const [side, samples] of Object.entries(sides)) {
    const wrong = samples.find(({ text }) => !text.includes(ECHOED));
    if (wrong !== undefined) {
      throw new Error(`start to exit, ${side}: echo did not echo: ${wrong.text.slice(0, 300)}`);
    }
  }
  const { ours, raw, 'ai-sdk': aiSdk, bare } = sides;
  const whole = 'fresh process, start → exit (import, connect + list, one call, close), Node 22';
  const first = 'fresh process, import + first connect + list, Node 22';
  const left = 'fresh process, server processes left running';
  const times = (samples) => samples.map(({ processMs }) => processMs);
  const firstConnects = (samples) => samples.map(({ importMs, connectMs }) => importMs + connectMs);
  const cpuTimes = (samples) => samples.map(({ cpuMs }) => cpuMs);
  const worstOf = (samples, key) => Math.max(...samples.map((sample) => sample[key]));
  const info = { kind: 'info' };
  return [
    comparedRow(`${whole}, vs AI SDK (x${rounds})`, times(ours), times(aiSdk), {
      kind: 'ratio',
      max: 0.9,
    }),
    comparedRow(`${whole}, vs raw SDK (x${rounds})`, times(ours), times(raw), info),
    comparedRow(`${whole}, vs bare pipe (x${rounds})`, times(ours), times(bare), info),
    comparedRow(`${first}, vs raw SDK (x${rounds})`, firstConnects(ours), firstConnects(raw), {
      kind: 'ratio',
      max: 1.0,
    }),
    comparedRow(
      `${first}, vs AI SDK (x${rounds})`,
      firstConnects(ours),
      firstConnects(aiSdk),
      info,
    ),
    comparedRow(
      `fresh process, its own CPU time (user + system) to the close, Node 22, vs AI SDK (x${rounds})`,
      cpuTimes(ours),
      cpuTimes(aiSdk),
      info,
    ),
    {
      metric: `${left} when the close resolved, vs AI SDK (worst of ${rounds})`,
      ours: worstOf(ours, 'leftAtClose'),
      base: worstOf(aiSdk, 'leftAtClose'),
      unit: 'processes',
      goal: info,
    },
    {
      metric: `${left} when the process exited, vs AI SDK (worst of ${rounds})`,
      ours: worstOf(ours, 'leftAtExit'),
      base: worstOf(aiSdk, 'leftAtExit'),
      unit: 'processes',
      goal: info,
    },
  ];
}
