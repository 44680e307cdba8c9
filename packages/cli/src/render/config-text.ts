// A config file's text (a command, an argument, a path, an env key, a field's name) as a terminal
// may show it: every control and bidi character a visible escape, never cut — what a person reads
// to judge a file must be whole (the file's size bounds it). A file from a cloned repository is
// someone else's text as much as a server's is. `textOut` is the path list and get print through,
// so a value that reached their output unescaped still runs nothing.
import { visibleText } from '@epoch-agent/infra';
import type { CliIo } from '../io.js';

/** One line of a config's text, escaped and whole; escaping it twice changes nothing. */
export function shownConfig(text: string): string {
  return visibleText(text, { max: Number.POSITIVE_INFINITY });
}

/**
 * `io.out` for output that is all plain text: each line escaped as shownConfig does (a tab too),
 * the line feeds kept. Escaping is idempotent, so the cells escaped before their width was counted
 * are left as they are; this is the backstop for a value that was not.
 */
export function textOut(io: CliIo): (text: string) => void {
  return (text) => io.out(text.split('\n').map(shownConfig).join('\n'));
}
