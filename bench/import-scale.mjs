// `epoch mcp import` of 100, 1,000 and 10,000 servers of one client's file (Cursor's), a fresh
// process from spawn to exit, with --dry-run and writing (into an empty mcp.json, each approved in
// one write of the store); then 10,000 against ten times 1,000, each less the 100-server run (what
// a process costs whatever it imports), where linear is 1.0. Before one edit took all of them
// the whole file was parsed twice per server: 1,000 took 52 s here, 10,000 did not end.
// Runs in `npm run bench`, or alone: `npm run build && node bench/import-scale.mjs`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshNode, median } from './measure.mjs';
import { formatTable } from './report.mjs';

const EPOCH = new URL('../packages/cli/bin/epoch.js', import.meta.url).pathname;
const EMPTY = '{\n  "servers": {}\n}\n';
/** Servers, and how many fresh processes each figure is the median of. */
const SIZES = [
  { servers: 100, rounds: 5 },
  { servers: 1_000, rounds: 3 },
  { servers: 10_000, rounds: 1 },
];
/** 10,000 may take this much more than 10 x 1,000: what n log n and a busy machine leave. */
const LINEAR_MAX = 1.5;

export async function importScale(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-import-'));
  try {
    const times = new Map();
    for (const { servers, rounds } of SIZES) {
      const machine = await layOut(join(dir, String(servers)), servers);
      const dry = [];
      const write = [];
      // Each run starts from the empty file and no approvals.
      const reset = async () => {
        await writeFile(machine.file, EMPTY);
        await rm(join(machine.dir, 'approvals.json'), { force: true });
      };
      for (let round = 0; round < rounds; round++) {
        await reset();
        dry.push(await importMs(machine, ['--dry-run'], servers, signal));
        write.push(await importMs(machine, [], servers, signal));
      }
      times.set(servers, { dry: median(dry), write: median(write) });
    }
    const rows = [];
    for (const { servers, rounds } of SIZES) {
      const { dry, write } = times.get(servers);
      const count = servers.toLocaleString('en-US');
      rows.push(
        row(`epoch mcp import --dry-run, ${count} servers, fresh process (x${rounds})`, dry),
        row(`epoch mcp import, ${count} servers, fresh process (x${rounds})`, write),
      );
    }
    // Less the 100-server run: what a process costs whatever it imports, which would otherwise
    // count ten times in the base and flatter the ratio.
    const linear = (kind) => ({
      metric: `epoch mcp import${kind === 'dry' ? ' --dry-run' : ''}: 10,000 vs 10 x 1,000 servers, each less 100`,
      ours: times.get(10_000)[kind] - times.get(100)[kind],
      base: 10 * (times.get(1_000)[kind] - times.get(100)[kind]),
      goal: { kind: 'ratio', max: LINEAR_MAX },
    });
    rows.push(linear('dry'), linear('write'));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function row(metric, ours) {
  return { metric, ours, base: undefined, goal: { kind: 'info' } };
}

/** A machine with a home whose ~/.cursor/mcp.json holds `count` servers, and an empty mcp.json. */
async function layOut(dir, count) {
  const home = join(dir, 'home');
  await mkdir(join(home, '.cursor'), { recursive: true });
  await mkdir(join(dir, 'project'));
  const servers = {};
  for (let i = 0; i < count; i++) {
    servers[`server-${i}`] = {
      command: 'npx',
      args: ['-y', `@example/mcp-server-${i}`, '--port', String(3000 + i)],
      env: { API_KEY: `bench-not-a-key-${i}` },
    };
  }
  await writeFile(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: servers }, null, 2),
  );
  const file = join(dir, 'mcp.json');
  await writeFile(file, EMPTY);
  return { dir, home, file, project: join(dir, 'project') };
}

async function importMs(machine, flags, count, signal) {
  const args = [EPOCH, 'mcp', 'import', ...flags, '--config', machine.file];
  args.push('--project', machine.project);
  // Its own home and EPOCH_HOME: nothing of the user's is read or written.
  const env = { ...process.env, HOME: machine.home, EPOCH_HOME: machine.dir };
  const { ms, stdout } = await freshNode(args, signal, { env });
  const said = flags.includes('--dry-run') ? 'Would import' : 'Imported';
  // A run that imported less than all of them is not the figure it claims to be.
  if (!stdout.includes(`${said} ${count} servers`)) {
    throw new Error(`epoch mcp import of ${count} servers said: ${stdout.slice(-300)}`);
  }
  return ms;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await importScale(AbortSignal.timeout(600_000));
  console.log(formatTable(rows));
}
