// The redaction policy for free text: every secret value a server's config holds (secrets.ts
// says which), and each one learned later (the tokens a login stores, a key read from its file),
// blanked out wherever it occurs in text we did not write ourselves — a server's stderr, an SDK
// or HTTP error message, an authorization server's answer — before that text reaches a status, an
// error, a log line or a screen.
import { inspect } from 'node:util';
import { NeedleSearch, type Range, type Scan } from './needle-search.js';
import { REDACTED } from './redact.js';
import type { Secret, SecretKind } from './secrets.js';

/**
 * How long a value must be to be looked for in free text. Shorter ones are not: blanking every
 * "1", "warn" or "true" a server prints would shred its output and protect nothing, since a value
 * that short is no credential worth the name and turns up in ordinary text by chance. A value
 * whose field names it a credential is looked for from 6 characters; one under a neutral name
 * (LOG_LEVEL, NODE_ENV, a query parameter) from 8, because words like "verbose" or "staging" are
 * settings far more often than keys. Printers of config still hide every such value whatever its
 * length (redact, redactArgs, redactUrl): this rule is only about searching text.
 */
export const MIN_SECRET_LENGTH: Readonly<Record<SecretKind, number>> = {
  credential: 6,
  setting: 8,
};

/** One server's policy: call it on a text to get the text with every known secret blanked. */
export interface Redactor {
  (text: string): string;
  /** Secrets that became known later; looked for from now on, also by streams already open. */
  learn(secrets: Iterable<Secret>): void;
  /**
   * Secrets of the config that became known later (what a `${VAR}` or an env_file gave a start):
   * like `learn`, but never forgotten, as the secrets the policy was made with are not. However
   * many a start brings, none pushes out another (a login's tokens, a value of its own batch).
   */
  keep(secrets: Iterable<Secret>): void;
  /** For text that arrives in pieces that may split a secret (a process's stderr). */
  stream(): RedactingStream;
}

/**
 * Redacts a text that arrives in pieces. Redacting each piece alone would miss a secret split
 * across two of them, so the end of a piece that could be the start of a secret (it equals the
 * beginning of one) is held back until the next piece says whether it is; everything before it is
 * released at once, so a line is never delayed unless it really ends in what could be a secret.
 * What comes out is what redacting the whole text at once would give.
 */
export interface RedactingStream {
  /** Takes the next piece; returns the text before the part held back, redacted. */
  write(text: string): string;
  /** The text has ended: returns what was held back, redacted. */
  end(): string;
}

/**
 * How many learned secrets a policy keeps. They are tokens that replace each other (a refresh
 * every hour, for weeks in a long-running host): the newest are kept, so that the policy neither
 * grows nor slows without end; one long expired is forgotten. Config secrets are always kept.
 */
export const MAX_LEARNED_SECRETS = 64;

export function secretRedactor(secrets: Iterable<Secret> = []): Redactor {
  const needles = new Needles(secrets);
  return Object.assign((text: string) => new Stream(needles).end(text), {
    learn: (more: Iterable<Secret>) => needles.learn(more),
    keep: (more: Iterable<Secret>) => needles.keep(more),
    stream: (): RedactingStream => new Stream(needles),
  });
}

/** Every string the policy looks for. */
class Needles {
  readonly #config: Set<string>;
  /** By the secret's value, oldest first: learning one again makes it the newest. */
  readonly #learned = new Map<string, readonly string[]>();
  #search: NeedleSearch;

  constructor(secrets: Iterable<Secret>) {
    this.#config = new Set(needlesOfAll(secrets));
    this.#search = new NeedleSearch(this.#config);
  }

  keep(secrets: Iterable<Secret>): void {
    for (const needle of needlesOfAll(secrets)) this.#config.add(needle);
    this.learn([]);
  }

  learn(secrets: Iterable<Secret>): void {
    for (const secret of secrets) {
      this.#learned.delete(secret.value);
      this.#learned.set(secret.value, needlesOf(secret));
    }
    for (const value of this.#learned.keys()) {
      if (this.#learned.size <= MAX_LEARNED_SECRETS) break;
      this.#learned.delete(value);
    }
    const all = new Set(this.#config);
    for (const needles of this.#learned.values()) for (const needle of needles) all.add(needle);
    this.#search = new NeedleSearch(all);
  }

  /**
   * Where they occur in `text` (sorted, overlapping or touching occurrences joined), the first
   * `carry` characters counted as one; and where the end of `text` that may begin one starts.
   */
  scan(text: string, carry: number): Scan {
    return this.#search.scan(text, carry);
  }
}

/**
 * What a secret is found by: the value as given; each of its lines, trimmed, for a value printed
 * line by line (a PEM key); each as it looks inside JSON (a server that logs
 * `JSON.stringify(process.env)`), inside a URL, and as Node's own messages quote a value
 * (`Received 'abc\x00def'`: util.inspect escapes control characters its own way).
 */
function needlesOf({ value, kind }: Secret): string[] {
  const pieces = new Set([value, ...value.split(/\r?\n/).map((line) => line.trim())]);
  const needles = [...pieces]
    .filter((piece) => piece.length >= MIN_SECRET_LENGTH[kind])
    .flatMap((piece) => [
      piece,
      JSON.stringify(piece).slice(1, -1),
      uriEncoded(piece),
      inspect(piece).slice(1, -1),
    ])
    .filter((needle): needle is string => needle !== undefined);
  return [...new Set(needles)];
}

/** Of many secrets: added one by one (80,000 of an env_file are more than a call takes arguments). */
function needlesOfAll(secrets: Iterable<Secret>): string[] {
  const out: string[] = [];
  for (const secret of secrets) for (const needle of needlesOf(secret)) out.push(needle);
  return out;
}

function uriEncoded(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined; // a lone surrogate: no URL can hold it
  }
}

class Stream implements RedactingStream {
  readonly #needles: Needles;
  /** Raw text that may be the start of a secret the next piece completes. */
  #held = '';
  /** How much of #held is the rest of a secret whose start was already blanked. */
  #carry = 0;
  /** The text released last ends in `<redacted>`: a secret that goes on from there adds none. */
  #afterMarker = false;

  constructor(needles: Needles) {
    this.#needles = needles;
  }

  write(text: string): string {
    const all = this.#held + text;
    const scan = this.#needles.scan(all, this.#carry);
    return this.#release(all, scan.partialStart, scan.ranges);
  }

  end(text = ''): string {
    const all = this.#held + text;
    const out = this.#release(all, all.length, this.#needles.scan(all, this.#carry).ranges);
    this.#afterMarker = false;
    return out;
  }

  /** Releases `text` up to `cut`, redacted (the secrets are at `ranges`), and holds the rest back. */
  #release(text: string, cut: number, ranges: readonly Range[]): string {
    if (cut === 0) {
      this.#held = text;
      return '';
    }
    let out = '';
    let at = 0;
    let lastEnd = -1;
    for (const [start, end] of ranges) {
      if (start >= cut) break;
      // A secret that continues one blanked at the end of the last release, or that touches
      // it, is part of the same `<redacted>`, as it would be in the text redacted at once.
      const continues = start === 0 && this.#afterMarker;
      out += text.slice(at, start) + (continues ? '' : REDACTED);
      at = Math.min(end, cut);
      lastEnd = end;
    }
    out += text.slice(at, cut);
    // A secret that completed in this text but reaches into the part held back (another one
    // may start inside it) is blanked up to the cut now and for the rest next time.
    this.#carry = Math.max(0, lastEnd - cut);
    this.#afterMarker = lastEnd >= cut;
    this.#held = text.slice(cut);
    return out;
  }
}
