// Inputs at 1x, 10x and 100x: an mcp.json of 1,000, 10,000 and 100,000 keys read as every command
// reads it (readMcpServers: the loader, the user's overrides, the names), in five shapes, and a
// server's redaction policy of 800, 8,000 and 80,000 env_file values (each with a space, so each is
// looked for in three spellings). Each 10x step is judged against the one before: time in
// proportion to the input is a ratio of 10, a quadratic one 100. Times are CPU time, medians of 5. `epoch mcp list` of the largest
// file, spawn to exit, is shown too. `node bench/large-inputs.mjs` runs these rows alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, secretRedactor } from '@epoch-agent/infra';
import { readMcpServers } from '@epoch-agent/runtime/config';
import { freshNode, median } from './measure.mjs';
import { formatTable } from './report.mjs';

const SIZES = [1_000, 10_000, 100_000];
const VALUES = [800, 8_000, 80_000];
const ROUNDS = 5;
/** Ten times the input in at most this many times the time: linear is 10, n log n about 12. */
const STEP_GOAL = { kind: 'ratio', max: 15 };
const EPOCH = new URL('../packages/cli/bin/epoch.js', import.meta.url).pathname;

const range = (n) => Array.from({ length: n }, (_, i) => i);

/** mcp.json texts of `n` keys, by what the keys are. */
const SHAPES = {
  'env keys of one server': (n) => ({
    servers: {
      s: { command: 'node', env: Object.fromEntries(range(n).map((i) => [`K${i}`, 'v'])) },
    },
  }),
  servers: (n) => ({
    servers: Object.fromEntries(range(n).map((i) => [`s${i}`, { command: 'x' }])),
  }),
  'unset ${VAR}s (a warning each)': (n) => ({
    servers: {
      s: { command: 'node', env: Object.fromEntries(range(n).map((i) => [`K${i}`, `\${U${i}}`])) },
    },
  }),
  'overrides naming no server (a warning each)': (n) => ({
    overrides: Object.fromEntries(range(n).map((i) => [`p${i}__s`, { enabled: false }])),
  }),
  // JSON.stringify cannot write a key twice: written by hand.
  'one key given n times (a warning each)': (n) =>
    `{"servers":{"s":{"command":"node","env":{${range(n)
      .map(() => '"K":"v"')
      .join(',')}}}}}`,
};

export async function largeInputs(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-large-'));
  try {
    const rows = [];
    for (const [shape, make] of Object.entries(SHAPES)) {
      const times = [];
      for (const n of SIZES) {
        const made = make(n);
        const text = typeof made === 'string' ? made : JSON.stringify(made);
        const file = join(dir, `${n}.json`);
        await writeFile(file, text);
        times.push(
          await medianOf(() => readMcpServers({ configFile: file, projectDir: null }), signal),
        );
        if (n === SIZES.at(-1) && shape === 'env keys of one server') {
          const env = { ...process.env, EPOCH_HOME: dir };
          const list = await freshNode([EPOCH, 'mcp', 'list', '--config', file], signal, { env });
          rows.push({
            metric: `\`epoch mcp list\` of ${count(n)} env keys (${kB(text)}), spawn to exit`,
            ours: list.ms,
            goal: { kind: 'info' },
          });
        }
      }
      rows.push(...steps(`load, ${shape}`, SIZES, times, (n) => `${count(n)} keys`));
    }
    const build = [];
    const redact = [];
    for (const n of VALUES) {
      const values = range(n).map((i) => `a b${base62(i)}`);
      let policy;
      build.push(
        await medianOf(() => {
          policy = secretRedactor([]);
          policy.keep(credentials(values));
        }, signal),
      );
      // A megabyte of what a server prints when it dumps its environment, in 64 KiB pieces.
      const line = (i) => `K${base62(i)}=${values[i % n]} and some text around it\n`;
      let text = '';
      for (let i = 0; text.length < 1 << 20; i++) text += line(i);
      redact.push(
        await medianOf(() => {
          const stream = policy.stream();
          for (let at = 0; at < text.length; at += 1 << 16)
            stream.write(text.slice(at, at + (1 << 16)));
          stream.end();
        }, signal),
      );
    }
    rows.push(...steps('redaction policy made of', VALUES, build, (n) => `${count(n)} values`));
    rows.push(
      ...steps(
        '1 MB redacted in 64 KiB pieces, policy of',
        VALUES,
        redact,
        (n) => `${count(n)} values`,
      ),
    );
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A row per size: the first shown, each later one judged against the one before. */
function steps(label, sizes, times, size) {
  return sizes.map((n, i) =>
    i === 0
      ? { metric: `${label} ${size(n)}`, ours: times[i], goal: { kind: 'info' } }
      : {
          metric: `${label} ${size(n)} vs ${size(sizes[i - 1])}`,
          ours: times[i],
          base: times[i - 1],
          goal: STEP_GOAL,
        },
  );
}

/**
 * The median CPU time of `step` (this process's, user + system, in ms): the work is all in this
 * process, and on a shared machine another process's turn would move a wall-clock ratio by more
 * than the 10 it is about.
 */
async function medianOf(step, signal) {
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    signal.throwIfAborted();
    const before = process.cpuUsage();
    await step();
    const { user, system } = process.cpuUsage(before);
    samples.push((user + system) / 1000);
  }
  return median(samples);
}

function count(n) {
  return n.toLocaleString('en-US');
}

function kB(text) {
  return `${Math.round(text.length / 1000)} kB`;
}

/** Three letters or digits for `i` under 238,328: short distinct keys and values. */
function base62(i) {
  const digits = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [i % 62, Math.floor(i / 62) % 62, Math.floor(i / 3844) % 62]
    .map((d) => digits[d])
    .join('');
}

// Alone: `node bench/large-inputs.mjs` (after a build).
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await largeInputs(AbortSignal.timeout(600_000));
  console.log(formatTable(rows));
}
