// The "add server" form's command line, split as a POSIX shell splits words: what a person pastes
// from a README becomes the command and arguments epoch starts without a shell.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../page/split-command.js';

function words(line: string) {
  const split = splitCommandLine(line);
  if (!split.ok) throw new Error(`${line}: ${split.message} at ${split.at}`);
  return split;
}

describe('splitCommandLine', () => {
  it('a pasted npx line: the command, then each argument', () => {
    expect(words('npx -y @modelcontextprotocol/server-filesystem /tmp').argv).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/tmp',
    ]);
  });

  it('quotes group words, backslashes escape, as a shell does', () => {
    expect(words(`node "/my docs/server.js" 'it''s' a\\ b "say \\"hi\\" \\n"`).argv).toEqual([
      'node',
      '/my docs/server.js',
      'its',
      'a b',
      'say "hi" \\n',
    ]);
    expect(words(`x '' "" 'a"b' "a'b" \\'`).argv).toEqual(['x', '', '', 'a"b', "a'b", "'"]);
    expect(words('  x\t y \\\n  z  ').argv).toEqual(['x', 'y', 'z']);
  });

  it('leading NAME=value words are the environment; a quoted one, or one after the command, is an argument', () => {
    expect(words('API_KEY=sk-1 DEBUG="a b" npx -y pkg X=1')).toEqual({
      ok: true,
      env: [
        ['API_KEY', 'sk-1'],
        ['DEBUG', 'a b'],
      ],
      argv: ['npx', '-y', 'pkg', 'X=1'],
    });
    expect(words(`'A=1' cmd`)).toMatchObject({ env: [], argv: ['A=1', 'cmd'] });
    expect(words(`A"=1" cmd`)).toMatchObject({ env: [], argv: ['A=1', 'cmd'] });
  });

  it('a # at the start of a word ends the line; inside a word it is a character', () => {
    expect(words('server --port=80#1 # the docs say so').argv).toEqual(['server', '--port=80#1']);
  });

  it('refuses what only a running shell does, saying where', () => {
    for (const [line, at, what] of [
      ['npx server | tee log', 11, '"|" is shell syntax'],
      ['a && b', 2, '"&" is shell syntax'],
      ['server > out.txt', 7, '">" is shell syntax'],
      ['server $HOME/x', 7, '"$" expands'],
      ['server "$HOME"', 8, '"$" inside double quotes'],
      ['server `pwd`', 7, '"`" expands'],
      ['server ~/docs', 7, '"~" stands for your home folder'],
    ] as const) {
      const split = splitCommandLine(line);
      expect(split, line).toMatchObject({ ok: false, at });
      if (!split.ok) {
        expect(split.message).toContain(what);
        expect(split.message).toContain('without a shell');
      }
    }
    expect(words(`server '$HOME' 'a|b' a~b`).argv).toEqual(['server', '$HOME', 'a|b', 'a~b']);
  });

  it('an unclosed quote or a trailing backslash is an error at its place', () => {
    expect(splitCommandLine(`node 'x`)).toMatchObject({ ok: false, at: 5 });
    expect(splitCommandLine(`node "x`)).toMatchObject({ ok: false, at: 5 });
    expect(splitCommandLine('node x\\')).toMatchObject({ ok: false, at: 6 });
  });

  it('a blank line is no words', () => {
    expect(words('   ')).toEqual({ ok: true, env: [], argv: [] });
  });

  it('any words, each quoted the way a shell reads them back, split into the same words', () => {
    const single = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
    const double = (word: string) => `"${word.replace(/[$`"\\]/g, '\\$&')}"`;
    const word = fc.string({ unit: 'grapheme', maxLength: 12 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (argv) => {
        expect(words(argv.map(single).join(' ')).argv).toEqual(argv);
      }),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (argv) => {
        expect(words(argv.map(double).join('\t')).argv).toEqual(argv);
      }),
    );
  });
});
