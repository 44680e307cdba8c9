// Text someone else wrote (an MCP server, an authorization server) made safe to show a person: on
// a terminal an ESC or a C1 CSI byte is a command (clear the screen, set the window title, write
// the clipboard with OSC 52), and a bidi override makes text read other than it is. Each such
// character is shown as a visible escape instead, and a text is cut to a bound, so a 2 MB body
// cannot flood a terminal. Browser-safe (no Node imports): the connectors page uses it too.

import { groupedNumber } from './grouped-number.js';

// What JSON.stringify leaves raw: DEL, C1 controls, line/paragraph separators, bidi
// embeddings, overrides, isolates and marks.
const BEYOND_C0 = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');
// Without line feed and tab: what a block of lines (a stderr tail, a tool's text) keeps.
const UNSAFE_IN_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`, 'g');
const UNSAFE_IN_JSON = new RegExp(`[${BEYOND_C0}]`, 'g');

/** Enough for any message a person reads; a longer text is a body or a dump, not a message. */
export const MAX_VISIBLE_CHARS = 2000;

export interface VisibleTextOptions {
  /** Keep line feeds and tabs: the text is a block of lines (a stderr tail, a tool's output). */
  readonly lines?: boolean;
  /** Cut after this many characters (UTF-16 units), with a note of how many more there were. */
  readonly max?: number;
}

/**
 * `text` with every control and bidi character as `\xHH` (up to U+00FF) or `\uHHHH`, cut to
 * `max` characters. Backslashes stay as they are: the result is for reading, not for parsing.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  const { lines = false, max = MAX_VISIBLE_CHARS } = options;
  return bounded(text, max).replace(lines ? UNSAFE_IN_LINES : UNSAFE, escaped);
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
