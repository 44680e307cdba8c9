// An SSE event stream (text/event-stream) passed on byte for byte, except the data of a message
// event, which a function may replace. Events are framed as the SSE spec and the SDK's parser
// (eventsource-parser, both HTTP transports) frame them: a line ends at LF, CR or CRLF, an event
// at an empty line, its data lines are joined with "\n", and an event whose `event` field is
// neither empty nor "message" is not a message. Everything else (ids, which a resumed stream
// starts after; comments; retry) passes untouched. An event is held until its empty line, when
// the SDK's parser would dispatch it anyway: what arrives in a chunk goes on with that chunk, so a
// progress notification is not kept back until the answer.

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = Uint8Array.of(0x64, 0x61, 0x74, 0x61);
const EVENT = Uint8Array.of(0x65, 0x76, 0x65, 0x6e, 0x74);
const MESSAGE = new TextEncoder().encode('message');

/**
 * What a message event's data becomes, as one line of text (JSON.stringify's output is), or
 * undefined to pass the event on as it came.
 */
export type DataRewrite = (data: string) => string | undefined;

/**
 * `body` with each message event's data given to `rewrite`, in stream order, as each event ends.
 * `body` is read as this stream is read: a stream that pulls, which costs each chunk less than a
 * TransformStream's pipe does (what it adds per event: bench/event-answers.mjs).
 */
