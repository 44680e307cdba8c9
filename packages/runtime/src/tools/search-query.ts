// Turning the text of a search (the model's own argument, so anything, of any size) into a short,
// bounded list of search terms: cut before any work is done on it, split into words, other
// languages' common words put in English (foreign-words.ts), each word normalised as the index's
// words are, and at most MAX_QUERY_TERMS distinct ones kept. Nothing a query holds can make the
// search's work grow past those bounds.
import { stemmer } from 'stemmer';
import { englishFor } from './foreign-words.js';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './search-limits.js';

/** A query's terms, each with how much it counts. */
export interface QueryTerms {
  readonly terms: readonly string[];
  readonly weight: ReadonlyMap<string, number>;
}

// Some words are most often values handed to the tool, not what the tool does: a text in quotes
// (a message's), a word after `#` or `@` (a channel, a person), a URL, an e-mail address, a path,
// an id or a number. They count for less, so "post 'deploy finished' in #releases" is a post more
// than a release, and "open example.com" is no example.
const VALUE_WEIGHT = 0.3;
// A name with a common file extension is a file's: `package.json`, `notes.txt`, `.eslintrc`.
const FILE_NAME =
  '[\\p{L}\\p{N}_.-]*\\.(?:json|jsonl|md|txt|csv|tsv|ya?ml|toml|ini|env|[a-z]+rc|js|ts|tsx|py|rb|go|rs|java|sql|log|html?|xml|pdf|png|jpe?g|gif|svg|docx?|xlsx?|zip|gz|tar)\\b';
const VALUE_SPAN = new RegExp(
  [
    '(["“”„«»「」『』])[^"“”„«»「」『』]{0,200}\\1?',
    "'[^']{1,200}'",
    '[#@][\\p{L}\\p{N}_.-]+',
    '\\b[a-z][a-z0-9+.-]*://\\S+',
    '[\\p{L}\\p{N}_.+-]+@[\\p{L}\\p{N}_.-]+',
    '\\b[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:com|org|net|io|dev|ai|app|co)\\b',
    '(?:^|\\s)~?\\.{0,2}/[^\\s]*',
    FILE_NAME,
    // An id or a number: ENG-412, recA1, 987654, 24h.
    '[\\p{L}\\p{N}_-]*\\d[\\p{L}\\p{N}_-]*',
  ].join('|'),
  'gu',
);

// A request about who the user is ("who am I on GitHub", "which account am I logged in as") shares
// no word with the tools that answer it (`get_me`, `whoami`, `get_current_user`): it is searched
// for those tools' words too, counting half, as the words that decide are still the request's own.
const SELF = /\b(?:who am i|whoami|(?:logged|signed) in as|my (?:own )?(?:profile|identity))\b/iu;
export const SELF_TERM = 'whoami';
const SELF_WORDS = [SELF_TERM, 'current', 'user', 'profile', 'authenticated'];
const SELF_WEIGHT = 0.5;
const EMOJI = /\p{Extended_Pictographic}/gu;

