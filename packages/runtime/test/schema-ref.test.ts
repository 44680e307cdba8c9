// Following a `$ref` inside a tool's input schema, and a tool's parameters as a person reads them:
// pointers into `$defs` and `definitions` (escapes included), anchors, chains whose nearest
// keywords win, and the refs that lead nowhere — a cycle, a missing target, another document.
import { type FollowedRef, followRefs, refProblemText, toolParameters } from '@epoch-agent/runtime';
import { refsTool } from '@epoch-agent/testkit/refs-tool';
import { describe, expect, it } from 'vitest';

type Schema = { readonly [key: string]: unknown };

/** `ref` followed from a property of `root` that holds only it. */
const follow = (root: Schema, ref: string): FollowedRef => followRefs(root, { $ref: ref });

const ROOT: Schema = {
  $id: 'https://tools.example.test/trip.json',
  type: 'object',
  $defs: {
    city: { $anchor: 'city', type: 'string', description: 'A city' },
    'a/b~c': { type: 'boolean' },
    'with space': { type: 'number' },
    nights: { $ref: '#/$defs/count', description: 'Nights away' },
    count: { type: 'integer', minimum: 1, description: 'A count' },
    self: { $ref: '#/$defs/self' },
    loop: { $ref: '#/$defs/round' },
    round: { $ref: '#/$defs/loop' },
    anything: true,
    other: {
      $id: 'https://other.example.test/x.json',
      inner: { $anchor: 'hidden', type: 'string' },
    },
    data: { const: { $anchor: 'fake', type: 'string' } },
  },
  definitions: { flag: { type: 'boolean', description: 'Old style' } },
  allOf: [{ type: 'object' }],
};

describe('followRefs', () => {
  it('a pointer into $defs and into definitions', () => {
    expect(follow(ROOT, '#/$defs/city')).toEqual({
      kind: 'schema',
      schema: { $anchor: 'city', type: 'string', description: 'A city' },
      refs: ['#/$defs/city'],
    });
    expect(follow(ROOT, '#/definitions/flag')).toMatchObject({
      kind: 'schema',
      schema: { type: 'boolean', description: 'Old style' },
    });
  });

  it('escapes in a pointer: ~1 is "/", ~0 is "~", and percent-escapes are decoded', () => {
    expect(follow(ROOT, '#/$defs/a~1b~0c')).toMatchObject({ schema: { type: 'boolean' } });
    expect(follow(ROOT, '#/$defs/with%20space')).toMatchObject({ schema: { type: 'number' } });
    expect(follow(ROOT, '#/allOf/0')).toMatchObject({ schema: { type: 'object' } });
  });

  it("an anchor, and the schema's own $id before a fragment, name places in the same schema", () => {
    expect(follow(ROOT, '#city')).toMatchObject({ schema: { type: 'string' }, refs: ['#city'] });
    expect(follow(ROOT, `${ROOT.$id}#/$defs/count`)).toMatchObject({
      schema: { type: 'integer' },
    });
    expect(follow(ROOT, '#')).toMatchObject({ schema: { type: 'object' } });
  });

  it('a chain is followed to its end; the nearest description wins', () => {
    expect(followRefs(ROOT, { $ref: '#/$defs/nights' })).toEqual({
      kind: 'schema',
      schema: { type: 'integer', minimum: 1, description: 'Nights away' },
      refs: ['#/$defs/nights', '#/$defs/count'],
    });
    expect(followRefs(ROOT, { $ref: '#/$defs/nights', description: 'Mine' })).toMatchObject({
      schema: { type: 'integer', description: 'Mine' },
    });
  });

  it('a schema without $ref is itself; a boolean schema is one too', () => {
    expect(followRefs(ROOT, { type: 'string' })).toEqual({
      kind: 'schema',
      schema: { type: 'string' },
      refs: [],
    });
    expect(follow(ROOT, '#/$defs/anything')).toMatchObject({ kind: 'schema', schema: {} });
  });

  it('a cycle stops where it closes, naming the refs that went round', () => {
    const cycle = follow(ROOT, '#/$defs/loop');
    expect(cycle).toEqual({
      kind: 'unresolved',
      code: 'cycle',
      ref: '#/$defs/loop',
      refs: ['#/$defs/loop', '#/$defs/round', '#/$defs/loop'],
    });
    if (cycle.kind !== 'unresolved') throw new Error('unreachable');
    expect(refProblemText(cycle)).toBe(
      'its $refs go round in a circle (#/$defs/loop → #/$defs/round → #/$defs/loop)',
    );
    expect(follow(ROOT, '#/$defs/self')).toMatchObject({ code: 'cycle', ref: '#/$defs/self' });
  });

  it('a missing target names the ref', () => {
    for (const ref of ['#/$defs/nowhere', '#/$defs/city/type/x', '#nowhere', '#/$defs/%E0%A4']) {
      const missing = follow(ROOT, ref);
      expect(missing).toEqual({ kind: 'unresolved', code: 'missing', ref, refs: [ref] });
      if (missing.kind !== 'unresolved') throw new Error('unreachable');
      expect(refProblemText(missing)).toBe(
        `$ref "${ref}" names nothing in the tool's input schema`,
      );
    }
  });

  it("an anchor in another resource (its own $id) or inside data is not this schema's", () => {
    expect(follow(ROOT, '#hidden')).toMatchObject({ code: 'missing' });
    expect(follow(ROOT, '#fake')).toMatchObject({ code: 'missing' });
  });

  it('a ref to another document is reported as remote, never followed', () => {
    for (const ref of ['https://schemas.example.test/airline.json', 'airline.json#/x']) {
      const remote = follow(ROOT, ref);
      expect(remote).toEqual({ kind: 'unresolved', code: 'remote', ref, refs: [ref] });
      if (remote.kind !== 'unresolved') throw new Error('unreachable');
      expect(refProblemText(remote)).toBe(
        `$ref "${ref}" is in another document, which is never fetched`,
      );
    }
  });

  it('an anchor search through a schema nested deeper, or wider, than the call stack goes', () => {
    let deep: Schema = { $anchor: 'bottom', type: 'string' };
    for (let level = 0; level < 100_000; level++) deep = { items: deep };
    expect(follow({ $defs: { deep } }, '#bottom')).toMatchObject({ schema: { type: 'string' } });
    const wide = { allOf: [...Array.from({ length: 200_000 }, () => ({})), { $anchor: 'last' }] };
    expect(follow(wide, '#last')).toMatchObject({ kind: 'schema', refs: ['#last'] });
  });
});

