// The event-stream rewrite of transport/event-stream.ts, cut at every byte: what reaches the SDK's
// parser is the stream as it came but for the data of the message events rewritten, whatever the
// chunks; an event goes on with the chunk it ends in. not-mcp-answers.test.ts runs it over HTTP.
import { describe, expect, it } from 'vitest';
import { type DataRewrite, rewrittenEvents } from '../src/transport/event-stream.js';

const encoder = new TextEncoder();
// The byte order mark is kept: it has to go on as it came.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Every way of ending a line and an event, and the fields that are not data: a byte order mark, a
 * comment, an id, a retry, an event of another type, data with no space after its colon, a data
 * line with no colon, and an event the stream's end cuts off.
 */
const STREAM =
  '\uFEFFdata: {"a":1}\n\n' +
  ': a comment\r\nid: 7\r\ndata: one\r\ndata:two\r\n\r\n' +
  'retry: 10\revent: other\rdata: not a message\r\r' +
  'event: message\ndata\ndata: é\n\n' +
  'data: cut off';
/** The data of its message events, in order. */
const DATA = ['{"a":1}', 'one\ntwo', '\né'];

/** `text` cut before each index of `cuts`. */
function pieces(text: string, cuts: readonly number[]): Uint8Array[] {
  const bytes = encoder.encode(text);
  const ends = [...cuts, bytes.length];
  return ends.map((end, i) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
}

/** Every cut into two, and every byte on its own. */
function everyCut(text: string): Uint8Array[][] {
  const length = encoder.encode(text).length;
  const halves = Array.from({ length: length - 1 }, (_, i) => pieces(text, [i + 1]));
  const bytes = pieces(
    text,
    Array.from({ length: length - 1 }, (_, i) => i + 1),
  );
  return [...halves, bytes];
}

async function rewritten(chunks: readonly Uint8Array[], rewrite: DataRewrite): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const out: Uint8Array[] = [];
  for await (const chunk of rewrittenEvents(source, rewrite)) out.push(chunk);
  return decoder.decode(Buffer.concat(out));
}

describe('an event stream passed on with its message events read', () => {
  it('every byte goes on as it came, and each message event is read once, whatever the chunks', async () => {
    for (const chunks of everyCut(STREAM)) {
      const read: string[] = [];
      const out = await rewritten(chunks, (data) => {
        read.push(data);
        return undefined;
      });
      expect(out).toBe(STREAM);
      expect(read).toEqual(DATA);
    }
  });

  it("a message event's data lines give way to one line of the new data; its other lines stay as they came", async () => {
    const stream =
      'data: first\n\nid: 7\r\ndata: a\r\n: note\r\ndata: b\r\n\r\nevent: other\ndata: c\n\n';
    const expected = 'data: FIRST\n\nid: 7\r\ndata: A_B\n: note\r\n\r\nevent: other\ndata: c\n\n';
    for (const chunks of everyCut(stream)) {
      const out = await rewritten(chunks, (data) => data.toUpperCase().replace('\n', '_'));
      expect(out).toBe(expected);
    }
  });

  it('an event goes on with the chunk it ends in, before the rest of the stream comes', async () => {
    let source: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        source = controller;
      },
    });
    const reader = rewrittenEvents(body, () => undefined).getReader();
    source?.enqueue(encoder.encode('data: {"progress":1}\r\n\r\nda'));
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: {"progress":1}\r\n\r\n');
    // The read after it waits until the event it starts has ended.
    const rest = reader.read();
    source?.enqueue(encoder.encode('ta: {"answer"'));
    source?.enqueue(encoder.encode(':1}\n\n'));
    source?.close();
    const read: Uint8Array[] = [];
    for (let next = await rest; !next.done; next = await reader.read()) read.push(next.value);
    expect(decoder.decode(Buffer.concat(read))).toBe('data: {"answer":1}\n\n');
  });
});
