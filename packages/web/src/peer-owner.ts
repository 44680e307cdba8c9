// Which local user a connection to the page's port comes from. A one-time address is on the
// opener's command line, which every local user can read (`ps`): one who asks for it before the
// browser does would get the key. Linux lists every TCP socket of this network namespace with the
// uid that owns it in /proc/net/tcp, so the connecting end's owner is known without trusting
// anything the request says. Elsewhere (macOS, Windows) there is no such table to read.
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';

export type PeerOwner =
  /** The uid owning the connecting socket. */
  | { readonly kind: 'user'; readonly uid: number }
  /** The table was read and the connection is not in it (not IPv4, or already gone). */
  | { readonly kind: 'unlisted' }
  /** There is no table to read on this system. */
  | { readonly kind: 'unknown' };

/** The owner of the socket at `client` (an IPv4 address and port) connected to 127.0.0.1:`port`. */
export function peerOwner(client: { address: string; port: number }, port: number): PeerOwner {
  let table: string;
  try {
    table = readFileSync('/proc/net/tcp', 'latin1');
  } catch {
    return { kind: 'unknown' };
  }
  const local = procAddress(client.address, client.port);
  const remote = procAddress('127.0.0.1', port);
  if (local === undefined) return { kind: 'unlisted' };
  for (const row of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid ...
    const fields = row.trim().split(/\s+/);
    if (fields[1] === local && fields[2] === remote) {
      return { kind: 'user', uid: Number(fields[7]) };
    }
  }
  return { kind: 'unlisted' };
}

/** `127.0.0.1`, 41000 as /proc/net/tcp writes it: the address in host byte order, `0100007F:A028`. */
function procAddress(address: string, port: number): string | undefined {
  const bytes = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)?.slice(1).map(Number);
  if (bytes === undefined) return undefined;
  if (endianness() === 'LE') bytes.reverse();
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex}:${port.toString(16).padStart(4, '0')}`.toUpperCase();
}
