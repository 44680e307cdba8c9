// The reference MCP server (`@modelcontextprotocol/server-everything`) in each of its three
// transports, for tests. stdio needs nothing started: the client under test spawns it from the
// command given here. sse and streamableHttp run as a child process of the test, pinned to
// 127.0.0.1 by a preload (the server itself only takes a PORT and would listen on every
// interface), each on its own free port.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type EverythingTransport = 'stdio' | 'sse' | 'http';

export type EverythingEndpoint =
  | { readonly transport: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly transport: 'sse' | 'http'; readonly url: string; readonly port: number };

export interface RunningEverything {
  readonly endpoint: EverythingEndpoint;
  /** Kills the server's process group and waits until it has exited. A no-op for stdio. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
/** The server's bin (`mcp-server-everything`), run with this Node so no shell or PATH is involved. */
export const EVERYTHING_ENTRY = join(packageDir, 'dist', 'index.js');
const LOOPBACK_PRELOAD = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), 'loopback-listen.mjs'),
).href;

// What the server's own launcher (dist/index.js) calls each mode, and the path it serves it on.
const REMOTE_MODES = {
  sse: { argument: 'sse', path: '/sse' },
  http: { argument: 'streamableHttp', path: '/mcp' },
} as const;

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 3_000;
const OUTPUT_TAIL_CHARS = 4_000;

export async function startEverything(transport: EverythingTransport): Promise<RunningEverything> {
  if (transport === 'stdio') {
    return {
      endpoint: { transport, command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
      stop: async () => {},
    };
  }
  const mode = REMOTE_MODES[transport];
  const port = await freeLoopbackPort();
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
  try {
    await waitForPort(port, child, exited);
  } catch (error) {
    await stop();
    throw new Error(
      `server-everything (${mode.argument}) did not listen on 127.0.0.1:${port}: ${String(error)}\n${output}`,
    );
  }
  return {
    endpoint: { transport, url: `http://127.0.0.1:${port}${mode.path}`, port },
    stop,
  };
}

/** A port that was free on 127.0.0.1 a moment ago: bind port 0, read what the kernel chose, close. */
export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') {
    throw new Error(`expected a TCP address, got ${String(address)}`);
  }
  return address.port;
}

async function waitForPort(
  port: number,
  child: ChildProcess,
  exited: Promise<void>,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!(await accepts(port))) {
    if (gone) {
      throw new Error(`it exited with code ${child.exitCode} signal ${child.signalCode}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`not listening after ${READY_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
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

/**
 * The local addresses of every TCP socket listening on `port`, from /proc/net/tcp and tcp6 (Linux):
 * what the kernel bound, whatever the server claims. IPv6 addresses come back as 32 hex digits.
 */
export function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [addressHex, portHex] = (local ?? '').split(':');
      if (state === '0A' && portHex !== undefined && Number.parseInt(portHex, 16) === port) {
        addresses.push(addressHex?.length === 8 ? ipv4FromProc(addressHex) : (addressHex ?? ''));
      }
    }
  }
  return addresses;
}

// /proc/net/tcp prints an IPv4 address as one little-endian 32-bit hex word: 0100007F is 127.0.0.1.
function ipv4FromProc(hex: string): string {
  const bytes = hex.match(/../g) ?? [];
  return bytes
    .reverse()
    .map((byte) => Number.parseInt(byte, 16))
    .join('.');
}
