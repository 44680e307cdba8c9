// Text from servers shown to a person: controls and bidi characters visible, long texts cut; JSON exact but inert.
import { describe, expect, it } from 'vitest';
import { bounded, terminalJson, visibleText, withoutTerminalEscapes } from '../src/visible-text.js';

const HOSTILE =
  'a\x1b[2Jb\x1b]0;title\x07c\x1b]52;c;ZXZpbA==\x07d\x9b2Je\u202eevil\u2066f\u2028g\x7fh\ri\nj\tk';

describe('visibleText', () => {
  it('shows every control and bidi character as a visible escape', () => {
    expect(visibleText(HOSTILE)).toBe(
      'a\\x1b[2Jb\\x1b]0;title\\x07c\\x1b]52;c;ZXZpbA==\\x07d\\x9b2Je\\u202eevil\\u2066f\\u2028g\\x7fh\\x0di\\x0aj\\x09k',
    );
  });

  it('keeps line feeds and tabs of a block of lines, and nothing else', () => {
    const shown = visibleText(HOSTILE, { lines: true });
    expect(shown).toContain('\\x0di\nj\tk');
    expect(shown.replace(/[\n\t]/g, '')).toMatch(/^[\x20-\x7e]*$/);
  });

  it('for a page, drops whole escape sequences (CSI, OSC, ESC with its final byte; C1 forms) and other controls, but shows bidi characters', () => {
    expect(visibleText(HOSTILE, { lines: true, controls: 'drop' })).toBe(
      'abcde\\u202eevil\\u2066f\\u2028ghi\nj\tk',
    );
    const styled =
      '\x1b[1;31merror:\x1b[0m no key\x1b7\x1b(B\x1bP1;2q\x1b\\ \x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\';
    expect(visibleText(styled, { controls: 'drop' })).toBe('error: no key link');
  });

  it('leaves ordinary text, emoji and backslashes as they are', () => {
    const text = 'Ünïcode — 日本語 👍 C:\\path\\x1b';
    expect(visibleText(text)).toBe(text);
  });

  it('cuts a long text and says how much was cut', () => {
    const shown = visibleText('x'.repeat(2_000_000));
    expect(shown.length).toBeLessThan(2100);
    expect(shown).toMatch(/… \[1,998,000 more characters not shown\]$/);
  });

  it('never cuts inside a surrogate pair', () => {
    expect(bounded(`ab${'👍'.repeat(3)}`, 3)).toBe('ab… [6 more characters not shown]');
  });
});

describe('terminalJson', () => {
  it('round-trips the exact text while no raw control or bidi character is printed', () => {
    const value = { text: HOSTILE, nested: [HOSTILE] };
    const json = terminalJson(value, 2);
    expect(JSON.parse(json)).toEqual(value);
    expect(json.replace(/\n/g, '')).toMatch(/^[\x20-\x7e]*$/);
  });
});

describe('withoutTerminalEscapes', () => {
  it('drops each whole sequence, a window title and a clipboard write with their text, and leaves the rest', () => {
    expect(withoutTerminalEscapes(HOSTILE)).toBe('abcde\u202eevil\u2066f\u2028g\x7fh\ri\nj\tk');
  });
});
