// 20 stdio servers connected and listed at once, in a fresh process per sample (probes/fanout.mjs),
// against the raw SDK's 20 Clients with Promise.all, the AI SDK's 20 clients, and 20 bare pipes
// (the floor). On two cores the fan-out is CPU-bound: 20 Node servers start while the client
// works, so each side's own work per server shows. Timed inside the process, from after the
// client's import until every server's tools are listed; import + connect + list, and the whole
// process from spawn to exit (Node's start, import, connect + list, close, exit), also shown.
import { comparedRow, freshSides } from './fresh-sides.mjs';

const PROBE = new URL('./probes/fanout.mjs', import.meta.url).pathname;
const SERVERS = 20;
export const FANOUT_ROUNDS = 7;

/** Goal row: ours against the raw SDK; shown: the AI SDK, the bare pipe, import included. */
export async function fanoutTime(signal, rounds = FANOUT_ROUNDS) {
  const sides = await freshSides({
    probe: PROBE,
    sides: ['ours', 'raw', 'ai-sdk', 'bare'],
    args: [String(SERVERS)],
    rounds,
    signal,
  });
  for (const [side, samples] of Object.entries(sides)) {
    const short = samples.find(({ count }) => count !== SERVERS);
    if (short !== undefined) {
      throw new Error(
        `fan-out, ${side}: ${short.count} tools listed of ${SERVERS} servers' 1 each`,
      );
    }
  }
  const { ours, raw, 'ai-sdk': aiSdk, bare } = sides;
  const times = (samples) => samples.map(({ ms }) => ms);
  const withImport = (samples) => samples.map(({ importMs, ms }) => importMs + ms);
  const what = `${SERVERS} stdio servers connect + list at once, fresh process on Node 22`;
  const info = { kind: 'info' };
  return [
    comparedRow(`${what}, vs raw SDK (x${rounds})`, times(ours), times(raw), {
      kind: 'ratio',
      max: 0.9,
    }),
    comparedRow(`${what}, vs AI SDK (x${rounds})`, times(ours), times(aiSdk), info),
    comparedRow(`${what}, vs bare pipe (x${rounds})`, times(ours), times(bare), info),
    comparedRow(
      `${SERVERS} stdio servers import + connect + list, fresh process on Node 22, vs raw SDK (x${rounds})`,
      withImport(ours),
      withImport(raw),
      info,
    ),
    comparedRow(
      `${SERVERS} stdio servers, whole process from spawn to exit (connect + list + close), fresh on Node 22, vs raw SDK (x${rounds})`,
      ours.map(({ processMs }) => processMs),
      raw.map(({ processMs }) => processMs),
      info,
    ),
    comparedRow(
      `${SERVERS} stdio servers connect + list, the client process's CPU time (user + system) in it, vs raw SDK (x${rounds})`,
      ours.map(({ cpuMs }) => cpuMs),
      raw.map(({ cpuMs }) => cpuMs),
      info,
    ),
    {
      metric: `${SERVERS} stdio servers, processes left when the close resolved, vs raw SDK (worst of ${rounds})`,
      ours: Math.max(...ours.map(({ leftAtClose }) => leftAtClose)),
      base: Math.max(...raw.map(({ leftAtClose }) => leftAtClose)),
      unit: 'processes',
      goal: { kind: 'absolute', max: 0 },
    },
  ];
}
