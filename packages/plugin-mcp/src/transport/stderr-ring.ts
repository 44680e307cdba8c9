// A stdio server's stderr: split into lines as it arrives, each line handed to a callback (the
// client logs it), and the last lines kept in a ring bounded by line count and bytes, whose tail
// goes into a failed server's status ("why did it die?").

import { StringDecoder } from 'node:string_decoder';

export const STDERR_TAIL_MAX_LINES = 200;
export const STDERR_TAIL_MAX_BYTES = 16 * 1024;
/** A server that writes without newlines must not grow our buffer: longer lines are cut here. */
export const STDERR_MAX_LINE_CHARS = 4096;

export class StderrRing {
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #decoder = new StringDecoder('utf8');
  #partial = '';
  readonly #lines: string[] = [];
  #bytes = 0;

  constructor(onLine?: (line: string) => void) {
    this.#onLine = onLine;
  }

  /** Feeds a chunk; multi-byte characters and lines split across chunks are joined first. */
  write(chunk: Buffer): void {
    const pieces = (this.#partial + this.#decoder.write(chunk)).split('\n');
    this.#partial = pieces.pop() ?? '';
    for (const piece of pieces) this.#line(piece);
    while (this.#partial.length > STDERR_MAX_LINE_CHARS) {
      this.#line(this.#partial.slice(0, STDERR_MAX_LINE_CHARS));
      this.#partial = this.#partial.slice(STDERR_MAX_LINE_CHARS);
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    const rest = this.#partial + this.#decoder.end();
    this.#partial = '';
    if (rest !== '') this.#line(rest);
  }

  /** The newest lines, oldest first, joined with newlines. */
  tail(): string {
    return this.#lines.join('\n');
  }

  #line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    for (let start = 0; start < line.length || start === 0; start += STDERR_MAX_LINE_CHARS) {
      this.#keep(line.slice(start, start + STDERR_MAX_LINE_CHARS));
    }
  }

  #keep(line: string): void {
    this.#onLine?.(line);
    this.#lines.push(line);
    this.#bytes += Buffer.byteLength(line) + 1;
    while (this.#lines.length > STDERR_TAIL_MAX_LINES || this.#bytes > STDERR_TAIL_MAX_BYTES) {
      this.#bytes -= Buffer.byteLength(this.#lines.shift() ?? '') + 1;
    }
  }
}
