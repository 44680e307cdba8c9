// Run in a fresh process: tool calls to one stdio server, one after another: a checked first call,
// `warmup` untimed calls (the JIT settles), then `calls` timed ones. Prints { medianUs, p99Us }
// as JSON: this process's median and p99 (nearest rank) of the timed calls, in microseconds.
//   argv: execute|callTool|raw|ai-sdk|bare|bare-session, warm-up calls, timed calls, then the server's command
//   and arguments.
//   execute:  the echo EpochTool's execute from McpRegistry.tools() (a host's path)
//   callTool: McpClient.callTool (the plugin's own client under it)
//   raw:      the SDK's Client over StdioClientTransport, callTool
//   ai-sdk:   createMCPClient over its stdio transport, the echo tool's execute from tools()
//   bare:     a pipe (bare-pipe.mjs): tools/call written and its answer read, nothing else
//   bare-session: the same pipe to a server started in a session of its own, as ours are
import { median, percentile } from '../measure.mjs';
import { loadAiSdk } from './ai-sdk.mjs';
import { connectBare } from './bare-pipe.mjs';
import { loadOurs } from './ours.mjs';
import { loadRawSdk } from './raw-sdk.mjs';

const [side, warmupText, callsText, command, ...args] = process.argv.slice(2);
const MESSAGE = 'bench';
const ECHOED = `Echo: ${MESSAGE}`;
const SERVER = 'probe';
const env = {};

const sides = { execute, callTool, raw, 'ai-sdk': aiSdk, bare, 'bare-session': bareSession };
const { call, close } = await sides[side]();
const first = JSON.stringify(await call());
if (!first.includes(ECHOED)) throw new Error(`${side}: echo did not echo: ${first.slice(0, 300)}`);
for (let i = 0; i < Number(warmupText); i++) await call();
const samples = new Array(Number(callsText));
const cpuBefore = process.cpuUsage();
for (let i = 0; i < samples.length; i++) {
  const start = performance.now();
  await call();
  samples[i] = (performance.now() - start) * 1000;
}
const cpu = process.cpuUsage(cpuBefore);
await close();
console.log(
  JSON.stringify({
    medianUs: median(samples),
    p99Us: percentile(samples, 99),
    cpuUsPerCall: (cpu.user + cpu.system) / samples.length,
  }),
);

/** Our servers' configs through the config reader, as a user's mcp.json gives them. */
async function ourConfig() {
  const plugin = await loadOurs();
  const text = JSON.stringify({ servers: { [SERVER]: { command, args, env } } });
  return { plugin, configs: plugin.parseMcpConfig(text, 'probe').servers };
}

async function execute() {
  const { plugin, configs } = await ourConfig();
  const registry = new plugin.McpRegistry({ schemaCache: null });
  const [status] = await registry.connectAll(configs, 'user');
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
  const echo = registry.tools().find((tool) => tool.target.name === 'echo');
  const options = { signal: new AbortController().signal };
  return {
    call: () => echo.execute({ message: MESSAGE }, options),
    close: () => registry.disconnectAll(),
  };
}

async function callTool() {
  const { plugin, configs } = await ourConfig();
  const client = new plugin.McpClient({ config: configs[0] });
  await client.connect();
  const signal = new AbortController().signal;
  return {
    call: () => client.callTool('echo', { message: MESSAGE }, signal),
    close: () => client.close(),
  };
}

async function raw() {
  const connect = await loadRawSdk();
  const { client } = await connect(command, args, env);
  return {
    call: () => client.callTool({ name: 'echo', arguments: { message: MESSAGE } }),
    close: () => client.close(),
  };
}

async function aiSdk() {
  const { createMCPClient, StdioMCPTransport } = await loadAiSdk();
  const client = await createMCPClient({
    transport: new StdioMCPTransport({ command, args, env, stderr: 'ignore' }),
  });
  const { echo } = await client.tools();
  const options = { toolCallId: 'probe', messages: [] };
  return {
    call: () => echo.execute({ message: MESSAGE }, options),
    close: () => client.close(),
  };
}

function bareSession() {
  return bare({ ownSession: true });
}

async function bare(options) {
  const pipe = await connectBare(command, args, env, options);
  await pipe.request('tools/list', {});
  const params = { name: 'echo', arguments: { message: MESSAGE } };
  return { call: () => pipe.request('tools/call', params), close: () => pipe.close() };
}
