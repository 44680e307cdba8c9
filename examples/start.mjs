// `npm start`: the bundled example, run after the build. It starts the reference MCP server
// (server-everything) twice on this machine — over SSE on 127.0.0.1:4701 and over Streamable HTTP
// on 127.0.0.1:4702, the two remote servers examples/mcp.json names — then runs `epoch` commands
// on that file in this process: list, status, the tools of one server, and one tool call. The
// file's stdio server is started by epoch itself. Nothing listens beyond 127.0.0.1, and every
// server is stopped before this exits, Ctrl-C included (exit code 130). Otherwise the exit code is
// the status command's.
//
// `npm run web` (`--web`): the same servers, then `epoch web --open` on that file: the connectors
// page, until Ctrl-C.
//
// Both run in an EPOCH_HOME of their own (a temp dir, removed at the end) unless EPOCH_HOME is set,
// and say which at the start: an example must not write its approvals, schema cache, pins and
// process records into your ~/.epoch, nor start the servers of the plugins installed there.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, interruptSignal, main, processIo } from '@epoch-agent/cli';
import { isTestkitError, startEverything } from '@epoch-agent/testkit';

const CONFIG = 'examples/mcp.json';
// These must match the urls in examples/mcp.json.
const REMOTE_SERVERS = [
  { transport: 'sse', port: 4701, label: 'SSE' },
  { transport: 'http', port: 4702, label: 'Streamable HTTP' },
];
const COMMANDS = process.argv.includes('--web')
  ? [['web', '--open']]
  : [
      ['mcp', 'list'],
      ['mcp', 'status'],
      ['mcp', 'tools', 'everything-http'],
      ['mcp', 'call', 'everything', 'get-sum', '--arg', 'a=19', '--arg', 'b=23'],
    ];

// examples/mcp.json is named relative to the repo root, wherever this was started from.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const io = processIo(interruptSignal((text) => process.stderr.write(text)));
const running = [];
const ownHome = !process.env.EPOCH_HOME;
const home = ownHome ? await mkdtemp(join(tmpdir(), 'epoch-example-')) : process.env.EPOCH_HOME;
process.env.EPOCH_HOME = home;

async function run() {
  io.out(
    ownHome
      ? `EPOCH_HOME is ${home}: the example's own, removed when it ends, so your ~/.epoch is not touched.\n` +
          '(To run it on your own home, set EPOCH_HOME, e.g. EPOCH_HOME=$HOME/.epoch npm start.)\n'
      : `EPOCH_HOME is ${home}, as your environment sets it: the example writes its approvals, cache and records there.\n`,
  );
  for (const { transport, port, label } of REMOTE_SERVERS) {
    const server = await startEverything(transport, { port });
    running.push(server);
    if (io.signal.aborted) return EXIT.interrupted;
    io.out(`Started server-everything over ${label} at ${server.endpoint.url}\n`);
  }
  let status = EXIT.ok;
  for (const command of COMMANDS) {
    const words = command[0] === 'mcp' ? 2 : 1;
    const argv = [...command.slice(0, words), '--config', CONFIG, ...command.slice(words)];
    io.out(`\n$ epoch ${argv.join(' ')}\n\n`);
    const code = await main(argv, io);
    if (code === EXIT.interrupted) return code;
    if (command[1] === 'status') status = code;
  }
  if (COMMANDS.length > 1) io.out('\nThe same servers in the connectors page: npm run web\n');
  return status;
}

try {
  process.exitCode = await run();
} catch (error) {
  if (!isTestkitError(error, 'port_in_use')) throw error;
  process.exitCode = 1;
  io.err(
    `npm start: port ${error.port} on 127.0.0.1 is already in use, so the example cannot start its server there.\n` +
      `It is probably an earlier \`npm start\` that is still running, or another program. Find it with\n` +
      `  lsof -nP -iTCP:${error.port} -sTCP:LISTEN\n` +
      `stop it, and run \`npm start\` again. (To use other ports, change them in ${CONFIG} and examples/start.mjs.)\n`,
  );
} finally {
  await Promise.allSettled(running.map((server) => server.stop()));
  if (ownHome) await rm(home, { recursive: true, force: true });
}