const KINDS: readonly [RegExp, string][] = [
  [/^\s*~?\.{0,2}\//u, 'file'],
  [new RegExp(`^${FILE_NAME}$`, 'iu'), 'file'],
  [/^[a-z][a-z0-9+.-]*:\/\//u, 'url'],
  [/^[\p{L}\p{N}_.+-]+@[\p{L}\p{N}_.-]+$/u, 'email'],
];

/** The kinds of `values` that name an object: "file", "url" or "email". */
function valueKinds(values: readonly string[]): string[] {
  return values.flatMap((value) => KINDS.find(([pattern]) => pattern.test(value))?.[1] ?? []);
}

/** The terms to search for in `query`, at most MAX_QUERY_TERMS of them. */
export function queryTerms(query: string): QueryTerms {
  // An emoji stands for the word "emoji": a reaction, most often.
  const text = stripClitics(query.slice(0, MAX_QUERY_CHARS)).replace(EMOJI, ' emoji ');
  const weight = new Map<string, number>();
  const add = (words: readonly string[], value: number) => {
    for (const word of words) {
      if (weight.size >= MAX_QUERY_TERMS) return;
      for (const term of termsOf(word)) {
        if (weight.size >= MAX_QUERY_TERMS) return;
        weight.set(term, Math.max(weight.get(term) ?? 0, value));
      }
    }
  };
  const values = [...text.matchAll(VALUE_SPAN)].map(([span]) => span);
  add(words(text.replace(VALUE_SPAN, ' ')), 1);
  // What a value is names what the tool works on: a path or a file name, a web address, an
  // e-mail address.
  add(valueKinds(values), 1);
  if (SELF.test(text)) add(SELF_WORDS, SELF_WEIGHT);
  add(words(values.join(' ')), VALUE_WEIGHT);
  return { terms: [...weight.keys()], weight };
}

/** A query word's search terms, normalised: itself and its English when it is a foreign word. */
// The word itself is kept beside its English: a word of the table can be an English one too.
function termsOf(word: string): string[] {
  const own = normalize(word);
  if (own === null) return [];
  const english = englishFor(word.toLowerCase()) ?? byCharacter(word);
  if (english === undefined) return [own];
  return english.length === 0 ? [] : [own, ...english.flatMap((each) => normalize(each) ?? [])];
}

/** A Chinese or Japanese word the table lacks, by those of its characters the table has. */
function byCharacter(word: string): readonly string[] | undefined {
  if (word.length < 2 || !CJK.test(word)) return undefined;
  const english = [...word].flatMap((character) => englishFor(character) ?? []);
  return english.length === 0 ? undefined : english;
}

// "it's", "don't", "we'll": the ending is no word of its own (and the one letter it leaves would
// be searched as the start of every word), and the rest is a stop word or says the same.
function stripClitics(text: string): string {
  return text.replace(/(\p{L})['’](?:s|t|re|ll|ve|m|d)(?!\p{L})/giu, '$1');
}

// Runs of Chinese and Japanese script have no spaces between words; the platform's word
// segmenter splits them.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Words of letters and digits; `readFile`, `read_file` and `read-file` are two words each. */
export function words(text: string): string[] {
  const split = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  // Most texts have no such script: one test of the whole spares one of each word.
  if (!CJK.test(text)) return split;
  return split.flatMap((word) =>
    CJK.test(word)
      ? [...segmenter.segment(word)]
          .filter(({ isWordLike }) => isWordLike === true)
          .map(({ segment }) => segment)
      : [word],
  );
}

// Words that say nothing about what a tool does; every description and many a request has them.
// "don", "isn" and the like are what stripping "'t" leaves.
const STOP_WORDS = new Set(
  (
    'a about all am an and any are as at be been being but by can could did do does doesn don ' +
    'for from had has have having he her here him his how i if in into is isn it its just ' +
    'let like me might much my need needs no not now of on once only or other our ' +
    'please re she should so some such than that the their them then there these they ' +
    'this those to too up us use using very want wants was wasn we were what when where which ' +
    'while who why will with won would you your'
  ).split(' '),
);

/**
 * A word as the index keeps it: lower case and stemmed (Porter), or null for a stop word and for
 * a lone letter (a lone Chinese or Japanese character is a word, and is kept).
 */
export function normalize(term: string): string | null {
  const known = NORMALIZED.get(term);
  if (known !== undefined) return known;
  const word = term.toLowerCase();
  const normal =
    STOP_WORDS.has(word) || (word.length < 2 && !CJK.test(word)) ? null : stemmer(word);
  if (NORMALIZED.size >= MAX_NORMALIZED) NORMALIZED.clear();
  NORMALIZED.set(term, normal);
  return normal;
}

// Building an index normalises each word of every tool several times (to find its field's word
// groups, then as the index keeps it): the stems are kept, up to a bound, since a process that
// searches often would otherwise keep every word it was ever asked.
const NORMALIZED = new Map<string, string | null>();
const MAX_NORMALIZED = 50_000;

// A request that asks a question, or to be shown something, wants a tool that reads; one that
// starts by saying what to change wants a tool that writes. English only: the search's description
// asks for English.
const READING =
  /^\s*(?:what|which|who|whom|whose|where|when|why|how|is|are|was|were|did|does|do|has|have|list|show|get|find|search|look|view|see|read|fetch|tell|display|check)\b/iu;
const WRITING =
  /^\s*(?:create|make|add|new|delete|remove|erase|drop|update|edit|change|modify|set|rename|move|send|post|write|save|upload|mark|close|archive|assign|invite|cancel|approve|merge|publish|start|stop|run|trigger|install|deploy|turn|enable|disable|put|append|insert|reply|comment|book|schedule)\b/iu;

// How a request may start before it says what it wants: "please", "can you", "I need to".
const POLITE =
  /^\s*(?:(?:please|kindly|just|(?:can|could|would|will) you|(?:i|we) (?:want|need|would like|have) to|help me|let'?s|go ahead and)[\s,]+)+/iu;

/** Whether `query` asks to read, to change something, or says neither. */
export function intentOf(query: string): 'read' | 'write' | undefined {
  const text = query.slice(0, MAX_QUERY_CHARS).replace(POLITE, '');
  // Another language's first word is read in English: "Zeig mir …" shows, "创建 …" creates.
  const [first = ''] = words(text);
  const english = (englishFor(first.toLowerCase()) ?? byCharacter(first) ?? []).join(' ');
  if (READING.test(text) || READING.test(english) || /[?？]\s*$/u.test(text)) return 'read';
  return WRITING.test(text) || WRITING.test(english) ? 'write' : undefined;
}
