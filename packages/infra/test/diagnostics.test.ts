// parseLenient with real zod 4 schemas: every issue becomes its own error diagnostic at its own
// field (file, `a.b[1].c` path, the position `locate` gives for that path, zod's code), and a valid
// value comes back parsed. Plus the two formatters people read.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Diagnostic,
  formatDiagnostic,
  formatPath,
  type PathSegment,
  type Position,
  parseLenient,
  type Site,
} from '../src/index.js';

const FILE = '/home/u/.epoch/mcp.json';

/** A Site whose locate encodes the path it was asked about, and remembers every question. */
function site(path: readonly PathSegment[] = []): Site & { asked: PathSegment[][] } {
  const asked: PathSegment[][] = [];
  return {
    file: FILE,
    path,
    asked,
    locate(at): Position {
      asked.push([...at]);
      return { line: at.length + 1, column: formatPath(at).length + 1 };
    },
  };
}

const server = z.strictObject({
  command: z.string(),
  args: z.array(z.string()).default([]),
  timeout: z.number().int().positive().optional(),
  env: z.record(z.string(), z.string()).optional(),
});

describe('parseLenient', () => {
  it('returns the parsed value (defaults and transforms applied) and no diagnostics', () => {
    const where = site(['servers', 'fs']);
    const result = parseLenient(server, { command: 'npx' }, where);
    expect(result).toEqual({ ok: true, value: { command: 'npx', args: [] }, diagnostics: [] });
    expect(where.asked).toEqual([]);

    const trimmed = parseLenient(
      z.string().transform((s) => s.trim()),
      '  x ',
      site(),
    );
    expect(trimmed.ok && trimmed.value).toBe('x');
  });

  it('turns every issue into an error diagnostic at its own field, not only the first', () => {
    const where = site(['servers', 'fs']);
    const result = parseLenient(
      server,
      { command: 7, args: ['ok', 3], timeout: -1, env: { A: 'x', B: false } },
      where,
    );
    expect(result.ok).toBe(false);
    const byPath = new Map(result.diagnostics.map((d) => [d.path, d]));
    expect([...byPath.keys()].sort()).toEqual([
      'servers.fs.args[1]',
      'servers.fs.command',
      'servers.fs.env.B',
      'servers.fs.timeout',
    ]);
    for (const d of result.diagnostics) {
      expect(d.severity).toBe('error');
      expect(d.file).toBe(FILE);
      expect(d.message).not.toBe('');
    }
    expect(byPath.get('servers.fs.command')?.code).toBe('invalid_type');
    expect(byPath.get('servers.fs.timeout')?.code).toBe('too_small');
    // The position is the one locate gave for the diagnostic's full path (site prefix included).
    expect(byPath.get('servers.fs.args[1]')).toMatchObject({
      line: 5,
      column: 'servers.fs.args[1]'.length + 1,
    });
    expect(where.asked).toContainEqual(['servers', 'fs', 'args', 1]);
    expect(where.asked).toContainEqual(['servers', 'fs', 'env', 'B']);
  });

  it('keeps the zod code of each kind of issue', () => {
    const schema = z.strictObject({
      kind: z.enum(['stdio', 'http']),
      url: z.url().optional(),
      nested: z.object({ deep: z.array(z.object({ n: z.number().max(3) })) }).optional(),
    });
    const result = parseLenient(
      schema,
      { kind: 'ftp', url: 'not a url', nested: { deep: [{ n: 1 }, { n: 9 }] }, extra: true },
      site(),
    );
    const codes = Object.fromEntries(result.diagnostics.map((d) => [d.path, d.code]));
    expect(codes).toEqual({
      kind: 'invalid_value',
      url: 'invalid_format',
      'nested.deep[1].n': 'too_big',
      // Unknown keys are reported on the object that has them; the message names the key.
      '': 'unrecognized_keys',
    });
    const unknown = result.diagnostics.find((d) => d.code === 'unrecognized_keys');
    expect(unknown?.message).toContain('extra');
    expect(unknown).toMatchObject({ line: 1, column: 1 });
  });

  it('reports a value of the wrong shape at the site itself', () => {
    const result = parseLenient(server, 'not an object', site(['servers', 'x']));
    expect(result).toEqual({
      ok: false,
      diagnostics: [
        expect.objectContaining({
          severity: 'error',
          code: 'invalid_type',
          file: FILE,
          path: 'servers.x',
          line: 3,
        }),
      ],
    });
  });
});

describe('formatPath', () => {
  it('joins names with dots and puts indexes in brackets', () => {
    expect(formatPath(['a', 'b', 1, 'c'])).toBe('a.b[1].c');
    expect(formatPath(['servers', 'fs', 'args', 0])).toBe('servers.fs.args[0]');
    expect(formatPath(['m', 0, 1])).toBe('m[0][1]');
    expect(formatPath([2, 'x'])).toBe('[2].x');
    expect(formatPath(['only'])).toBe('only');
    expect(formatPath([])).toBe('');
  });

  it('quotes a key that is not a plain word, so a dotted server name stays one segment', () => {
    expect(formatPath(['servers', 'my.server', 'url'])).toBe('servers["my.server"].url');
    expect(formatPath(['servers', 'a b', 'env', 'X'])).toBe('servers["a b"].env.X');
  });
});

describe('formatDiagnostic', () => {
  const base: Diagnostic = {
    severity: 'warning',
    code: 'unknown_field',
    file: FILE,
    path: 'servers.fs.conect_timeout',
    line: 4,
    column: 7,
    message: 'unknown field; did you mean "connect_timeout"?',
  };

  it('prints file:line:column: severity: path: message, the shape editors link', () => {
    expect(formatDiagnostic(base)).toBe(
      `${FILE}:4:7: warning: servers.fs.conect_timeout: unknown field; did you mean "connect_timeout"?`,
    );
  });

  it('leaves the path out when the problem is with the whole file', () => {
    expect(
      formatDiagnostic({ ...base, severity: 'error', path: '', message: 'not valid JSON' }),
    ).toBe(`${FILE}:4:7: error: not valid JSON`);
  });
});
