// Run in a fresh process: a program's whole life with one stdio server, as a one-shot tool lives
// it. Imports the client, connects + lists the server's tools, calls `echo` once, closes, and ends
// by itself (no process.exit: whatever the client leaves holding the process is part of its time).
// Prints { importMs, connectMs, leftAtClose, cpuMs, text } as JSON: the import and the connect +
// list, timed inside the process (the parent times the whole process); how many of the processes
// the server recorded in $PID_FILE still ran when the close had resolved; the process's CPU time
// (user + system) from its start to then; what the call returned, for the parent to check.
//   argv: ours|raw|ai-sdk|bare, then the server's command and arguments; $PID_FILE passes to the
//   server.
//   ours:   McpRegistry.connectAll (no schema cache: a first start), the echo EpochTool's execute
//           (a host's path), registry.disconnectAll()
//   raw:    the SDK's Client over its StdioClientTransport: connect, listTools, callTool, close
//   ai-sdk: @ai-sdk/mcp 2.x (installed in bench/peers) createMCPClient over its stdio transport:
//           tools(), the echo tool's execute, close()
//   bare:   a pipe (bare-pipe.mjs): initialize, initialized, tools/list, tools/call; stdin ended,
//           the exit awaited (nothing to import: the floor)
import { isRunning, recordedPids } from '../processes.mjs';
import { loadAiSdk } from './ai-sdk.mjs';
import { connectBare } from './bare-pipe.mjs';
import { loadOurs } from './ours.mjs';
import { loadRawSdk } from './raw-sdk.mjs';

const [side, command, ...args] = process.argv.slice(2);
const MESSAGE = 'bench';
/** Every side hands the server the same variables: the ones each passes by default, and this. */
const env = { PID_FILE: process.env.PID_FILE };

const start = performance.now();
const sides = { ours, raw, 'ai-sdk': aiSdk, bare };
const { imported, connected, result } = await sides[side]();
console.log(
  JSON.stringify({
    importMs: imported - start,
    connectMs: connected - imported,
    leftAtClose: recordedPids(env.PID_FILE).filter(isRunning).length,
    cpuMs: cpuMs(),
    text: JSON.stringify(result),
  }),
);

/** This process's CPU time so far (user + system), its start and import included. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function ours() {
  const { McpRegistry, parseMcpConfig } = await loadOurs();
  const imported = performance.now();
  const text = JSON.stringify({ servers: { probe: { command, args, env } } });
  const registry = new McpRegistry({ schemaCache: null });
  const [status] = await registry.connectAll(parseMcpConfig(text, 'probe').servers, 'user');
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
  const connected = performance.now();
  const echo = registry.tools().find((tool) => tool.target.name === 'echo');
  const result = await echo.execute({ message: MESSAGE }, { signal: new AbortController().signal });
  await registry.disconnectAll();
  return { imported, connected, result };
}

async function raw() {
  const connect = await loadRawSdk();
  const imported = performance.now();
  const { client } = await connect(command, args, env);
  const connected = performance.now();
  const result = await client.callTool({ name: 'echo', arguments: { message: MESSAGE } });
  await client.close();
  return { imported, connected, result };
}

async function aiSdk() {
  const { createMCPClient, StdioMCPTransport } = await loadAiSdk();
  const imported = performance.now();
  const client = await createMCPClient({
    transport: new StdioMCPTransport({ command, args, env, stderr: 'ignore' }),
  });
  const tools = await client.tools();
  const connected = performance.now();
  const result = await tools.echo.execute(
    { message: MESSAGE },
    { toolCallId: 'probe', messages: [] },
  );
  await client.close();
  return { imported, connected, result };
}

async function bare() {
  const imported = performance.now();
  const pipe = await connectBare(command, args, env);
  await pipe.request('tools/list', {});
  const connected = performance.now();
  const result = await pipe.request('tools/call', {
    name: 'echo',
    arguments: { message: MESSAGE },
  });
  await pipe.close();
  return { imported, connected, result };
}
