// Run in a fresh process: the polite close of one stdio server (it exits when its stdin ends),
// `closes` times over, each on a newly started server, after one untimed connect + close that
// loads what a close needs. Prints { closeMs: [...], cpuMs: [...], left: [...] } as JSON: each
// close's time and this process's CPU time (user + system) during it, and how many of that
// server's processes still ran when the close resolved (the server of close i records its pid in
// "$PID_FILE.i").
//   argv: ours|raw|ai-sdk|bare, the number of timed closes, then the server's command and arguments.
//   ours:   McpRegistry.connectAll (no schema cache), then registry.disconnect(name)
//   raw:    the SDK's Client over StdioClientTransport, connect + listTools, then client.close()
//   ai-sdk: createMCPClient over its stdio transport + tools(), then client.close()
//   bare:   a pipe (bare-pipe.mjs): initialize, initialized, tools/list; stdin ended, the exit awaited
import { isRunning, recordedPids } from '../processes.mjs';
import { loadAiSdk } from './ai-sdk.mjs';
import { connectBare } from './bare-pipe.mjs';
import { loadOurs } from './ours.mjs';
import { loadRawSdk } from './raw-sdk.mjs';

const [side, closesText, command, ...args] = process.argv.slice(2);
const SERVER = 'probe';

const sides = { ours, raw, 'ai-sdk': aiSdk, bare };
const connect = await sides[side]();
const closeMs = [];
const cpuMs = [];
const left = [];
for (let round = 0; round <= Number(closesText); round++) {
  const pidFile = `${process.env.PID_FILE}.${round}`;
  const close = await connect({ PID_FILE: pidFile });
  const [start, cpuBefore] = [performance.now(), process.cpuUsage()];
  await close();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  // Round 0 is the warm-up.
  if (round === 0) continue;
  closeMs.push(ms);
  cpuMs.push((cpu.user + cpu.system) / 1000);
  left.push(recordedPids(pidFile).filter(isRunning).length);
}
console.log(JSON.stringify({ closeMs, cpuMs, left }));

/** Each side: loads its client, then returns connect(env), which connects and returns close(). */
async function ours() {
  const { McpRegistry, parseMcpConfig } = await loadOurs();
  return async (env) => {
    const text = JSON.stringify({ servers: { [SERVER]: { command, args, env } } });
    const registry = new McpRegistry({ schemaCache: null });
    const [status] = await registry.connectAll(parseMcpConfig(text, 'probe').servers, 'user');
    if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
    return () => registry.disconnect(SERVER);
  };
}

async function raw() {
  const connect = await loadRawSdk();
  return async (env) => {
    const { client } = await connect(command, args, env);
    return () => client.close();
  };
}

async function aiSdk() {
  const { createMCPClient, StdioMCPTransport } = await loadAiSdk();
  return async (env) => {
    const client = await createMCPClient({
      transport: new StdioMCPTransport({ command, args, env, stderr: 'ignore' }),
    });
    await client.tools();
    return () => client.close();
  };
}

async function bare() {
  return async (env) => {
    const pipe = await connectBare(command, args, env);
    await pipe.request('tools/list', {});
    return () => pipe.close();
  };
}
