// Run in a fresh process: 20 stdio servers started, connected and listed at once, then all
// closed. Prints { importMs, ms, cpuMs, count, leftAtClose } as JSON: the client's import, the
// time from after the import until every server's tools were listed and this process's CPU time
// (user + system) in it, how many tools were listed (one per server), and how many of the
// servers' processes (recorded in $PID_FILE) still ran when the close resolved.
//   argv: ours|raw|ai-sdk|bare, the number of servers, then the server's command and arguments.
//   ours:   McpRegistry.connectAll of the 20 (no schema cache: a first start), disconnectAll()
//   raw:    20 SDK Clients over StdioClientTransport, connect + listTools with Promise.all, close()
//   ai-sdk: 20 createMCPClient over its stdio transport + tools(), with Promise.all, close()
//   bare:   20 pipes (bare-pipe.mjs): initialize, initialized, tools/list; stdin ended
import { isRunning, recordedPids } from '../processes.mjs';
import { loadAiSdk } from './ai-sdk.mjs';
import { connectBare } from './bare-pipe.mjs';
import { loadOurs } from './ours.mjs';
import { loadRawSdk } from './raw-sdk.mjs';

const [side, countText, command, ...args] = process.argv.slice(2);
const names = Array.from({ length: Number(countText) }, (_, i) => `s${i}`);
/** Every side hands the servers the same variables: the ones each passes by default, and this. */
const env = { PID_FILE: process.env.PID_FILE };

const start = performance.now();
/** Each side marks the end of its import and the moment every tool list was in. */
const marks = {};
const mark = (name) => {
  marks[name] = { at: performance.now(), cpu: process.cpuUsage() };
};
const sides = { ours, raw, 'ai-sdk': aiSdk, bare };
const { count, close } = await sides[side]();
await close();
const { imported, listed } = marks;
console.log(
  JSON.stringify({
    importMs: imported.at - start,
    ms: listed.at - imported.at,
    cpuMs: (listed.cpu.user - imported.cpu.user + listed.cpu.system - imported.cpu.system) / 1000,
    count,
    leftAtClose: recordedPids(env.PID_FILE).filter(isRunning).length,
  }),
);

async function ours() {
  const { McpRegistry, parseMcpConfig } = await loadOurs();
  mark('imported');
  const servers = Object.fromEntries(names.map((name) => [name, { command, args, env }]));
  const registry = new McpRegistry({ schemaCache: null });
  const statuses = await registry.connectAll(
    parseMcpConfig(JSON.stringify({ servers }), 'probe').servers,
    'user',
  );
  const failed = statuses.find((status) => status.state !== 'connected');
  if (failed !== undefined) throw new Error(`not connected: ${JSON.stringify(failed)}`);
  mark('listed');
  return {
    count: registry.tools().length,
    close: () => registry.disconnectAll(),
  };
}

async function raw() {
  const connect = await loadRawSdk();
  mark('imported');
  const connected = await Promise.all(
    names.map(async () => {
      const { client, tools } = await connect(command, args, env);
      return { client, tools: tools.length };
    }),
  );
  mark('listed');
  return {
    count: connected.reduce((sum, { tools }) => sum + tools, 0),
    close: () => Promise.all(connected.map(({ client }) => client.close())),
  };
}

async function aiSdk() {
  const { createMCPClient, StdioMCPTransport } = await loadAiSdk();
  mark('imported');
  const connected = await Promise.all(
    names.map(async () => {
      const client = await createMCPClient({
        transport: new StdioMCPTransport({ command, args, env, stderr: 'ignore' }),
      });
      const tools = await client.tools();
      return { client, tools: Object.keys(tools).length };
    }),
  );
  mark('listed');
  return {
    count: connected.reduce((sum, { tools }) => sum + tools, 0),
    close: () => Promise.all(connected.map(({ client }) => client.close())),
  };
}

async function bare() {
  mark('imported');
  const connected = await Promise.all(
    names.map(async () => {
      const pipe = await connectBare(command, args, env);
      const { tools } = await pipe.request('tools/list', {});
      return { pipe, tools: tools.length };
    }),
  );
  mark('listed');
  return {
    count: connected.reduce((sum, { tools }) => sum + tools, 0),
    close: () => Promise.all(connected.map(({ pipe }) => pipe.close())),
  };
}
