// Servers started on demand against started at start: a host process with 20 stdio servers
// configured, whose session calls 2 of them, each run a fresh process (bench/probes/on-demand.mjs)
// on a warm schema cache (the one an earlier start left: a host's usual start). The server
// processes started, the peak RSS of the whole process tree, its CPU, and the first call of a
// server started on demand against that server's own start plus a call.
// PLATFORM: Linux (/proc).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, freshNode, median } from './measure.mjs';

const ROUNDS = 3;
const PROBE = new URL('./probes/on-demand.mjs', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

export async function onDemandStart(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-on-demand-'));
  try {
    const cache = join(dir, 'cache');
    const run = async (start) =>
      JSON.parse((await freshNode([PROBE, start, cache, ROOT], signal)).stdout);
    // Fills the cache (every server connects once), and is not counted.
    await run('at_start');
    const [before, after] = await alternate(
      [() => run('at_start'), () => run('on_demand')],
      ROUNDS,
      signal,
    );
    const of = (samples, pick) => median(samples.map(pick));
    const label = '20 stdio servers (a session calls 2), on_demand vs at_start';
    return [
      {
        metric: `${label}: server processes started`,
        ours: of(after, (s) => s.serversStarted),
        base: of(before, (s) => s.serversStarted),
        unit: 'processes',
        goal: { kind: 'absolute', max: 2 },
      },
      {
        metric: `${label}: peak RSS of the process tree`,
        ours: of(after, (s) => s.peakRssMb),
        base: of(before, (s) => s.peakRssMb),
        unit: 'MB',
        goal: { kind: 'ratio', max: 0.25 },
      },
      {
        metric: `${label}: CPU of the process tree`,
        ours: of(after, (s) => s.cpuMs),
        base: of(before, (s) => s.cpuMs),
        goal: { kind: 'info' },
      },
      {
        // The second server called: the first call of a process also loads the SDK, which a
        // start at start pays too, before its tools are served.
        metric: 'first call of a server started on demand vs its own start + a call',
        ours: of(after, (s) => s.firstCallMs[1]),
        base: of(after, (s) => s.ownStartMs + s.runningCallMs),
        goal: { kind: 'ratio', max: 1.2 },
      },
      {
        metric: 'first call of the session: on demand (SDK loaded with it) vs to a running server',
        ours: of(after, (s) => s.firstCallMs[0]),
        base: of(before, (s) => s.firstCallMs[0]),
        goal: { kind: 'info' },
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
