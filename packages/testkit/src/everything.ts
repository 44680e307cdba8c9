// The reference MCP server (`@modelcontextprotocol/server-everything`) in each of its three
// transports. stdio needs nothing started: the client under test spawns it from the command given
// here. sse and streamableHttp run as a child process, pinned to 127.0.0.1 by a preload (the
// server itself only takes a PORT and would listen on every interface), on a free port or the one
// the caller fixes.

import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TestkitError } from './errors.js';
import { assertPortFree, freeLoopbackPort, waitForListening } from './loopback.js';

export type EverythingTransport = 'stdio' | 'sse' | 'http';

export type EverythingEndpoint =
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly transport: 'sse' | 'http'; readonly url: string; readonly port: number };

export interface StartEverythingOptions {
  /**
   * sse / http: listen on this 127.0.0.1 port instead of a free one, for a config file that names
   * it (the example's mcp.json). Rejects with `port_in_use` when the port is taken.
   */
  readonly port?: number;
}

export interface RunningEverything {
  readonly endpoint: EverythingEndpoint;
  /** Kills the server's process group and waits until it has exited. A no-op for stdio. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
/** The server's bin (`mcp-server-everything`), run with this Node so no shell or PATH is involved. */
export const EVERYTHING_ENTRY = join(packageDir, 'dist', 'index.js');
// Beside src/ and dist/ alike, so this resolves from the built module and from the source.
const LOOPBACK_PRELOAD = new URL('../loopback-listen.mjs', import.meta.url).href;

// What the server's own launcher (dist/index.js) calls each mode, and the path it serves it on.
const REMOTE_MODES = {
  sse: { argument: 'sse', path: '/sse' },
  http: { argument: 'streamableHttp', path: '/mcp' },
} as const;

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 3_000;
const OUTPUT_TAIL_CHARS = 4_000;

export async function startEverything(
  transport: EverythingTransport,
  options: StartEverythingOptions = {},
): Promise<RunningEverything> {
  if (transport === 'stdio') {
    return {
      endpoint: { transport, command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
      stop: async () => {},
    };
  }
  const mode = REMOTE_MODES[transport];
  let port: number;
  if (options.port === undefined) {
    port = await freeLoopbackPort();
  } else {
    port = options.port;
    await assertPortFree(port);
  }
  const child = spawn(
    process.execPath,
    ['--import', LOOPBACK_PRELOAD, EVERYTHING_ENTRY, mode.argument],
    {
      env: { ...process.env, PORT: String(port) },
      // Its own process group, so stop() takes down anything it started along with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  // Always drained: the streamableHttp mode logs every request on stdout and would block on a full pipe.
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = (): Promise<void> => stopGroup(child, exited);
  const gone = (): string | undefined =>
    child.exitCode === null && child.signalCode === null
      ? undefined
      : `code ${child.exitCode}, signal ${child.signalCode}`;
  try {
    await waitForListening(port, gone, READY_TIMEOUT_MS);
  } catch (error) {
    await stop();
    throw new TestkitError(
      'not_listening',
      `server-everything (${mode.argument}) did not listen on 127.0.0.1:${port}: ${(error as Error).message}\n${output}`,
      { port },
    );
  }
  return {
    endpoint: { transport, url: `http://127.0.0.1:${port}${mode.path}`, port },
    stop,
  };
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) {
    return;
  }
  if (child.exitCode === null && child.signalCode === null) {
    killGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  // The leader is gone; sweep anything it left in its group.
  killGroup(pid, 'SIGKILL');
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') {
      throw error;
    }
  }
}
