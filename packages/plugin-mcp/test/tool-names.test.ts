import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignToolNames, MIN_TOOL_NAME_LENGTH, prefixedName } from '../src/tools/names.js';

const PROVIDER_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;
// The built package's public entry, not a module inside it: a module that moves (tool-names.js
// became tools/names.js) would leave a stale copy in dist/ for this to load, or none on a clone.
const distToolNames = new URL('../dist/index.js', import.meta.url).href;

// Any code points, lone surrogates included: a server may send anything in a tool name.
const anyText = fc.string({ unit: 'binary', maxLength: 300 });

describe('prefixedName', () => {
  it('leaves a short valid name as it is', () => {
    expect(prefixedName('gh', 'search_issues')).toBe('mcp__gh__search_issues');
    expect(prefixedName('gh', 'search-issues', { maxLength: 64 })).toBe('mcp__gh__search-issues');
  });

  it.each([128, 64])('always matches the provider pattern within %i characters', (maxLength) => {
    fc.assert(
      fc.property(anyText, anyText, (server, tool) => {
        const name = prefixedName(server, tool, { maxLength });
        expect(name).toMatch(PROVIDER_PATTERN);
        expect(name.length).toBeLessThanOrEqual(maxLength);
        expect(name.startsWith('mcp__')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('replaces each character outside [a-zA-Z0-9_-] with one underscore', () => {
    expect(prefixedName('my server', 'tools:search.v2')).toBe('mcp__my_server__tools_search_v2');
    expect(prefixedName('gh', '检索😀')).toBe('mcp__gh_____');
  });

  it('keeps two long names that share their first 128 characters apart', () => {
    const stem = 'x'.repeat(200);
    const first = prefixedName('server', `${stem}_one`);
    const second = prefixedName('server', `${stem}_two`);
    expect(first).toHaveLength(128);
    expect(second).toHaveLength(128);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
  });

  it('keeps distinct long identities distinct at both limits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 130 }),
        fc.string({ unit: 'binary', minLength: 130 }),
        fc.constantFrom(128, 64),
        (a, b, maxLength) => {
          fc.pre(a !== b);
          expect(prefixedName('s', a, { maxLength })).not.toBe(prefixedName('s', b, { maxLength }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hashes the raw identity, so names that sanitize alike still differ once cut', () => {
    const long = 'y'.repeat(150);
    const dotted = prefixedName('srv', `a.${long}`);
    const underscored = prefixedName('srv', `a_${long}`);
    expect(dotted.slice(0, -9)).toBe(underscored.slice(0, -9));
    expect(dotted).not.toBe(underscored);
  });

  it('gives the same names in a fresh node process', () => {
    const inputs: [string, string][] = [
      ['gh', 'search_issues'],
      ['my server', 'tools:search.v2'],
      ['srv', 'z'.repeat(300)],
      ['检索', `😀${'q'.repeat(140)}`],
    ];
    const script = `
      import { prefixedName } from ${JSON.stringify(distToolNames)};
      const inputs = JSON.parse(process.argv[1]);
      process.stdout.write(JSON.stringify(inputs.flatMap(([s, t]) =>
        [prefixedName(s, t), prefixedName(s, t, { maxLength: 64 })])));
    `;
    const child = JSON.parse(
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', script, JSON.stringify(inputs)],
        {
          encoding: 'utf8',
        },
      ),
    );
    const here = inputs.flatMap(([s, t]) => [
      prefixedName(s, t),
      prefixedName(s, t, { maxLength: 64 }),
    ]);
    expect(child).toEqual(here);
  });

  it.each([0, 14, 129, 64.5, Number.NaN])('rejects maxLength %s', (maxLength) => {
    expect(() => prefixedName('gh', 'x', { maxLength })).toThrow(RangeError);
  });

  it('accepts the smallest maxLength that leaves room for the hash', () => {
    const name = prefixedName('server', 'tool', { maxLength: MIN_TOOL_NAME_LENGTH });
    expect(name).toHaveLength(MIN_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^mcp__s_[0-9a-f]{8}$/);
  });
});

describe('assignToolNames', () => {
  it('suffixes every tool of a server whose names sanitize alike, whatever the order', () => {
    const forward = assignToolNames({ server: 'srv', tools: ['a.b', 'a_b', 'c'], reserved: [] });
    const backward = assignToolNames({ server: 'srv', tools: ['c', 'a_b', 'a.b'], reserved: [] });
    expect(forward[2]).toBe('mcp__srv__c');
    expect(forward[0]).toMatch(/^mcp__srv__a_b_[0-9a-f]{8}$/);
    expect(forward[1]).toMatch(/^mcp__srv__a_b_[0-9a-f]{8}$/);
    expect(forward[0]).not.toBe(forward[1]);
    expect(backward).toEqual([forward[2], forward[1], forward[0]]);
  });

  it('renames a server tool that takes a reserved name, never the reserved one', () => {
    const [name] = assignToolNames({
      server: 'srv',
      tools: ['list_resources'],
      reserved: ['mcp__srv__list_resources'],
    });
    expect(name).toMatch(/^mcp__srv__list_resources_[0-9a-f]{8}$/);
  });

  it('keeps suffixed names within the limit', () => {
    const tools = [`${'t'.repeat(70)}.x`, `${'t'.repeat(70)}_x`];
    const names = assignToolNames({
      server: 'srv',
      tools,
      reserved: [],
      nameOptions: { maxLength: 64 },
    });
    for (const name of names) {
      expect(name).toMatch(PROVIDER_PATTERN);
      expect(name.length).toBeLessThanOrEqual(64);
    }
    expect(names[0]).not.toBe(names[1]);
  });
});
