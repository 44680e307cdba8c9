// Run in a fresh process: a host with 20 stdio servers configured (17 hand-written Node servers,
// two reference servers, one of them behind an `npx` chain) whose session calls 2 of them, the
// servers starting `at_start` or `on_demand`, on the schema cache `cacheDir` an earlier start
// left. Prints, as JSON: the server processes started, the peak RSS of the whole process tree
// (this process and every descendant, read from /proc every 10 ms), its CPU (this process and
// every child it reaped, from /proc/self/stat once they are all closed), and the first call's
// time of each of the two servers, a call to a running one and the server's own start. With `at_start` the calls wait until every server connected,
// so they go to running servers.
//   argv: at_start|on_demand, cacheDir, repository root
// PLATFORM: Linux (/proc).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpClient, McpRegistry, McpSchemaCache, parseMcpConfig } from '@epoch-agent/plugin-mcp';

const [start, cacheDir, root] = process.argv.slice(2);
const ECHO = join(root, 'bench/fixtures/echo-server.mjs');
const CALLED = ['node-01', 'node-02'];
const PAGE = 4096;

const servers = {};
for (let i = 1; i <= 17; i++) {
  const name = `node-${String(i).padStart(2, '0')}`;
  // Its name as an argument (ignored) makes each config, and so its cache entry, its own.
  servers[name] = { command: process.execPath, args: [ECHO, name] };
}
servers.everything = {
  command: process.execPath,
  args: [join(root, 'node_modules/.bin/mcp-server-everything'), 'stdio'],
};
servers['everything-npx'] = {
  command: 'npx',
  args: ['--no', 'mcp-server-everything', 'stdio'],
  cwd: root,
};
servers['everything-2'] = {
  command: process.execPath,
  args: [join(root, 'node_modules/.bin/mcp-server-everything'), 'stdio', 'x'],
};
for (const entry of Object.values(servers)) {
  entry.timeout = 30;
  entry.connect_timeout = 60;
}
const { servers: configs } = parseMcpConfig(JSON.stringify({ servers }), 'probe');

let peakRss = 0;
const seen = new Set();
const sample = () => {
  const tree = descendants(process.pid);
  for (const pid of tree) seen.add(pid);
  const rss = [process.pid, ...tree].reduce((sum, pid) => sum + rssOf(pid), 0);
  peakRss = Math.max(peakRss, rss);
};
const sampler = setInterval(sample, 10);

const registry = new McpRegistry({ schemaCache: new McpSchemaCache({ dir: cacheDir }), start });
// A server that connected, or failed to, was started.
const started = new Set();
registry.onStatus(({ name, state }) => {
  if (state === 'connected' || state === 'failed') started.add(name);
});
const statuses = await registry.connectAll(configs, 'user');
if (start === 'at_start') {
  await new Promise((resolve) => {
    const done = () => registry.statuses().every((status) => status.state === 'connected');
    if (done()) return resolve();
    registry.onStatus(() => done() && resolve());
  });
}
const firstCallMs = [];
for (const name of CALLED) {
  const tool = registry.tools().find((each) => each.name === `mcp__${name}__echo`);
  const at = performance.now();
  const result = await tool.execute({ message: 'bench' }, { signal: AbortSignal.timeout(60_000) });
  firstCallMs.push(performance.now() - at);
  if (!JSON.stringify(result).includes('bench')) throw new Error(`${name}: echo did not echo`);
}
// The same server once more: a call to a server already running, for comparison.
const tool = registry.tools().find((each) => each.name === `mcp__${CALLED[0]}__echo`);
const at = performance.now();
await tool.execute({ message: 'bench' }, { signal: AbortSignal.timeout(60_000) });
const runningCallMs = performance.now() - at;
sample();
clearInterval(sampler);
await registry.disconnectAll();
const stat = readFileSync('/proc/self/stat', 'utf8');
const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
// utime, stime, cutime, cstime (fields 14 to 17), in clock ticks (100 a second on Linux).
const cpuMs = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
// The server's own start, for comparison: one more of the same servers connected (spawn,
// initialize, tools/list) by a client of its own, in this process where the SDK is loaded.
const [own] = parseMcpConfig(
  JSON.stringify({ servers: { own: { command: process.execPath, args: [ECHO, 'own'] } } }),
  'probe',
).servers;
const client = new McpClient({ config: own });
const ownAt = performance.now();
await client.connect();
const ownStartMs = performance.now() - ownAt;
await client.close();
console.log(
  JSON.stringify({
    statesAtStart: [...new Set(statuses.map((status) => status.state))],
    serversStarted: started.size,
    processesSeen: seen.size,
    peakRssMb: (peakRss * PAGE) / 1024 / 1024,
    cpuMs,
    firstCallMs,
    runningCallMs,
    ownStartMs,
  }),
);

function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {}
  }
  const found = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function rssOf(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
  } catch {
    return 0;
  }
}
