// What is in flight on a connection (connection/in-flight.ts): one entry kept in a field, the rest
// in a Map, read back as one collection in the order set, whichever of them each entry is in.
import { describe, expect, it } from 'vitest';
import { InFlight } from '../src/connection/in-flight.js';

const call = (name: string) => ({ name });

describe('InFlight', () => {
  it('finds, replaces and forgets each entry by its key, the first as the later ones', () => {
    const inFlight = new InFlight<number, { name: string }>();
    const [a, b, c] = [call('a'), call('b'), call('c')];
    inFlight.set(1, a);
    inFlight.set(2, b);
    inFlight.set(3, c);
    expect([inFlight.get(1), inFlight.get(2), inFlight.get(3), inFlight.get(4)]).toEqual([
      a,
      b,
      c,
      undefined,
    ]);
    const a2 = call('a2');
    inFlight.set(1, a2);
    expect(inFlight.get(1)).toBe(a2);
    inFlight.delete(2);
    expect(inFlight.get(2)).toBeUndefined();
    expect(inFlight.values()).toEqual([a2, c]);
    inFlight.delete(1);
    expect(inFlight.get(1)).toBeUndefined();
    expect(inFlight.values()).toEqual([c]);
  });

  it('gives its values in the order they were set, across the field and the Map', () => {
    const inFlight = new InFlight<string, { name: string }>();
    for (const name of ['a', 'b']) inFlight.set(name, call(name));
    inFlight.delete('a');
    // 'b' is still in flight: 'c' comes after it, not into the emptied field before it.
    inFlight.set('c', call('c'));
    expect(inFlight.values().map(({ name }) => name)).toEqual(['b', 'c']);
    inFlight.delete('b');
    inFlight.delete('c');
    inFlight.set('d', call('d'));
    inFlight.set('e', call('e'));
    expect(inFlight.values().map(({ name }) => name)).toEqual(['d', 'e']);
    expect(inFlight.takeAll().map(({ name }) => name)).toEqual(['d', 'e']);
    expect(inFlight.values()).toEqual([]);
    expect(inFlight.get('d')).toBeUndefined();
  });
});
