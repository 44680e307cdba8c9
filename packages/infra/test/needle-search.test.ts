// The many-string search under the redactor, against the plainest search there is (indexOf of each
// needle, every occurrence, sorted and joined) on random needles and texts over a small alphabet,
// where overlaps, needles inside needles and needles that are each other's ends are common.
import { describe, expect, it } from 'vitest';
import { NeedleSearch, type Range } from '../src/needle-search.js';

describe('NeedleSearch', () => {
  it('finds what indexOf of each needle finds, and the end that may begin one (property)', () => {
    const random = seeded(45);
    for (let round = 0; round < 2_000; round++) {
      const alphabet = 'ab\u00e9\ud83d'.slice(0, 2 + (round % 3));
      const word = (max: number) =>
        Array.from({ length: 1 + Math.floor(random() * max) }, () =>
          alphabet.charAt(Math.floor(random() * alphabet.length)),
        ).join('');
      const needles = Array.from({ length: 1 + Math.floor(random() * 8) }, () => word(5));
      const text = random() < 0.1 ? '' : word(40);
      const carry = Math.min(text.length, random() < 0.3 ? Math.floor(random() * 4) : 0);
      const scan = new NeedleSearch(needles).scan(text, carry);
      expect({ needles, text, carry, ...scan }).toEqual({
        needles,
        text,
        carry,
        ranges: plainRanges(needles, text, carry),
        partialStart: plainPartialStart(needles, text),
      });
    }
  });

  it('takes hundreds of thousands of needles, and none at all', () => {
    const needles = Array.from({ length: 300_000 }, (_, i) => `needle-${i}-end`);
    const search = new NeedleSearch(needles);
    expect(search.scan('x needle-299999-end y needle-7-en').ranges).toEqual([[2, 19]]);
    expect(search.scan('x needle-299999-end y needle-7-en').partialStart).toBe(22);
    expect(new NeedleSearch([]).scan('anything')).toEqual({ ranges: [], partialStart: 8 });
    expect(new NeedleSearch(['']).scan('anything')).toEqual({ ranges: [], partialStart: 8 });
  });
});

function plainRanges(needles: readonly string[], text: string, carry: number): Range[] {
  const found: [number, number][] = carry > 0 ? [[0, carry]] : [];
  for (const needle of needles) {
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      found.push([i, i + needle.length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [start, end] of found) {
    const last = joined.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  return joined;
}

function plainPartialStart(needles: readonly string[], text: string): number {
  for (let i = 0; i < text.length; i++) {
    const rest = text.slice(i);
    if (needles.some((needle) => needle.length > rest.length && needle.startsWith(rest))) return i;
  }
  return text.length;
}

/** A small deterministic generator (mulberry32), so a failure is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
