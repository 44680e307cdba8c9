// The small text helpers that messages across the plugin share: a duration, a sentence's end.

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * `text` ending as a sentence: a message that goes on after another one's text must not print
 * ".." when that text already ends in a full stop, nor run on when it does not.
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
