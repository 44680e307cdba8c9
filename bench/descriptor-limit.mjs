// `epoch mcp status` with more stdio servers than the open-files limit holds: 80 under `ulimit -n
// 256` (macOS's default) and 10,000 under this machine's own limit. For each: how many servers
// connected, were refused a start, or failed otherwise; how many server processes outlived the
// command; its wall time and peak RSS (`/usr/bin/time -v`). The servers are the shell fixture the
// CLI test starts (no node per server), so the figures are the client's, not the servers'.
// PLATFORM: Linux (/proc, /usr/bin/time).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EPOCH = new URL('../packages/cli/bin/epoch.js', import.meta.url).pathname;
const TINY = new URL('../packages/cli/test/fixtures/tiny-server.sh', import.meta.url).pathname;

const SCENARIOS = [
  { servers: 80, limit: 256 },
  { servers: 10_000, limit: undefined },
];

async function processesWith(marker) {
  const found = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(Number(pid));
  }
  return found;
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function scenario(dir, { servers, limit }) {
  const marker = `epoch-descriptor-bench-${randomUUID()}`;
  const config = Object.fromEntries(
    Array.from({ length: servers }, (_, i) => [`s${i}`, { command: 'sh', args: [TINY, marker] }]),
  );
  const file = join(dir, `mcp-${servers}.json`);
  await writeFile(file, JSON.stringify({ servers: config }));
  const ulimit = limit === undefined ? '' : `ulimit -n ${limit}; `;
  const started = Date.now();
  const { code, out, err } = await run(
    '/usr/bin/time',
    [
      '-v',
      'sh',
      '-c',
      `${ulimit}exec "$0" "$@"`,
      process.execPath,
      EPOCH,
      'mcp',
      'status',
      '--json',
      '--config',
      file,
    ],
    { ...process.env, EPOCH_HOME: join(dir, 'home'), NO_COLOR: '1' },
  );
  const wallS = (Date.now() - started) / 1000;
  const leftovers = await processesWith(marker);
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  const statuses = JSON.parse(out).servers;
  const byState = {};
  const byCode = {};
  for (const { state, error } of statuses) {
    byState[state] = (byState[state] ?? 0) + 1;
    if (error !== undefined) byCode[error.code] = (byCode[error.code] ?? 0) + 1;
  }
  const refused = statuses.filter(({ error }) => error?.message.includes('was not started')).length;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1]);
  return {
    servers,
    limit:
      limit ??
      Number(/Max open files\s+(\d+)/.exec(await readFile('/proc/self/limits', 'utf8'))?.[1]),
    exit: code,
    stackTrace: /\n\s+at /.test(err),
    started: servers - refused,
    states: byState,
    errorCodes: byCode,
    leftovers: leftovers.length,
    wallS,
    peakRssMb: Math.round(rssKb / 1024),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-descriptors-'));
try {
  for (const each of SCENARIOS) console.log(JSON.stringify(await scenario(dir, each)));
} finally {
  await rm(dir, { recursive: true, force: true });
}
