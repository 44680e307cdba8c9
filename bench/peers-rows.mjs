// The rows that compare us with both peers and the bare pipe in fresh processes, alone, for a quick
// look while working on one of them (`npm run bench` runs them all among the rest; build first):
//   node bench/peers-rows.mjs [--only=start,fanout,close,call] [--rounds N] [--ours <checkout>]
// start = process start → exit; fanout = 20 stdio servers connect + list; close = the polite
// close; call = tool-call median and p99. --rounds: samples (fresh processes) per side, in turn;
// by default each row's own (the same as in `npm run bench`). --ours: "ours" is the build of
// @epoch-agent/plugin-mcp in that checkout of the repo (another worktree) instead of this one's.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { callLatencyFresh } from './calls-fresh.mjs';
import { politeCloseFresh } from './close-fresh.mjs';
import { fanoutTime } from './fanout.mjs';
import { formatTable, summary } from './report.mjs';
import { startToExitTime } from './start-to-exit.mjs';

const ROWS = {
  start: startToExitTime,
  fanout: fanoutTime,
  close: politeCloseFresh,
  call: callLatencyFresh,
};
const DEADLINE_MS = 600_000;

const { values } = parseArgs({
  options: { only: { type: 'string' }, rounds: { type: 'string' }, ours: { type: 'string' } },
});
const only = values.only === undefined ? Object.keys(ROWS) : values.only.split(',');
const unknown = only.filter((name) => !(name in ROWS));
if (unknown.length > 0) {
  throw new Error(
    `--only: no rows named ${unknown.join(', ')}; name some of ${Object.keys(ROWS).join(', ')}`,
  );
}
const rounds = values.rounds === undefined ? undefined : Number(values.rounds);
if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1)) {
  throw new Error(`--rounds: ${values.rounds} is not a whole number of at least 1`);
}

if (values.ours !== undefined) {
  const checkout = resolve(values.ours);
  if (!existsSync(join(checkout, 'node_modules/@epoch-agent/plugin-mcp/package.json'))) {
    throw new Error(
      `--ours: ${checkout} has no node_modules/@epoch-agent/plugin-mcp; name a checkout of this repo where npm ci has run`,
    );
  }
  // The probes read it (probes/ours.mjs).
  process.env.EPOCH_BENCH_OURS = checkout;
}

// Nothing the plugin writes lands in the user's real ~/.epoch; the fresh processes inherit it.
const home = mkdtempSync(join(os.tmpdir(), 'epoch-bench-'));
process.env.EPOCH_HOME = home;
const signal = AbortSignal.timeout(DEADLINE_MS);
const load = () =>
  os
    .loadavg()
    .map((figure) => figure.toFixed(2))
    .join('/');
try {
  const loadBefore = load();
  const started = performance.now();
  const rows = [];
  for (const name of only) {
    console.error(`bench [${((performance.now() - started) / 1000).toFixed(1)} s]: ${name}`);
    rows.push(...(await ROWS[name](signal, rounds)));
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `epoch-agent MCP bench, rows against the peers — Node 22 probes, ${os.cpus().length} CPUs, load ${loadBefore} -> ${load()}, ${seconds} s`,
  );
  console.log(formatTable(rows));
  console.log(summary(rows));
} finally {
  rmSync(home, { recursive: true, force: true });
}
