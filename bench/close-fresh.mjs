// The polite close of one stdio server (it exits when its stdin ends) in fresh processes
// (probes/close.mjs): each process closes a newly started server CLOSES times after one untimed
// warm-up, and its figure is the median of those closes; the row's figure is the median of the
// processes'. Ours (registry.disconnect) against the raw SDK's client.close(), the AI SDK's
// close() and a bare pipe's (stdin ended, the exit awaited: the floor). Also counted: the server
// processes still running when each close resolved (the AI SDK's close signals the server and
// returns without waiting for it). The in-process row of disconnect.mjs stays beside it.
import { comparedRow, freshSides } from './fresh-sides.mjs';
import { median } from './measure.mjs';

const PROBE = new URL('./probes/close.mjs', import.meta.url).pathname;
const CLOSES = 5;
export const CLOSE_ROUNDS = 7;

/** Goal rows: ours <= the raw SDK's, and 0 processes left; shown: the AI SDK, the bare pipe. */
export async function politeCloseFresh(signal, rounds = CLOSE_ROUNDS) {
  const {
    ours,
    raw,
    'ai-sdk': aiSdk,
    bare,
  } = await freshSides({
    probe: PROBE,
    sides: ['ours', 'raw', 'ai-sdk', 'bare'],
    args: [String(CLOSES)],
    rounds,
    signal,
  });
  const medians = (samples) => samples.map(({ closeMs }) => median(closeMs));
  const worstLeft = (samples) => Math.max(...samples.flatMap(({ left }) => left));
  const what = `stdio close, polite server, fresh processes on Node 22 (median of ${CLOSES} closes each)`;
  const info = { kind: 'info' };
  return [
    comparedRow(`${what}, vs raw SDK (x${rounds})`, medians(ours), medians(raw), {
      kind: 'ratio',
      max: 1.0,
    }),
    comparedRow(`${what}, vs AI SDK (x${rounds})`, medians(ours), medians(aiSdk), info),
    comparedRow(`${what}, vs bare pipe (x${rounds})`, medians(ours), medians(bare), info),
    comparedRow(
      `stdio close, polite server, the client process's CPU time (user + system) in it, vs raw SDK (x${rounds})`,
      ours.map(({ cpuMs }) => median(cpuMs)),
      raw.map(({ cpuMs }) => median(cpuMs)),
      info,
    ),
    {
      metric: `stdio close, polite server, processes left when the close resolved, vs raw SDK (worst of ${rounds * CLOSES})`,
      ours: worstLeft(ours),
      base: worstLeft(raw),
      unit: 'processes',
      goal: { kind: 'absolute', max: 0 },
    },
    {
      metric: `stdio close, polite server, processes left when the close resolved, vs AI SDK (worst of ${rounds * CLOSES})`,
      ours: worstLeft(ours),
      base: worstLeft(aiSdk),
      unit: 'processes',
      goal: info,
    },
  ];
}
