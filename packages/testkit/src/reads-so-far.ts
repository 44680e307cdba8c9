// What this process has read so far, by Linux's count (/proc/self/io: `syscr` read calls, `rchar`
// bytes): what tells, on real files, a listing that opened a file again from one that did not. A
// stat or a readdir reads nothing by this count; a read of a socket or a pipe does (the event
// loop's own wake-ups too, 8 bytes each), so a test compares counts far apart: hundreds of files,
// or kilobytes of them, against the little its own machinery reads.
import { readFileSync } from 'node:fs';

export interface ReadsSoFar {
  readonly calls: number;
  readonly bytes: number;
}

export function readsSoFar(): ReadsSoFar {
  const io = readFileSync('/proc/self/io', 'utf8');
  const field = (name: string) => {
    const counted = new RegExp(`^${name}:\\s*(\\d+)$`, 'm').exec(io);
    if (counted === null) throw new Error(`/proc/self/io has no ${name} line`);
    return Number(counted[1]);
  };
  return { calls: field('syscr'), bytes: field('rchar') };
}
