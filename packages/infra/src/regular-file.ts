// Reading a file a person names (`--config`, the user's mcp.json): only a regular file (or a link
// to one) is read, and only up to a bound. A FIFO would block the read for ever, past SIGTERM and
// Ctrl-C (the thread is stuck in open(2)); /dev/zero would be read until memory runs out.
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { InfraError } from './errors.js';

/** The most a config file may hold; a hand-written one is a few kilobytes. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const CHUNK = 64 * 1024;

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them. InfraError `not_a_file`
 * for anything else (directory, FIFO, device, socket), `too_large` past the bound; the errors of
 * open(2) (ENOENT, EACCES, …) as Node gives them.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer, so
  // its type can be looked at first. A regular file's reads ignore the flag.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new InfraError(
        'not_a_file',
        `${path} is ${kindOf(info)}, not a regular file; give the path of a regular file.`,
      );
    }
    const tooLarge = new InfraError(
      'too_large',
      `${path} is larger than ${maxBytes / (1024 * 1024)} MiB, the most a config file may hold; it is not read.`,
    );
    if (info.size > maxBytes) throw tooLarge;
    // Read to the end, not to fstat's size: the file may grow meanwhile. Still bounded.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(CHUNK), 0, CHUNK);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      total += bytesRead;
      if (total > maxBytes) throw tooLarge;
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}
