// How the bench measures: wall time of one step, sides run in alternating order so that drift on a
// shared 2-core machine (another process waking up, the CPU clocking down) lands on every side
// alike, and the two statistics the report shows.

/** Milliseconds that `step` took. */
export async function timed(step) {
  const start = performance.now();
  await step();
  return performance.now() - start;
}

/**
 * Runs every task `rounds` times. Each round starts with the next task in turn, so that every task
 * goes first, second, ... equally often. Returns each task's results, in the order of `tasks`.
 * Stops between two tasks once `signal` aborts (the bench's deadline).
 */
export async function alternate(tasks, rounds, signal) {
  const results = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < tasks.length; turn++) {
      const index = (round + turn) % tasks.length;
      signal.throwIfAborted();
      results[index].push(await tasks[index]());
    }
  }
  return results;
}

/** `count` calls of `call` one after another: each one's latency in ms. */
export async function latencies(call, count) {
  const samples = new Array(count);
  for (let i = 0; i < count; i++) samples[i] = await timed(call);
  return samples;
}

export function median(samples) {
  return percentile(samples, 50);
}

/** Nearest-rank percentile: the smallest sample that at least p% of the samples do not exceed. */
export function percentile(samples, p) {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
