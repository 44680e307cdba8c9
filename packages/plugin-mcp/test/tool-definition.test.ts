// A tool's definition, its hash and its diff: the hash ignores the order of keys at every depth and
// nothing else (any changed value, key or array order changes it), checked over random definitions,
// and the registry's check of a list against its pins agrees with it; the diff shows a changed line
// as removed then added, and a definition too large to compare line by line as all removed, then
// all added, in little time.
import { isDeepStrictEqual } from 'node:util';
import type { Tool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pinsOf, withheldTools } from '../src/registry/pins.js';
import { definitionHash, type McpToolDefinition, toolDefinition } from '../src/tools/definition.js';
import { definitionDiff } from '../src/tools/definition-diff.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// No floats: -0 and 0 are one number in JSON, and that is no change a person could see.
const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 6 }),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('json'), { maxKeys: 4 }),
  ),
}));

const schema = fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 5 });

const definition: fc.Arbitrary<McpToolDefinition> = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 8 }),
    title: fc.string({ maxLength: 8 }),
    description: fc.string({ maxLength: 20 }),
    inputSchema: schema,
    outputSchema: schema,
    annotations: schema,
  },
  { requiredKeys: ['name', 'inputSchema'] },
);

/** `value` with the keys of every object in another order, chosen by `seed`. */
function reordered(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => reordered(item, seed));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, item]) => [key, reordered(item, seed)] as const);
  const rank = (key: string) =>
    [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0) + seed) | 0, seed);
  return Object.fromEntries(entries.toSorted(([a], [b]) => rank(a) - rank(b)));
}

type Path = readonly (string | number)[];

/** Every place in `value` that holds something: each member of an object or an array. */
function places(value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const members = Array.isArray(value)
    ? value.map((item, i) => [i, item] as const)
    : Object.entries(value);
  return members.flatMap(([key, item]) => [[...at, key], ...places(item, [...at, key])]);
}

type Container = Record<string | number, unknown>;

/** A definition as a server's Tool: the same fields. */
const asTool = (definition: McpToolDefinition): Tool => definition as Tool;

/** A copy of `root` with `change` applied to the container holding `path`'s last member. */
function edited(
  root: unknown,
  path: Path,
  change: (container: Container, key: string | number) => void,
): unknown {
  const copy = structuredClone(root);
  let container = copy as Container;
  for (const key of path.slice(0, -1)) container = container[key] as Container;
  change(container, path.at(-1) as string | number);
  return copy;
}

/** As JSON says it: no prototypes, nothing JSON does not write. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('definitionHash', () => {
  it('ignores the order of keys at every depth', () => {
    fc.assert(
      fc.property(definition, fc.integer(), (def, seed) => {
        const shuffled = reordered(def, seed) as McpToolDefinition;
        expect(definitionHash(shuffled)).toBe(definitionHash(def));
        // The registry's check, which compares without hashing, agrees: nothing withheld.
        expect(withheldTools([asTool(shuffled)], pinsOf([asTool(def)]))).toEqual([]);
      }),
    );
  });

  it('changes with any changed value, any renamed key, and the order of an array', () => {
    const kinds = fc.constantFrom('value', 'key', 'order');
    fc.assert(
      fc.property(
        definition,
        fc.nat(),
        kinds,
        json,
        fc.string({ maxLength: 5 }),
        (def, n, kind, value, key) => {
          const all = places(def);
          const path = all[n % all.length] as Path;
          const changed = edited(def, path, (container, at) => {
            if (kind === 'value') container[at] = value;
            else if (
              kind === 'key' &&
              !Array.isArray(container) &&
              !Object.hasOwn(container, key)
            ) {
              const entries = Object.entries(container).map(([k, v]) => [k === at ? key : k, v]);
              for (const k of Object.keys(container)) delete container[k];
              Object.assign(container, Object.fromEntries(entries));
            } else if (kind === 'order' && Array.isArray(container) && container.length > 1) {
              container.reverse();
            }
          }) as McpToolDefinition;
          // What did not change (a value replaced by an equal one, an array that reads the same
          // backwards) is no case here; the name must stay a string to be a definition.
          fc.pre(
            !isDeepStrictEqual(asJson(changed), asJson(def)) && typeof changed.name === 'string',
          );
          expect(definitionHash(changed)).not.toBe(definitionHash(def));
          const pins = pinsOf([asTool(def)]);
          const name = changed.name === def.name ? 'changed' : 'new';
          expect(withheldTools([asTool(changed)], pins)).toMatchObject([{ reason: name }]);
        },
      ),
    );
  });

  it('is the hash of the tool as the model sees it: icons and _meta are not part of it', () => {
    const tool: Tool = { name: 'a', inputSchema: { type: 'object' } };
    const decorated: Tool = { ...tool, icons: [{ src: 'https://x.test/i.png' }], _meta: { a: 1 } };
    expect(definitionHash(toolDefinition(decorated))).toBe(definitionHash(toolDefinition(tool)));
    expect(definitionHash(toolDefinition(tool))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('definitionDiff', () => {
  const before: McpToolDefinition = {
    name: 'read',
    description: 'Reads a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  };

  it('shows a changed description as that line removed, then added, the rest the same', () => {
    const after = { ...before, description: 'Reads a file, then mails it away.' };
    expect(definitionDiff(before, after)).toEqual([
      { kind: 'same', text: '{' },
      { kind: 'removed', text: '  "description": "Reads a file.",' },
      { kind: 'added', text: '  "description": "Reads a file, then mails it away.",' },
      { kind: 'same', text: '  "inputSchema": {' },
      { kind: 'same', text: '    "properties": {' },
      { kind: 'same', text: '      "path": {' },
      { kind: 'same', text: '        "type": "string"' },
      { kind: 'same', text: '      }' },
      { kind: 'same', text: '    },' },
      { kind: 'same', text: '    "type": "object"' },
      { kind: 'same', text: '  },' },
      { kind: 'same', text: '  "name": "read"' },
      { kind: 'same', text: '}' },
    ]);
  });

  it('a new tool is all added; without its added lines a diff is the text before, without its removed ones the text after', () => {
    expect(definitionDiff(undefined, before).every(({ kind }) => kind === 'added')).toBe(true);
    fc.assert(
      fc.property(definition, definition, (a, b) => {
        const lines = definitionDiff(a, b);
        const side = (kind: 'removed' | 'added') =>
          lines.filter((line) => line.kind !== kind).map(({ text }) => text);
        expect(side('added').join('\n')).toBe(
          definitionDiff(undefined, a)
            .map(({ text }) => text)
            .join('\n'),
        );
        expect(side('removed').join('\n')).toBe(
          definitionDiff(undefined, b)
            .map(({ text }) => text)
            .join('\n'),
        );
      }),
    );
  });

  it('a definition too large to compare line by line is all removed, then all added, quickly', () => {
    const big = (word: string): McpToolDefinition => ({
      name: 'big',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 5_000 }, (_, i) => [`p${i}`, { description: `${word} ${i}` }]),
        ),
      },
    });
    // Quickly: not compared line by line (no table of some 15,000 lines by 15,000 is made), which the
    // shape of the answer shows: a comparison would have kept the lines both sides share.
    const lines = definitionDiff(big('old'), big('new'));
    const kinds = lines.map(({ kind }) => kind);
    const firstAdded = kinds.indexOf('added');
    expect(kinds.slice(firstAdded).includes('removed')).toBe(false);
    // Every description, and the two lines between one property and the next.
    expect(kinds.filter((kind) => kind === 'removed')).toHaveLength(5_000 + 2 * 4_999);
  });
});
