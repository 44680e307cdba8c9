// MessageLines, the stdio framing: lines split across chunks and several lines in one chunk come
// out whole, CRLF endings are trimmed, and a line that never ends is bounded.
import { describe, expect, it } from 'vitest';
import { MessageLines, MessageTooLongError } from '../src/transport/message-lines.js';

const chunk = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('MessageLines', () => {
  it('joins a line split over chunks and splits several lines in one chunk', () => {
    const lines = new MessageLines();
    expect(lines.push(chunk('{"a":'))).toEqual([]);
    expect(lines.push(chunk('1}\n{"b":2}\r\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(lines.push(chunk(':3}\n'))).toEqual(['{"c":3}']);
  });

  it('keeps a multi-byte character that a chunk boundary cuts in two', () => {
    const lines = new MessageLines();
    const bytes = chunk('{"t":"é"}\n');
    const cut = bytes.indexOf(0xa9); // the second byte of é
    expect(lines.push(bytes.subarray(0, cut))).toEqual([]);
    expect(lines.push(bytes.subarray(cut))).toEqual(['{"t":"é"}']);
  });

  it('refuses a line that grows past 64 MiB without a newline, then starts afresh', () => {
    const lines = new MessageLines();
    const mib = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 64; i++) lines.push(mib);
    const thrown = (() => {
      try {
        lines.push(mib);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(MessageTooLongError);
    // What was read of the line when it was refused, and the limit it passed.
    expect(thrown).toMatchObject({ bytes: 65 * 1024 * 1024, limit: 64 * 1024 * 1024 });
    expect(lines.push(chunk('{"ok":true}\n'))).toEqual(['{"ok":true}']);
  });
});
