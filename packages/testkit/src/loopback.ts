// Ports on 127.0.0.1: finding a free one, claiming that a fixed one is free, waiting for a server to
// listen, and reading what the kernel really bound. Everything here is loopback only: nothing the
// testkit starts is reachable from the network.

import { readFileSync } from 'node:fs';
import net from 'node:net';
import { TestkitError } from './errors.js';
import { waitUntil } from './waiting.js';

const LOOPBACK = '127.0.0.1';

/** A port that was free on 127.0.0.1 a moment ago: bind port 0, read what the kernel chose, close. */
export async function freeLoopbackPort(): Promise<number> {
  const server = await bind(0);
  const address = server.address();
  await close(server);
  if (address === null || typeof address === 'string') {
    throw new Error(`expected a TCP address, got ${String(address)}`);
  }
  return address.port;
}

/**
 * Throws `port_in_use` when something already listens on `port`. Binding 127.0.0.1 also collides
 * with a listener on every interface (0.0.0.0 or ::), so this catches those too. Without it a
 * server started on a taken port would exit, and whoever held the port would answer in its place.
 */
export async function assertPortFree(port: number): Promise<void> {
  let server: net.Server;
  try {
    server = await bind(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new TestkitError(
        'port_in_use',
        `Port ${port} on ${LOOPBACK} is already in use by another program.`,
        { port },
      );
    }
    throw error;
  }
  await close(server);
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects if `gone()` says the server died. */
export async function waitForListening(
  port: number,
  gone: () => string | undefined,
  timeoutMs: number,
): Promise<void> {
  await waitUntil(
    async () => {
      if (await accepts(port)) return true;
      const exit = gone();
      if (exit !== undefined) throw new Error(`it exited (${exit})`);
      return false;
    },
    `127.0.0.1:${port} to accept a connection`,
    timeoutMs,
  );
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

function bind(port: number): Promise<net.Server> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => resolve(server));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: LOOPBACK });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
