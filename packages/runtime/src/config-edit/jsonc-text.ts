// Reading the layout of JSONC text around a point: lines, indentation, line endings, and the
// comments and whitespace between tokens. Positions are UTF-16 offsets into the text, as
// jsonc-parser gives them. Between two tokens there is only whitespace (space, tab, CR, LF — the
// only whitespace JSONC allows) and comments, so these helpers never look inside strings (but
// commentWithin, which spans tokens and reads them as jsonc-parser does).
import { visit } from 'jsonc-parser';

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t';
const isBreak = (ch: string | undefined) => ch === '\n' || ch === '\r';

/** The offset where the line holding `offset` starts. */
export function lineStart(text: string, offset: number): number {
  let at = offset;
  while (at > 0 && !isBreak(text[at - 1])) at--;
  return at;
}

/** The spaces and tabs that open the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  let end = start;
  while (end < offset && isSpace(text[end])) end++;
  return text.slice(start, end);
}

/** Whether only spaces and tabs come before `offset` on its line. */
export function startsLine(text: string, offset: number): boolean {
  return lineIndent(text, offset).length === offset - lineStart(text, offset);
}

/** The line break that ends just before `offset` ('' when `offset` does not follow one). */
export function breakBefore(text: string, offset: number): string {
  if (text[offset - 1] === '\n') return text[offset - 2] === '\r' ? '\r\n' : '\n';
  return text[offset - 1] === '\r' ? '\r' : '';
}

/** The line break that starts at `offset` ('' when none does). */
export function breakAt(text: string, offset: number): string {
  if (text[offset] === '\r') return text[offset + 1] === '\n' ? '\r\n' : '\r';
  return text[offset] === '\n' ? '\n' : '';
}

/** The file's line ending: CRLF when most of its line breaks are CRLF, else LF (also for one line). */
export function detectEol(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

export function hasBreak(text: string, from: number, to: number): boolean {
  return /[\r\n]/.test(text.slice(from, to));
}

/** Comments only start with `/` and nothing else between tokens may contain one. */
export function hasComment(text: string, from: number, to: number): boolean {
  return text.slice(from, to).includes('/');
}

/** Whether text[from, to), a run of whole tokens such as a value, holds a comment anywhere. */
export function commentWithin(text: string, from: number, to: number): boolean {
  let found = false;
  visit(text.slice(from, to), {
    onComment: () => {
      found = true;
    },
  });
  return found;
}

interface Trivia {
  readonly kind: 'space' | 'break' | 'line-comment' | 'block-comment';
  readonly end: number;
}

/** The whitespace run or comment starting at `offset`, or undefined when a token starts there. */
function triviaAt(text: string, offset: number): Trivia | undefined {
  const ch = text[offset];
  if (isSpace(ch)) {
    let end = offset + 1;
    while (isSpace(text[end])) end++;
    return { kind: 'space', end };
  }
  if (isBreak(ch)) return { kind: 'break', end: offset + breakAt(text, offset).length };
  if (ch === '/' && text[offset + 1] === '/') {
    let end = offset + 2;
    while (end < text.length && !isBreak(text[end])) end++;
    return { kind: 'line-comment', end };
  }
  if (ch === '/' && text[offset + 1] === '*') {
    const close = text.indexOf('*/', offset + 2);
    return { kind: 'block-comment', end: close === -1 ? text.length : close + 2 };
  }
  return undefined;
}

/** The offset of the first token at or after `offset` (text.length at the end). */
export function nextToken(text: string, offset: number): number {
  let at = offset;
  for (let trivia = triviaAt(text, at); trivia !== undefined; trivia = triviaAt(text, at)) {
    at = trivia.end;
  }
  return at;
}

/**
 * Where the rest of the line after `offset` ends, when that rest is only spaces and comments: the
 * line break's offset. When a token follows on the same line, or a block comment runs on to another
 * line, the end of the last comment instead (or `offset` itself). Something inserted here stays
 * after the comments a person wrote at the end of a line, so they keep describing what they did.
 */
export function lineTail(text: string, offset: number): number {
  let end = offset;
  let at = offset;
  for (let trivia = triviaAt(text, at); trivia !== undefined; trivia = triviaAt(text, at)) {
    switch (trivia.kind) {
      case 'break':
        return at;
      case 'line-comment':
        end = trivia.end;
        break;
      case 'block-comment':
        end = trivia.end;
        if (hasBreak(text, at, trivia.end)) return end;
        break;
      case 'space':
        break;
    }
    at = trivia.end;
  }
  return end;
}

/**
 * The start of the comment block directly above the token at `offset`: the whole lines right
 * before its line that hold only comments (line or block, a block may span lines), none of them
 * blank, back to the first such line. Undefined when there is none, or when the token does not
 * start its line. `gapStart` is where the whitespace and comments before the token begin (after
 * the token before it): a comment on that token's line is that token's, never this one's.
 */
export function commentBlockAbove(
  text: string,
  gapStart: number,
  offset: number,
): number | undefined {
  if (!startsLine(text, offset)) return undefined;
  // The gap as lines, split at the line breaks between comments (a block comment's own breaks
  // are inside it): for each line, where it starts and whether it holds a comment.
  const lines: { start: number; comment: boolean }[] = [{ start: gapStart, comment: false }];
  let at = gapStart;
  for (
    let trivia = triviaAt(text, at);
    trivia !== undefined && at < offset;
    trivia = triviaAt(text, at)
  ) {
    const line = lines[lines.length - 1] as { start: number; comment: boolean };
    if (trivia.kind === 'break') lines.push({ start: trivia.end, comment: false });
    else if (trivia.kind !== 'space') line.comment = true;
    at = trivia.end;
  }
  // The last line is the token's own; the first starts on the line of the token before.
  let start: number | undefined;
  for (let i = lines.length - 2; i >= 1; i--) {
    const line = lines[i] as { start: number; comment: boolean };
    if (!line.comment) break;
    start = line.start;
  }
  return start;
}
