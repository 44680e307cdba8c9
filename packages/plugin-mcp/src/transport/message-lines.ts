// Splits a stdio server's stdout into lines (newline-delimited JSON-RPC), in time linear in the
// bytes read. The SDK's ReadBuffer concatenates its whole buffer and searches it from the start on
// every chunk: a 20 MB tool result arriving in 64 KiB chunks costs it seconds of blocked event
// loop, and its 10 MB default cap refuses the message outright.

/**
 * The largest message we hold. The bound only keeps a server that never writes a newline from
 * growing our memory without end; it is far above real results (screenshots, file dumps).
 */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * A line outgrew MAX_MESSAGE_BYTES: the stream cannot be re-synchronised, so the transport stops
 * the server. Its own class, so that what reports the end of the server (and a request it ends)
 * says this, not "the server closed the connection" (which is what the SDK sees next).
 */
export class MessageTooLongError extends Error {
  override readonly name = 'MessageTooLongError';
  /** The bytes of the line read when it was refused: the line is that long at least. */
  readonly bytes: number;
  readonly limit = MAX_MESSAGE_BYTES;
  /** What the server did, as the rest of a sentence about it ("MCP server "x" <did>"). */
  readonly did: string;

  constructor(bytes: number) {
    const did = `wrote a line of ${mib(bytes)} (${bytes} bytes) on stdout without ending it, over the limit of ${mib(MAX_MESSAGE_BYTES, 0)} (${MAX_MESSAGE_BYTES} bytes) for one message; no line that long is read as a message, so the server was stopped`;
    super(`the server ${did}`);
    this.bytes = bytes;
    this.did = did;
  }
}

function mib(bytes: number, digits = 1): string {
  return `${(bytes / (1024 * 1024)).toFixed(digits)} MiB`;
}

const CR = 0x0d;

export class MessageLines {
  /** The start of a line whose newline has not arrived yet, chunk by chunk. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  /**
   * The lines `chunk` completes, without their line endings. Throws when one line outgrows
   * MAX_MESSAGE_BYTES; what was pending is dropped then.
   */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      // The usual line arrives whole in one chunk: decoded in place, without a copy.
      const line =
        this.#pending.length === 0
          ? chunk.toString('utf8', start, end)
          : Buffer.concat([...this.#pending, chunk.subarray(start, end)]).toString('utf8');
      if (this.#pendingBytes !== 0) this.clear();
      lines.push(line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line);
      start = end + 1;
    }
    if (start < chunk.length) {
      this.#pendingBytes += chunk.length - start;
      if (this.#pendingBytes > MAX_MESSAGE_BYTES) {
        const bytes = this.#pendingBytes;
        this.clear();
        throw new MessageTooLongError(bytes);
      }
      this.#pending.push(chunk.subarray(start));
    }
    return lines;
  }

  clear(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}
