// Counts as people read them, without the ICU data toLocaleString loads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupedNumber } from '../src/grouped-number.js';

describe('groupedNumber', () => {
  it('groups digits by three, as en-US does', () => {
    expect(groupedNumber(0)).toBe('0');
    expect(groupedNumber(999)).toBe('999');
    expect(groupedNumber(1000)).toBe('1,000');
    expect(groupedNumber(25_000)).toBe('25,000');
    expect(groupedNumber(1_234_567)).toBe('1,234,567');
  });

  it('reads like toLocaleString("en-US") for every safe whole number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        (n) => {
          expect(groupedNumber(n)).toBe(n.toLocaleString('en-US'));
        },
      ),
    );
  });
});