describe('toolParameters', () => {
  it("the refs fixture tool: each $ref parameter's type and description, and where they came from", () => {
    const url = 'https://schemas.example.test/airline.json';
    expect(toolParameters(refsTool(url).inputSchema)).toEqual([
      {
        name: 'from',
        type: 'string',
        required: true,
        description: 'A city, as the ticket names it',
        refs: ['#/$defs/city'],
      },
      {
        name: 'to',
        type: 'string',
        required: true,
        description: 'Where to',
        refs: ['#city'],
      },
      {
        name: 'nights',
        type: 'integer',
        required: false,
        description: 'Nights away',
        refs: ['#/$defs/nights', '#/$defs/count'],
      },
      {
        name: 'class',
        type: '"1" | "2"',
        required: false,
        refs: ['#/$defs/seat~1class~0'],
      },
      {
        name: 'party',
        type: 'object',
        required: false,
        description: 'Who travels',
        refs: ['#/$defs/party'],
      },
      {
        name: 'insured',
        type: 'boolean',
        required: false,
        description: 'Travel insurance',
        refs: ['#/definitions/flag'],
      },
      {
        name: 'airline',
        type: 'any',
        required: false,
        refs: [url],
        problem: `$ref "${url}" is in another document, which is never fetched`,
      },
      {
        name: 'circular',
        type: 'any',
        required: false,
        refs: ['#/$defs/loop', '#/$defs/round', '#/$defs/loop'],
        problem: 'its $refs go round in a circle (#/$defs/loop → #/$defs/round → #/$defs/loop)',
      },
      {
        name: 'lost',
        type: 'any',
        required: false,
        refs: ['#/$defs/nowhere'],
        problem: `$ref "#/$defs/nowhere" names nothing in the tool's input schema`,
      },
      { name: 'note', type: 'string', required: false },
    ]);
  });

  it('refs inside a parameter: array items and union variants', () => {
    const schema = {
      type: 'object',
      $defs: { tag: { type: 'string' }, size: { enum: ['s', 'm'] } },
      properties: {
        tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
        either: { anyOf: [{ $ref: '#/$defs/size' }, { type: 'integer' }] },
        broken: { type: 'array', items: { $ref: '#/$defs/none' } },
      },
    };
    expect(toolParameters(schema).map(({ name, type }) => [name, type])).toEqual([
      ['tags', 'string[]'],
      ['either', '"s" | "m" | integer'],
      ['broken', 'any[]'],
    ]);
  });

  it('a schema with no properties has no parameters', () => {
    expect(toolParameters({ type: 'object' })).toEqual([]);
    expect(toolParameters({ type: 'object', properties: [] })).toEqual([]);
  });
});
