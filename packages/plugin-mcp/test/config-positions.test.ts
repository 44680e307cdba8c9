// Where the loader says each entry of `servers` and `overrides` is written, and each field's key:
// read from real files, and checked against the text found there and against the loader's own
// diagnostics, so what the runtime says after loading points where the loader would.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Position } from '@epoch-agent/infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig, type McpConfigLoad } from '../src/config/load.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-positions-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(text: string): Promise<McpConfigLoad> {
  const file = join(dir, 'mcp.json');
  await writeFile(file, text);
  return loadMcpConfig(file);
}

/** The text at a 1-based line:column, over every kind of line end. */
function textAt(text: string, { line, column }: Position, length: number): string {
  return (text.split(/\r\n|\r|\n/)[line - 1] ?? '').slice(column - 1, column - 1 + length);
}

const WITH_COMMENTS = [
  '// my servers',
  '{',
  '  /* the one I use */ "servers": {',
  '    "github": { // a comment after the key',
  '      "command": "npx",',
  '      /* before */ "args": ["-y", "gh"]',
  '    },',
  '    "remote": { "url": "https://h.example/mcp", "connectTimeout": 5 }',
  '  }',
  '}',
];

describe('positions of a loaded mcp.json', () => {
  it('each server key and field key, in a file with comments, at the quoted key', async () => {
    const text = WITH_COMMENTS.join('\n');
    const { servers, positions } = await load(text);
    expect(servers.map(({ name }) => name)).toEqual(['github', 'remote']);
    expect(positions?.servers).toEqual(
      new Map([
        [
          'github',
          {
            key: { line: 4, column: 5 },
            fields: new Map([
              ['command', { line: 5, column: 7 }],
              ['args', { line: 6, column: 20 }],
            ]),
          },
        ],
        [
          'remote',
          {
            key: { line: 8, column: 5 },
            fields: new Map([
              ['url', { line: 8, column: 17 }],
              ['connectTimeout', { line: 8, column: 49 }],
            ]),
          },
        ],
      ]),
    );
    for (const [name, { key, fields }] of positions?.servers ?? []) {
      expect(textAt(text, key, name.length + 2)).toBe(`"${name}"`);
      for (const [field, at] of fields)
        expect(textAt(text, at, field.length + 2)).toBe(`"${field}"`);
    }
    expect(positions?.overrides).toEqual(new Map());
  });

  it('CRLF and CR line ends: the same lines and columns as LF', async () => {
    const lf = (await load(WITH_COMMENTS.join('\n'))).positions;
    expect(lf).toBeDefined();
    for (const eol of ['\r\n', '\r']) {
      expect((await load(WITH_COMMENTS.join(eol))).positions).toEqual(lf);
    }
  });

  it('a byte order mark shifts no column of line 1, as in the diagnostics', async () => {
    const text = '{ "servers": { "a": { "command": "x", "tiemout": 1 } } }';
    const withBom = await load(`\uFEFF${text}`);
    expect(withBom.positions?.servers.get('a')).toEqual({
      key: { line: 1, column: 16 },
      fields: new Map([
        ['command', { line: 1, column: 23 }],
        ['tiemout', { line: 1, column: 39 }],
      ]),
    });
    expect(withBom.positions).toEqual((await load(text)).positions);
    // The unknown field's warning is at its key: the same place.
    expect(withBom.diagnostics).toMatchObject([
      { code: 'unknown_field', path: 'servers.a.tiemout', line: 1, column: 39 },
    ]);
  });

  it('camelCase and snake_case both written: each key where it is, snake_case used', async () => {
    const text = [
      '{ "servers": { "s": {',
      '  "command": "x",',
      '  "connectTimeout": 5,',
      '  "connect_timeout": 6',
      '} } }',
    ].join('\n');
    const { servers, positions, diagnostics } = await load(text);
    expect(servers[0]?.connectTimeoutMs).toBe(6_000);
    const fields = positions?.servers.get('s')?.fields;
    expect(fields?.get('connectTimeout')).toEqual({ line: 3, column: 3 });
    expect(fields?.get('connect_timeout')).toEqual({ line: 4, column: 3 });
    // The warning about the ignored spelling points at its key.
    expect(diagnostics).toMatchObject([
      { code: 'duplicate_field', path: 'servers.s.connectTimeout', line: 3, column: 3 },
    ]);
  });

  it('a key given twice: the later one, whose value loads; the warning is at the earlier', async () => {
    const text = [
      '{',
      '  "servers": { "gone": { "command": "old" } },',
      '  "servers": {',
      '    "a": { "command": "first" },',
      '    "a": { "command": "second",',
      '           "timeout": 1, "timeout": 2 }',
      '  }',
      '}',
    ].join('\n');
    const { servers, positions, diagnostics } = await load(text);
    expect(servers).toMatchObject([{ name: 'a', command: 'second', timeoutMs: 2_000 }]);
    expect(positions?.servers).toEqual(
      new Map([
        [
          'a',
          {
            key: { line: 5, column: 5 },
            fields: new Map([
              ['command', { line: 5, column: 12 }],
              ['timeout', { line: 6, column: 26 }],
            ]),
          },
        ],
      ]),
    );
    expect(
      diagnostics.map(({ code, path, line, column }) => ({ code, path, line, column })),
    ).toEqual([
      { code: 'duplicate_key', path: 'servers', line: 2, column: 3 },
      { code: 'duplicate_key', path: 'servers.a', line: 4, column: 5 },
      { code: 'duplicate_key', path: 'servers.a.timeout', line: 6, column: 12 },
    ]);
  });

  it('an override entry: its key, where the loaded override says it is, and its fields as spelled', async () => {
    const text = [
      '{',
      '  "servers": {},',
      '  "overrides": {',
      '    "weather__forecast": { "disabled": true,',
      '      "excludeTools": ["b"] }',
      '  }',
      '}',
    ].join('\n');
    const { overrides, positions } = await load(text);
    const written = positions?.overrides.get('weather__forecast');
    expect(written).toEqual({
      key: { line: 4, column: 5 },
      fields: new Map([
        ['disabled', { line: 4, column: 28 }],
        ['excludeTools', { line: 5, column: 7 }],
      ]),
    });
    expect(overrides[0]?.at).toEqual({ file: join(dir, 'mcp.json'), ...written?.key });
    expect(positions?.servers).toEqual(new Map());
  });

  it('entries that do not load are still where they are written; one that is no object has no fields', async () => {
    const text = '{ "servers": { "bad": { "command": 3, "timeout": 1 }, "odd": 7 } }';
    const { servers, positions, diagnostics } = await load(text);
    expect(servers).toEqual([]);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(positions?.servers).toEqual(
      new Map([
        [
          'bad',
          {
            key: { line: 1, column: 16 },
            fields: new Map([
              ['command', { line: 1, column: 25 }],
              ['timeout', { line: 1, column: 39 }],
            ]),
          },
        ],
        ['odd', { key: { line: 1, column: 55 }, fields: new Map() }],
      ]),
    );
  });

  it.each([
    ['no file', undefined],
    ['no entries', '{ "servers": {}, "overrides": {} }'],
    ['a syntax error', '{ "servers": { "a": { "command": "x" } }'],
    ['a top level that is not an object', '[{ "servers": { "a": { "command": "x" } } }]'],
  ])('%s: no positions, as nothing is loaded', async (_, text) => {
    const loaded =
      text === undefined ? await loadMcpConfig(join(dir, 'mcp.json')) : await load(text);
    expect(loaded.positions).toBeUndefined();
  });
});
