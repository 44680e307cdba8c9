// Random damage to a valid mcp.json never makes the loader throw, and every diagnostic it gives
// still names the file, a field path and a real line:column. Values are swapped, replaced and keys
// inserted on the parsed document; then characters are deleted and inserted in its text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { type McpConfigLoad, parseMcpConfig } from '../src/config/load.js';
import { MCP_CONFIG_DIAGNOSTIC_CODES } from '../src/config/report.js';

const FILE = join(import.meta.dirname, 'fixtures', 'config', 'all-fields-snake.txt');
const BASE_TEXT = readFileSync(FILE, 'utf8');
const BASE_VALUE: unknown = parse(BASE_TEXT, [], { allowTrailingComma: true });
const SECRETS = ['SECRET-env-7f3a', 'SECRET-header-7f3a', 'Bearer'];

type Path = readonly (string | number)[];
type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container =>
  value !== null && typeof value === 'object';

/** Every path in `value`, the root included, in a stable order. */
function pathsOf(value: unknown, at: Path = []): Path[] {
  if (!isContainer(value)) return [at];
  const children = Array.isArray(value)
    ? value.map((item, i) => pathsOf(item, [...at, i]))
    : Object.entries(value).map(([key, item]) => pathsOf(item, [...at, key]));
  return [at, ...children.flat()];
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (node, segment) => (isContainer(node) ? (node as Record<string, unknown>)[segment] : undefined),
    value,
  );
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined || !isContainer(value)) return replacement;
  const copy: Container = Array.isArray(value) ? [...value] : { ...value };
  (copy as Record<string, unknown>)[head] = setAt(
    (value as Record<string, unknown>)[head],
    rest,
    replacement,
  );
  return copy;
}

type Edit =
  | { readonly kind: 'swap'; readonly a: number; readonly b: number }
  | { readonly kind: 'replace'; readonly at: number; readonly value: unknown }
  | {
      readonly kind: 'insertKey';
      readonly at: number;
      readonly key: string;
      readonly value: unknown;
    };

function applyEdit(doc: unknown, edit: Edit): unknown {
  const paths = pathsOf(doc);
  const pick = (n: number): Path => paths[n % paths.length] ?? [];
  switch (edit.kind) {
    case 'swap': {
      const a = pick(edit.a);
      const b = pick(edit.b);
      // A value cannot be swapped with one inside it.
      if (a.length === 0 || b.length === 0 || isPrefix(a, b) || isPrefix(b, a)) return doc;
      return setAt(setAt(doc, a, getAt(doc, b)), b, getAt(doc, a));
    }
    case 'replace':
      return setAt(doc, pick(edit.at), edit.value);
    case 'insertKey': {
      const objects = paths.filter((p) => {
        const node = getAt(doc, p);
        return isContainer(node) && !Array.isArray(node);
      });
      const at = objects[edit.at % objects.length] ?? [];
      return setAt(doc, at, { ...(getAt(doc, at) as object), [edit.key]: edit.value });
    }
  }
}

function isPrefix(short: Path, long: Path): boolean {
  return short.length <= long.length && short.every((segment, i) => long[i] === segment);
}

// Keys that are fields, near-fields and plain junk, so inserted keys also collide and get suggested.
const key = fc.oneof(
  fc.constantFrom(
    'transport',
    'type',
    'url',
    'command',
    'connectTimeout',
    'conect_timeout',
    'source',
    'servers',
    'headers',
    'env',
    'streamable',
  ),
  fc.string({ maxLength: 12 }),
);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    kind: fc.constant('insertKey' as const),
    at: fc.nat(),
    key,
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
);

const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '//',
      '/*',
      '\n',
      '\r',
      '0',
      '-',
      'e',
      '\\',
      'x',
    ),
  }),
);

type TextEdit =
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string };

function applyTextEdit(text: string, e: TextEdit): string {
  const at = e.at % (text.length + 1);
  return e.kind === 'delete'
    ? text.slice(0, at) + text.slice(at + e.length)
    : text.slice(0, at) + e.text + text.slice(at);
}

/** What must hold of any load, whatever the text was: the broken rules, none when all is well. */
function problems(load: McpConfigLoad, text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r\n|\r|\n/).length;
  const codes: readonly string[] = MCP_CONFIG_DIAGNOSTIC_CODES;
  for (const d of load.diagnostics) {
    const where = JSON.stringify(d);
    if (d.file !== FILE) out.push(`file: ${where}`);
    if (typeof d.path !== 'string') out.push(`path: ${where}`);
    if (!Number.isInteger(d.line) || d.line < 1 || d.line > lines) out.push(`line: ${where}`);
    if (!Number.isInteger(d.column) || d.column < 1) out.push(`column: ${where}`);
    if (d.severity !== 'error' && d.severity !== 'warning') out.push(`severity: ${where}`);
    if (!codes.includes(d.code)) out.push(`code: ${where}`);
    if (d.message.length === 0) out.push(`message: ${where}`);
  }
  if (load.servers.length > 0 && load.diagnostics.some((d) => d.code === 'syntax_error')) {
    out.push('servers loaded despite a syntax error');
  }
  for (const s of load.servers) {
    const times = [
      s.keepaliveIntervalMs,
      s.idleTimeoutMs ?? 0,
      s.maxLifetimeMs,
      s.timeoutMs,
      s.connectTimeoutMs,
    ];
    if (s.timeoutMs <= 0 || s.connectTimeoutMs <= 0) out.push(`zero timeout: ${s.name}`);
    if (!times.every((ms) => Number.isInteger(ms) && ms >= 0 && ms < 2 ** 31)) {
      out.push(`times: ${s.name}`);
    }
  }
  return out;
}

describe('random edits of a valid mcp.json', () => {
  it('the unedited file loads both servers without diagnostics', () => {
    const load = parseMcpConfig(BASE_TEXT, FILE);
    expect(load.diagnostics).toEqual([]);
    expect(load.servers).toHaveLength(2);
  });

  it('never throw, and every diagnostic has a file, a path and a line:column', () => {
    fc.assert(
      fc.property(
        fc.array(edit, { maxLength: 3 }),
        fc.array(textEdit, { maxLength: 4 }),
        fc.boolean(),
        (edits, textEdits, keepComments) => {
          // Either edit the original text (comments, trailing commas) or the edited document.
          const start =
            keepComments && edits.length === 0
              ? BASE_TEXT
              : JSON.stringify(edits.reduce(applyEdit, BASE_VALUE), null, 2);
          const text = textEdits.reduce(applyTextEdit, start);
          expect(problems(parseMcpConfig(text, FILE), text)).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('no diagnostic ever repeats an env or header value, wherever the value is moved', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const text = JSON.stringify(edits.reduce(applyEdit, BASE_VALUE), null, 2);
        const load = parseMcpConfig(text, FILE);
        const printed = JSON.stringify(load.diagnostics);
        expect(problems(load, text)).toEqual([]);
        expect(SECRETS.filter((secret) => printed.includes(secret))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
