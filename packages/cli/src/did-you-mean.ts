// "Did you mean …?" for a name typed wrong — a command, a server, a tool — the way the config
// loader guesses a field's name: without case, "_" or "-", then by edit distance.
import { suggest } from '@epoch-agent/runtime/config';

/** The known name closest to what was typed, if one is close enough (never the same). */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  const guess = suggest(typed, known);
  return guess === typed ? undefined : guess;
}

/** ` Did you mean "list"?`, or nothing when no known name is close. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const guess = nearest(typed, known);
  return guess === undefined ? '' : ` Did you mean "${guess}"?`;
}
