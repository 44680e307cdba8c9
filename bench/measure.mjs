// How the bench measures: wall time of one step, sides run in alternating order so that drift on a
// shared 2-core machine (another process waking up, the CPU clocking down) lands on every side
// alike, the two statistics the report shows, and how a fresh process is timed.
import { spawn } from 'node:child_process';

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

/** `[min, max]` of the samples: the spread a median of few fresh processes is shown with. */
export function spread(samples) {
  if (samples.length === 0) throw new Error('spread of no samples');
  return [Math.min(...samples), Math.max(...samples)];
}

/** Nearest-rank percentile: the smallest sample that at least p% of the samples do not exceed. */
export function percentile(samples, p) {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Runs `node <args>` in a fresh process: its wall time from spawn to exit, and what it printed.
 * Rejects when it fails, with its stderr, so a broken probe is never timed. `node`: the binary
 * (the machine's Node, the one running the bench, unless given); `env`: the process's variables.
 */
export function freshNode(args, signal, { node = process.execPath, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let ms;
    const child = spawn(node, args, { env, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    // Timed at its exit; settled once its output is all read.
    child.once('exit', () => {
      ms = performance.now() - start;
    });
    child.once('close', (code) => {
      if (code === 0) resolve({ ms, stdout });
      else reject(new Error(`${node} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}
