// Misspelt request words put right by the words the tools themselves use: a request's word that
// no tool has ("shcedule", "eamil", "chanel") but that is one letter's slip (a letter left out,
// added, changed or two swapped) from a word some tool has is searched for as that word too. The
// index's own near-spelling match counts for little, so that it never outranks a word as written;
// a word no tool has cannot outrank anything, and the word it stands for can count nearly whole.

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every word one slip away from `word` (lower-case Latin letters; others are kept as they are). */
function slips(word: string): string[] {
  const found: string[] = [];
  for (let at = 0; at <= word.length; at += 1) {
    const before = word.slice(0, at);
    const after = word.slice(at);
    if (after.length > 0) found.push(before + after.slice(1));
    if (after.length > 1) found.push(before + after.charAt(1) + after.charAt(0) + after.slice(2));
    for (const letter of LETTERS) {
      found.push(before + letter + after);
      if (after.length > 0) found.push(before + letter + after.slice(1));
    }
  }
  return found;
}

/**
 * The known words one slip from `term` when `term` itself is not known and is long enough to be
 * told apart from its neighbours, at most `max` of them (more would say the slip is a guess).
 */
export function correctionsOf(
  term: string,
  known: ReadonlySet<string>,
  options: { readonly minLength: number; readonly max: number },
): string[] {
  if (term.length < options.minLength || known.has(term) || !/^[a-z]+$/u.test(term)) return [];
  const found = [...new Set(slips(term).filter((each) => known.has(each)))];
  return found.length > options.max ? [] : found;
}
