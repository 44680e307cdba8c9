// Small wordings the page uses in more than one place, and how it shows a server's words.
import { visibleText } from '@epoch-agent/infra/visible-text';
import type { McpServerExit } from '@epoch-agent/runtime';

/** `840 tokens`, `12.4k tokens`. */
export function formatTokens(tokens: number): string {
  return tokens < 1000 ? `${tokens} tokens` : `${(tokens / 1000).toFixed(1)}k tokens`;
}

/** `for 4 s`, `for 2 min 5 s`: how long since `since`. */
export function forSeconds(since: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  return seconds < 60
    ? `for ${seconds} s`
    : `for ${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** `in 3 s`, or `now` once the moment has come. */
export function inSeconds(at: number, now: number): string {
  const seconds = Math.ceil((at - now) / 1000);
  return seconds <= 0 ? 'now' : `in ${seconds} s`;
}

/**
 * What a server said (names, titles, descriptions, errors, stderr), as the page shows it: text
 * nodes cannot inject markup, but a bidi override still makes text read other than it is, and a
 * control character hides itself; both are shown as visible escapes, and a long text is cut.
 */
export function serverText(text: string): string {
  return visibleText(text, { lines: true });
}

/**
 * A stdio server's stderr tail, every line of it (the ring that keeps it already bounds it),
 * without its terminal escapes: a colour code or a title sequence is noise in a browser.
 */
export function stderrText(tail: string): string {
  return visibleText(tail, { lines: true, max: Number.POSITIVE_INFINITY, controls: 'drop' });
}

/** `The server exited with code 1.`, `The server was ended by SIGKILL.` */
export function exitText(exit: McpServerExit): string {
  return 'code' in exit
    ? `The server exited with code ${exit.code}.`
    : `The server was ended by ${visibleText(exit.signal)}.`;
}

/**
 * A word of what a server would run (its command, an argument, a URL, a path), as a dialog that
 * asks for consent shows it: whole, never cut, and a bidi override or control character shown as
 * an escape, so the words read as what runs.
 */
export function launchText(text: string): string {
  return visibleText(text, { max: Number.POSITIVE_INFINITY });
}
