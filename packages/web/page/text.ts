// Small wordings the page uses in more than one place.

/** `840 tokens`, `12.4k tokens`. */
export function formatTokens(tokens: number): string {
  return tokens < 1000 ? `${tokens} tokens` : `${(tokens / 1000).toFixed(1)}k tokens`;
}

/** `in 3 s`, or `now` once the moment has come. */
export function inSeconds(at: number, now: number): string {
  const seconds = Math.ceil((at - now) / 1000);
  return seconds <= 0 ? 'now' : `in ${seconds} s`;
}