export function rewrittenEvents(
  body: ReadableStream<Uint8Array>,
  rewrite: DataRewrite,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let passed = false;
  let out: ReadableStreamDefaultController<Uint8Array> | undefined;
  const events = new EventRewriter(rewrite, (bytes) => {
    out?.enqueue(bytes);
    passed = true;
  });
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        out = controller;
      },
      // Called for a read that waits. A chunk that ends no event passes nothing on, and the stream
      // would not pull again by itself: read on until something is passed on.
      pull: async (controller) => {
        passed = false;
        while (!passed) {
          const { done, value } = await reader.read();
          if (done) {
            events.end();
            controller.close();
            return;
          }
          events.push(value);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** A data line of the current event; offsets count from the event's first byte. */
interface DataLine {
  readonly start: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  /** After its line end. */
  readonly end: number;
}

const NO_BYTES = new Uint8Array(0);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

class EventRewriter {
  readonly #rewrite: DataRewrite;
  readonly #pass: (bytes: Uint8Array) => void;
  /** The current event's bytes from earlier chunks, not passed on yet. */
  #held: Uint8Array[] = [];
  #heldLength = 0;
  /** Where the current event starts in #chunk (0 when it began in an earlier one). */
  #eventStart = 0;
  /** Where the bytes of #chunk not yet passed on start. */
  #emitFrom = 0;
  #chunk: Uint8Array = NO_BYTES;
  /** Where the current line starts, from the event's first byte. */
  #lineStart = 0;
  /**
   * The last byte held is a CR that ends the current line: whether an LF follows it, as part of
   * the same line end, the next chunk tells (the SDK's parser waits for it too).
   */
  #endsInCR = false;
  /** The stream's first line may start with a byte order mark, which decoders drop. */
  #firstLine = true;
  #dataLines: DataLine[] = [];
  #isMessage = true;

  constructor(rewrite: DataRewrite, pass: (bytes: Uint8Array) => void) {
    this.#rewrite = rewrite;
    this.#pass = pass;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunk = chunk;
    this.#eventStart = 0;
    this.#emitFrom = 0;
    let at = 0;
    if (this.#endsInCR) {
      this.#endsInCR = false;
      at = chunk[0] === LF ? 1 : 0;
      this.#line(this.#heldLength - 1, this.#heldLength + at);
    }
    // Searched in a Buffer over the same bytes: its indexOf is memchr, a Uint8Array's a loop some
    // 30 times slower over a large answer. Each found once per chunk, not once per line: a stream
    // without CRs has no line searched twice.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let lf = bytes.indexOf(LF, at);
    let cr = bytes.indexOf(CR, at);
    for (;;) {
      if (lf !== -1 && lf < at) lf = bytes.indexOf(LF, at);
      if (cr !== -1 && cr < at) cr = bytes.indexOf(CR, at);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      if (end === cr && end + 1 === chunk.length) {
        this.#endsInCR = true;
        break;
      }
      at = end === cr && chunk[end + 1] === LF ? end + 2 : end + 1;
      this.#line(this.#offset(end), this.#offset(at));
    }
    if (this.#eventStart > this.#emitFrom) {
      this.#pass(chunk.subarray(this.#emitFrom, this.#eventStart));
    }
    if (this.#eventStart < chunk.length) {
      this.#held.push(chunk.subarray(this.#eventStart));
      this.#heldLength += chunk.length - this.#eventStart;
    }
    this.#chunk = NO_BYTES;
  }

  /** An event cut off by the stream's end is passed on as it came: no parser dispatches it. */
  end(): void {
    for (const piece of this.#held) this.#pass(piece);
  }

  /** `at` in #chunk, from the current event's first byte. */
  #offset(at: number): number {
    return this.#heldLength + at - this.#eventStart;
  }

  /** The current line ends at `end` and its line end at `next` (from the event's first byte). */
  #line(end: number, next: number): void {
    const start = this.#lineStart;
    this.#lineStart = next;
    let field = start;
    if (this.#firstLine) {
      this.#firstLine = false;
      if (
        this.#at(start) === 0xef &&
        this.#at(start + 1) === 0xbb &&
        this.#at(start + 2) === 0xbf
      ) {
        field += 3;
      }
    }
    if (start === end) {
      this.#endEvent(next);
      return;
    }
    const data = this.#valueStart(field, end, DATA);
    if (data !== -1) {
      this.#dataLines.push({ start: field, valueStart: data, valueEnd: end, end: next });
      return;
    }
    const event = this.#valueStart(field, end, EVENT);
    if (event !== -1) this.#isMessage = event === end || this.#equals(event, end, MESSAGE);
  }

  /** Where the value of a line of field `name` starts, or -1 when it is another field's. */
  #valueStart(field: number, end: number, name: Uint8Array): number {
    const after = field + name.length;
    if (after > end || !this.#equals(field, after, name)) return -1;
    if (after === end) return end;
    if (this.#at(after) !== COLON) return -1;
    return after + 1 < end && this.#at(after + 1) === SPACE ? after + 2 : after + 1;
  }

  #equals(start: number, end: number, bytes: Uint8Array): boolean {
    if (end - start !== bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (this.#at(start + i) !== bytes[i]) return false;
    return true;
  }

  /** The byte at `offset` from the current event's first byte. */
  #at(offset: number): number | undefined {
    if (offset >= this.#heldLength) {
      return this.#chunk[this.#eventStart + offset - this.#heldLength];
    }
    let rest = offset;
    for (const piece of this.#held) {
      if (rest < piece.length) return piece[rest];
      rest -= piece.length;
    }
    return undefined;
  }

  /** The current event ends `length` bytes from its first, with its empty line. */
  #endEvent(length: number): void {
    const after = this.#eventStart + length - this.#heldLength;
    const replaced = this.#replaced(length);
    if (replaced === undefined) {
      // Held pieces came before anything of this chunk that is still to be passed on.
      for (const piece of this.#held) this.#pass(piece);
    } else {
      if (this.#eventStart > this.#emitFrom) {
        this.#pass(this.#chunk.subarray(this.#emitFrom, this.#eventStart));
      }
      this.#pass(replaced);
      this.#emitFrom = after;
    }
    this.#held = [];
    this.#heldLength = 0;
    this.#eventStart = after;
    this.#lineStart = 0;
    this.#dataLines = [];
    this.#isMessage = true;
  }

  /** The event's bytes with its data rewritten, or undefined when it stays as it came. */
  #replaced(length: number): Uint8Array | undefined {
    const lines = this.#dataLines;
    const [first] = lines;
    if (!this.#isMessage || first === undefined) return undefined;
    const bytes = this.#eventBytes(length);
    const value = (line: DataLine) =>
      decoder.decode(bytes.subarray(line.valueStart, line.valueEnd));
    const text = this.#rewrite(lines.length === 1 ? value(first) : lines.map(value).join('\n'));
    if (text === undefined) return undefined;
    // The event's other lines stay as they came, the new data line where its first data line was.
    const pieces = [bytes.subarray(0, first.start), encoder.encode(`data: ${text}\n`)];
    let from = first.end;
    for (const line of lines.slice(1)) {
      pieces.push(bytes.subarray(from, line.start));
      from = line.end;
    }
    pieces.push(bytes.subarray(from));
    return joined(pieces);
  }

  /** The current event's first `length` bytes, in one array. */
  #eventBytes(length: number): Uint8Array {
    const here = this.#chunk.subarray(
      this.#eventStart,
      this.#eventStart + length - this.#heldLength,
    );
    return this.#heldLength === 0 ? here : joined([...this.#held, here]);
  }
}

function joined(pieces: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  return all;
}
