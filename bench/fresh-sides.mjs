// One probe's samples for several sides, each sample a fresh process on Node 22 (the AI SDK asks
// for it; every side runs on it alike, the servers on the machine's Node), the sides taking turns.
// A sample's servers record their pids in $PID_FILE (or "$PID_FILE.<n>" for a probe that starts
// servers in turn), in a folder of the sample's own: the ones still running once the process had
// exited are counted, then killed.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_22 } from '../conformance/node-22.mjs';
import { alternate, freshNode, median, spread } from './measure.mjs';
import { ensurePeers } from './peers.mjs';
import { isRunning, killSurvivors, recordedPids } from './processes.mjs';

/** The hand-written echo server (bench/fixtures/echo-server.mjs) on the machine's Node. */
export const ECHO_SERVER = [
  process.execPath,
  new URL('./fixtures/echo-server.mjs', import.meta.url).pathname,
];

/**
 * Runs `node <probe> <side> ...args <echo server>` `rounds` times per side, sides in turn. Returns
 * `{ [side]: samples }`, each sample what the probe printed (JSON) with `processMs`, spawn to exit
 * (a name of its own: a probe's `ms` is its own measure, and must not be overwritten), and
 * `leftAtExit`, the server processes still running once it had exited.
 */
export async function freshSides({ probe, sides, args = [], rounds, signal }) {
  await ensurePeers(signal);
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-fresh-'));
  try {
    let sample = 0;
    const run = (side) => () => oneSample(probe, [side, ...args], join(dir, `${sample++}`), signal);
    const results = await alternate(sides.map(run), rounds, signal);
    return Object.fromEntries(sides.map((side, index) => [side, results[index]]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One fresh process; its servers' pid files are `<sampleDir>/pids` and `<sampleDir>/pids.<n>`. */
async function oneSample(probe, args, sampleDir, signal) {
  await mkdir(sampleDir);
  const pidFiles = async () => (await readdir(sampleDir)).map((file) => join(sampleDir, file));
  try {
    const { ms, stdout } = await freshNode([probe, ...args, ...ECHO_SERVER], signal, {
      node: NODE_22,
      env: { ...process.env, PID_FILE: join(sampleDir, 'pids') },
    });
    const leftAtExit = (await pidFiles()).flatMap(recordedPids).filter(isRunning).length;
    return { ...JSON.parse(stdout), processMs: ms, leftAtExit };
  } finally {
    for (const file of await pidFiles()) await killSurvivors(file);
  }
}

/** A report row of two sides' samples: each side's median, and its min–max as the spread. */
export function comparedRow(metric, ours, base, goal, unit) {
  return {
    metric,
    ours: median(ours),
    base: median(base),
    goal,
    ...(unit === undefined ? {} : { unit }),
    spread: { ours: spread(ours), base: spread(base) },
  };
}
