// "Did you mean …?" for an unknown key: the known spelling most likely meant, or none.
//
// Keys are compared without case, `_` or `-`, so `conect_timeout`, `conectTimeout` and
// `Conect-Timeout` all find connect_timeout; among the spellings of that field the one closest to
// what was typed is offered (snake_case for snake_case, camelCase for camelCase).

export function suggest(key: string, candidates: readonly string[]): string | undefined {
  const typed = fold(key);
  if (typed.length === 0) return undefined;
  const limit = typed.length < 4 ? 1 : typed.length < 8 ? 2 : 3;
  return (
    closest(
      key,
      candidates,
      // Lengths further apart than the limit are further apart than it: no table to fill.
      (folded) =>
        Math.abs(typed.length - folded.length) <= limit && editDistance(typed, folded) <= limit,
      (folded) => -editDistance(typed, folded),
    ) ??
    // A unit or word too many or too few: `idle_timeout` for idle_timeout_seconds, `timeout_ms` for
    // timeout, `environment` for env. A shared start says more than a shared end, so it goes first.
    closest(
      key,
      candidates,
      (folded) => overlaps(typed, folded, 'start'),
      (folded) => Math.min(folded.length, typed.length),
    ) ??
    closest(
      key,
      candidates,
      (folded) => overlaps(typed, folded, 'end'),
      (folded) => Math.min(folded.length, typed.length),
    )
  );
}

/**
 * The eligible candidate with the highest score. Ties go to the spelling in the style typed (a key
 * with a capital letter is camelCase, any other snake_case), then to the one closest as typed.
 */
function closest(
  key: string,
  candidates: readonly string[],
  eligible: (folded: string) => boolean,
  score: (folded: string) => number,
): string | undefined {
  const camelTyped = hasCapital(key);
  let best: readonly [string, number, number, number] | undefined;
  for (const candidate of candidates) {
    const folded = fold(candidate);
    if (!eligible(folded)) continue;
    const styleMiss = hasCapital(candidate) === camelTyped ? 0 : 1;
    const entry = [candidate, -score(folded), styleMiss, editDistance(key, candidate)] as const;
    if (best === undefined || isBefore(entry, best)) best = entry;
  }
  return best?.[0];
}

function isBefore(
  [, ...a]: readonly [string, number, number, number],
  [, ...b]: readonly [string, number, number, number],
): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

function hasCapital(key: string): boolean {
  return key !== key.toLowerCase();
}

function overlaps(a: string, b: string, side: 'start' | 'end'): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 3 || short === long) return false;
  return side === 'start' ? long.startsWith(short) : long.endsWith(short);
}

function fold(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      current.push(d);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
