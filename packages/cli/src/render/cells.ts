// How wide a text is on a terminal, in cells: a CJK character or a wide emoji takes two, a
// combining mark or a zero-width character none. Columns padded by string length break as soon as
// a server's name or description holds one of those, so every table and cut counts cells.
import { eastAsianWidth } from 'get-east-asian-width';

// Drawn on the cell before them (combining marks, variation selectors) or not at all (format
// characters such as the zero-width joiner).
const NO_CELL = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

function charCells(char: string): number {
  if (NO_CELL.test(char)) return 0;
  return eastAsianWidth(char.codePointAt(0) ?? 0);
}

/** The cells `text` takes on one terminal line. */
export function cellWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charCells(char);
  return width;
}

/** `text` followed by spaces up to `width` cells. */
export function padCells(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - cellWidth(text)));
}

/** `text` in at most `room` cells, ending in an ellipsis when something was cut. */
export function cutCells(text: string, room: number): string {
  if (cellWidth(text) <= room) return text;
  if (room <= 1) return '';
  let kept = '';
  let width = 0;
  for (const char of text) {
    const cells = charCells(char);
    if (width + cells > room - 1) break;
    kept += char;
    width += cells;
  }
  return `${kept}…`;
}

// Narrower terminals still get 60 cells: a line wrapped by the terminal beats a cut to nothing.
const MIN_ROOM = 60;

/**
 * The cells a line of `out` may take before it is cut: a terminal's width (`columns`), or no limit
 * on a pipe or file, whose reader (grep, a script, a pager) wants every description whole.
 */
export function lineRoom(columns: number | undefined): number {
  return columns === undefined ? Number.POSITIVE_INFINITY : Math.max(MIN_ROOM, columns);
}

// A column narrower than this is no place for a value: the terminal wraps the line instead.
const MIN_WRAP = 20;

/**
 * `text` as lines of at most `room` cells, broken at spaces (a word wider than the room is broken
 * where it reaches the edge); one line when it fits, or when the room is too narrow to be worth it.
 */
export function wrapCells(text: string, room: number): string[] {
  if (cellWidth(text) <= room || room < MIN_WRAP) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (cellWidth(joined) <= room) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (cellWidth(line) > room) {
      const [head, tail] = splitAtCells(line, room);
      lines.push(head);
      line = tail;
    }
  }
  lines.push(line);
  return lines;
}

/** The first `room` cells of `text`, and the rest. */
function splitAtCells(text: string, room: number): [string, string] {
  let width = 0;
  let at = 0;
  for (const char of text) {
    width += charCells(char);
    if (width > room) break;
    at += char.length;
  }
  return [text.slice(0, at), text.slice(at)];
}
