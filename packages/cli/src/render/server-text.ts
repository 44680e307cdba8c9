// What a server said (names, titles, descriptions, errors, stderr), as a terminal may show it:
// every control and bidi character visible, long texts cut (visibleText), so nothing a server
// writes can clear the screen, set the title or the clipboard, or fake a line of epoch's own.
import { visibleText } from '@epoch-agent/infra';

/** A name, title or description: one line, so a line feed in it cannot start a fake line. */
export function shownLine(text: string): string {
  return visibleText(text);
}

/** An error's message: it carries what the server said; epoch's own messages may span lines. */
export function shownError(message: string): string {
  return visibleText(message, { lines: true });
}

/** The stderr tail, its lines kept, trailing blank lines dropped; the ring already bounds it. */
export function shownStderr(tail: string): string {
  return visibleText(tail.trimEnd(), { lines: true, max: Number.POSITIVE_INFINITY });
}
