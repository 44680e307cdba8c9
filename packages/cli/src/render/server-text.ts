// What a server said (names, titles, descriptions, errors, stderr), as a terminal may show it:
// every control and bidi character visible, long texts cut (visibleText), so nothing a server
// writes can clear the screen, set the title or the clipboard, or fake a line of epoch's own.
import { MAX_VISIBLE_CHARS, visibleText } from '@epoch-agent/infra';

/** A name, title or description: one line, so a line feed in it cannot start a fake line. */
export function shownLine(text: string): string {
  return visibleText(text);
}

/**
 * An error's message: it carries what the server said; epoch's own messages may span lines. A
 * server's text in it is bounded where the error is made; this bound, a few of those, is the
 * backstop for one that was not.
 */
export function shownError(message: string): string {
  return visibleText(message, { lines: true, max: 4 * MAX_VISIBLE_CHARS });
}

/** The stderr tail, its lines kept, trailing blank lines dropped; the ring already bounds it. */
export function shownStderr(tail: string): string {
  return visibleText(tail.trimEnd(), { lines: true, max: Number.POSITIVE_INFINITY });
}
