// `npm start`: the bundled example, run after the build. It starts the reference MCP server
// (server-everything) twice on this machine — over SSE on 127.0.0.1:4701 and over Streamable HTTP
// on 127.0.0.1:4702, the two remote servers examples/mcp.json names — then runs `epoch mcp list`
// and `epoch mcp status` on that file in this process. The file's stdio server is started by
// `epoch mcp status` itself. Nothing listens beyond 127.0.0.1, and both servers are stopped before
// this exits, Ctrl-C included. The exit code is the status command's.
import { fileURLToPath } from 'node:url';
import { main, processIo } from '@epoch-agent/cli';
import { isTestkitError, startEverything } from '@epoch-agent/testkit';

const CONFIG = 'examples/mcp.json';
// These must match the urls in examples/mcp.json.
const REMOTE_SERVERS = [
  { transport: 'sse', port: 4701, label: 'SSE' },
  { transport: 'http', port: 4702, label: 'Streamable HTTP' },
];

// examples/mcp.json is named relative to the repo root, wherever this was started from.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

/** Every server start, finished or in flight, so a stop also reaches one that is still starting. */
const starts = [];
let stopping;
const stopServers = () => {
  stopping ??= Promise.allSettled(starts.map((start) => start.then((server) => server.stop())));
  return stopping;
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    processIo.err(`\nnpm start: ${signal}, stopping the example servers ...\n`);
    void stopServers().finally(() => process.exit(130));
  });
}

async function run() {
  for (const { transport, port, label } of REMOTE_SERVERS) {
    // Once stopping has begun, a server started now would be missed by it and outlive us.
    if (stopping !== undefined) return 130;
    const start = startEverything(transport, { port });
    starts.push(start);
    const { endpoint } = await start;
    processIo.out(`Started server-everything over ${label} at ${endpoint.url}\n`);
  }
  processIo.out(`\n$ epoch mcp list --config ${CONFIG}\n\n`);
  await main(['mcp', 'list', '--config', CONFIG], processIo);
  processIo.out(`\n$ epoch mcp status --config ${CONFIG}\n\n`);
  return main(['mcp', 'status', '--config', CONFIG], processIo);
}

try {
  process.exitCode = await run();
} catch (error) {
  if (!isTestkitError(error, 'port_in_use')) throw error;
  process.exitCode = 1;
  processIo.err(
    `npm start: port ${error.port} on 127.0.0.1 is already in use, so the example cannot start its server there.\n` +
      `It is probably an earlier \`npm start\` that is still running, or another program. Find it with\n` +
      `  lsof -nP -iTCP:${error.port} -sTCP:LISTEN\n` +
      `stop it, and run \`npm start\` again. (To use other ports, change them in ${CONFIG} and examples/start.mjs.)\n`,
  );
} finally {
  await stopServers();
}
