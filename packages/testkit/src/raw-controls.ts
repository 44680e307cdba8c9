// What a test of hostile server text looks for in epoch's output: the characters a terminal runs
// or a reader is misled by, which must only ever appear as visible escapes.

/** Every control character but the line feed, DEL, C1, U+2028/2029 and the bidi characters. */
export function rawControls(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return (
      (code < 0x20 && char !== '\n') ||
      (code >= 0x7f && code <= 0x9f) ||
      [0x61c, 0x200e, 0x200f].includes(code) ||
      (code >= 0x2028 && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });
}
