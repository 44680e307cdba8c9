// Text someone else wrote (an MCP server, an authorization server) made safe to show a person: on
// a terminal an ESC or a C1 CSI byte is a command (clear the screen, set the window title, write
// the clipboard with OSC 52), and a bidi override makes text read other than it is. Each such
// character is shown as a visible escape instead, and a text is cut to a bound, so a 2 MB body
// cannot flood a terminal. Browser-safe (no Node imports): the connectors page uses it too, and
// there drops terminal escapes instead (a colour code in a server's log is noise in a browser, where
// it does nothing), while a bidi character, which a browser does obey, is still shown.

import { groupedNumber } from './grouped-number.js';

// What JSON.stringify leaves raw: DEL, C1 controls, line/paragraph separators, bidi
// embeddings, overrides, isolates and marks.
const BEYOND_C0 = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');
// Without line feed and tab: what a block of lines (a stderr tail, a tool's text) keeps.
const UNSAFE_IN_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`, 'g');
const UNSAFE_IN_JSON = new RegExp(`[${BEYOND_C0}]`, 'g');
// A whole escape sequence (ECMA-48), so that none of it is left behind as text: CSI (colours, cursor
// moves), OSC (a window title, a clipboard write) and the other strings up to their terminator, and
// ESC with its one final byte. C1 forms (0x9b CSI, 0x9d OSC) too.
const TERMINAL_ESCAPE = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d-\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]',
  ].join('|'),
  'g',
);
// What is left to drop after the sequences: every control (in a block of lines, but line feed and
// tab).
const DEL_AND_C1 = '\\u007f-\\u009f';
const CONTROL = new RegExp(`[\\u0000-\\u001f${DEL_AND_C1}]`, 'g');
const CONTROL_IN_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${DEL_AND_C1}]`, 'g');

/** Enough for any message a person reads; a longer text is a body or a dump, not a message. */
export const MAX_VISIBLE_CHARS = 2000;

export interface VisibleTextOptions {
  /** Keep line feeds and tabs: the text is a block of lines (a stderr tail, a tool's output). */
  readonly lines?: boolean;
  /** Cut after this many characters (UTF-16 units), with a note of how many more there were. */
  readonly max?: number;
  /**
   * What becomes of terminal escape sequences and other control characters: `show` them as
   * visible escapes (the default: on a terminal they are commands), or `drop` them, for a page,
   * which they do nothing to but clutter. Bidi characters are shown either way.
   */
  readonly controls?: 'show' | 'drop';
}

/**
 * `text` with every control and bidi character as `\xHH` (up to U+00FF) or `\uHHHH`, cut to
 * `max` characters. Backslashes stay as they are: the result is for reading, not for parsing.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  const { lines = false, max = MAX_VISIBLE_CHARS, controls = 'show' } = options;
  const kept =
    controls === 'drop'
      ? text.replace(TERMINAL_ESCAPE, '').replace(lines ? CONTROL_IN_LINES : CONTROL, '')
      : text;
  return bounded(kept, max).replace(lines ? UNSAFE_IN_LINES : UNSAFE, escaped);
}

/**
 * `text` without its terminal escape sequences, each whole (a window title's text too, which a
 * terminal would never show): for a reader that is not a terminal, a model.
 */
export function withoutTerminalEscapes(text: string): string {
  return text.replace(TERMINAL_ESCAPE, '');
}

/** `text` cut to `max` characters, never inside a surrogate pair, with a note of what was cut. */
export function bounded(text: string, max: number = MAX_VISIBLE_CHARS): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… [${groupedNumber(text.length - end)} more characters not shown]`;
}

/**
 * `value` as JSON, every string exact, with the characters JSON.stringify leaves raw (DEL, C1,
 * bidi, U+2028/2029) written as \uHHHH: still the same JSON value, but printing it to a terminal
 * runs nothing.
 */
export function terminalJson(value: unknown, indent?: number): string {
  // JSON.stringify already escapes C0 in strings; outside them it writes only ASCII.
  return JSON.stringify(value, null, indent).replace(
    UNSAFE_IN_JSON,
    (char) => `\\u${hex(char, 4)}`,
  );
}

function escaped(char: string): string {
  return char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`;
}

function hex(char: string, digits: number): string {
  return char.charCodeAt(0).toString(16).padStart(digits, '0');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
