// A stdio server's stderr: its secrets blanked, split into lines as it arrives, each line handed
// to a callback (the client logs it), and the last lines kept in a ring bounded by line count and
// bytes, whose tail goes into a failed server's status ("why did it die?").
//
// Redaction comes first, on the stream as it arrives, and never on lines or on the tail: a pipe
// splits a write wherever it likes, so a secret can straddle two chunks; a line longer than
// STDERR_MAX_LINE_CHARS is cut, possibly through a secret; and the ring drops its oldest lines,
// possibly the first lines of a multi-line key. Each of those would leave a piece no later pass
// recognises. The redacting stream holds back only an end of a chunk that could be the start of
// a secret, so what it releases is final, and everything cut or dropped afterwards is already
// clean. Nothing raw is ever stored, so no reader (tail, log line) can see a secret.

import { StringDecoder } from 'node:string_decoder';
import { type RedactingStream, secretRedactor } from '@epoch-agent/infra';
import type { Scrubber } from '../secrets.js';

export const STDERR_TAIL_MAX_LINES = 200;
export const STDERR_TAIL_MAX_BYTES = 16 * 1024;
/** A server that writes without newlines must not grow our buffer: longer lines are cut here. */
export const STDERR_MAX_LINE_CHARS = 4096;

export interface StderrRingOptions {
  /** Each line as it completes, secrets blanked. */
  readonly onLine?: ((line: string) => void) | undefined;
  /** The server's redaction policy. Default: nothing is blanked. */
  readonly scrub?: Scrubber | undefined;
}

export class StderrRing {
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #decoder = new StringDecoder('utf8');
  readonly #redacting: RedactingStream;
  #partial = '';
  readonly #lines: string[] = [];
  #bytes = 0;

  constructor(options: StderrRingOptions = {}) {
    this.#onLine = options.onLine;
    this.#redacting = (options.scrub ?? secretRedactor()).stream();
  }

  /** Feeds a chunk; multi-byte characters, secrets and lines split across chunks are joined first. */
  write(chunk: Buffer): void {
    this.#take(this.#redacting.write(this.#decoder.write(chunk)));
  }

  /** The stream ended: what was held back, and a last line without a newline, still count. */
  end(): void {
    this.#take(this.#redacting.write(this.#decoder.end()) + this.#redacting.end());
    const rest = this.#partial;
    this.#partial = '';
    if (rest !== '') this.#line(rest);
  }

  /** The newest lines, oldest first, joined with newlines. */
  tail(): string {
    return this.#lines.join('\n');
  }

  #take(text: string): void {
    const pieces = (this.#partial + text).split('\n');
    this.#partial = pieces.pop() ?? '';
    for (const piece of pieces) this.#line(piece);
    while (this.#partial.length > STDERR_MAX_LINE_CHARS) {
      this.#line(this.#partial.slice(0, STDERR_MAX_LINE_CHARS));
      this.#partial = this.#partial.slice(STDERR_MAX_LINE_CHARS);
    }
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
