// The free-text redaction policy: every known secret blanked wherever it occurs, in whatever form
// a program prints it; short values left alone; a text that arrives in pieces comes out exactly
// as if it had been redacted whole, however the pieces split its secrets.
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  credentials,
  type LogFields,
  MAX_LEARNED_SECRETS,
  MIN_SECRET_LENGTH,
  REDACTED,
  redactingLogger,
  type Secret,
  secretRedactor,
} from '../src/index.js';

const setting = (value: string): Secret => ({ value, kind: 'setting' });

describe('secretRedactor', () => {
  it('blanks every occurrence of every secret and keeps the text around them', () => {
    const redact = secretRedactor(credentials(['sk-live-123456', 'hunter2!']));
    expect(redact('key sk-live-123456 and sk-live-123456, password hunter2!.')).toBe(
      `key ${REDACTED} and ${REDACTED}, password ${REDACTED}.`,
    );
    expect(redact('nothing secret here')).toBe('nothing secret here');
  });

  it('leaves short values alone: a credential from 6 characters, a setting from 8', () => {
    const redact = secretRedactor([
      ...credentials(['abcde', 'abcdef', '']),
      setting('1'),
      setting('warn'),
      setting('verbose'),
      setting('verbose!'),
    ]);
    expect(MIN_SECRET_LENGTH).toEqual({ credential: 6, setting: 8 });
    expect(redact('level=warn debug=1 mode=verbose x abcde')).toBe(
      'level=warn debug=1 mode=verbose x abcde',
    );
    expect(redact('abcdef / verbose!')).toBe(`${REDACTED} / ${REDACTED}`);
  });

  it('finds a secret as JSON and as a URL print it, and each line of a multi-line key', () => {
    const quoted = 'pa"ss\\word-1';
    const spaced = 'open sesame 42';
    const pem =
      '-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQ\nZmFrZSBrZXkgYm9keQ==\n-----END KEY-----';
    const redact = secretRedactor(credentials([quoted, spaced, pem]));
    expect(redact(JSON.stringify({ A: quoted }))).toBe(`{"A":"${REDACTED}"}`);
    expect(redact(`https://h/?q=${encodeURIComponent(spaced)}`)).toBe(`https://h/?q=${REDACTED}`);
    expect(redact(`[key] ${pem.split('\n')[1]}\n[key] ${pem.split('\n')[2]}`)).toBe(
      `[key] ${REDACTED}\n[key] ${REDACTED}`,
    );
    expect(redact(`env ${JSON.stringify(pem)}`)).toBe(`env "${REDACTED}"`);
  });

  it("finds a secret with control characters as Node's own spawn error quotes it", () => {
    const secret = 'abc\u0000def-token-7f3a';
    const redact = secretRedactor(credentials([secret]));
    let message = '';
    try {
      spawn(process.execPath, ['-e', '0'], { env: { API_TOKEN: secret } });
    } catch (error) {
      message = (error as Error).message;
    }
    // Node renders the NUL as \x00, which neither the raw value nor its JSON form (\u0000) is.
    expect(message).toContain('abc\\x00def-token-7f3a');
    expect(redact(message)).not.toContain('def-token');
    expect(redact(message)).toContain(REDACTED);
  });

  it('blanks overlapping and adjacent secrets as one, leaving no piece of either', () => {
    const redact = secretRedactor(credentials(['abcdefgh', 'efghijkl', 'mnopqr']));
    expect(redact('<abcdefghijkl>')).toBe(`<${REDACTED}>`);
    expect(redact('abcdefghmnopqr!')).toBe(`${REDACTED}!`);
  });

  it('looks for secrets learned later, also in a stream opened before', () => {
    const redact = secretRedactor();
    const stream = redact.stream();
    expect(redact('token tok-123456')).toBe('token tok-123456');
    redact.learn(credentials(['tok-123456']));
    expect(redact('token tok-123456')).toBe(`token ${REDACTED}`);
    expect(stream.write('a tok-123') + stream.write('456 b') + stream.end()).toBe(
      `a ${REDACTED} b`,
    );
  });

  it('keeps the newest learned secrets (tokens replacing each other) and every config secret', () => {
    const redact = secretRedactor(credentials(['config-secret']));
    const token = (i: number) => `token-${String(i).padStart(4, '0')}`;
    redact.learn(credentials([token(0)]));
    for (let i = 1; i <= MAX_LEARNED_SECRETS + 5; i++) {
      redact.learn(credentials([token(i)]));
      redact.learn(credentials([token(0)])); // learned again and again: always among the newest
    }
    // 70 learned: the oldest six (1 to 6) are forgotten.
    expect(redact(`${token(6)} ${token(7)} ${token(69)} ${token(0)} config-secret`)).toBe(
      `${token(6)} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED}`,
    );
  });

  it('releases a piece at once unless its end could be the start of a secret', () => {
    const stream = secretRedactor(credentials(['sk-live-123456'])).stream();
    expect(stream.write('server ready\n')).toBe('server ready\n');
    expect(stream.write('using key sk-li')).toBe('using key ');
    expect(stream.write('ve-123456 now\n')).toBe(`${REDACTED} now\n`);
    expect(stream.write('sk-lime is a colour')).toBe('sk-lime is a colour');
    expect(stream.write(' sk-')).toBe(' ');
    expect(stream.end()).toBe('sk-');
  });

  // Secrets and filler from a small alphabet, so they overlap, repeat and touch each other often.
  const alphabet = fc.constantFrom(...'abcdeé\n "\\');
  const word = (min: number) => fc.string({ unit: alphabet, minLength: min, maxLength: 14 });
  const secretsArb = fc.array(word(MIN_SECRET_LENGTH.credential), { minLength: 1, maxLength: 4 });
  const scenario = secretsArb.chain((secrets) =>
    fc.record({
      secrets: fc.constant(secrets),
      text: fc
        .array(fc.oneof(fc.constantFrom(...secrets), word(0)), { maxLength: 12 })
        .map((parts) => parts.join('')),
      cuts: fc.array(fc.nat(), { maxLength: 8 }),
    }),
  );

  it('redacts a text split anywhere into pieces exactly as it redacts the whole (property)', () => {
    fc.assert(
      fc.property(scenario, ({ secrets, text, cuts }) => {
        const redact = secretRedactor(credentials(secrets));
        const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, i) => text.slice(start, at[i] ?? text.length));
        const stream = redact.stream();
        const streamed = pieces.map((piece) => stream.write(piece)).join('') + stream.end();
        expect(streamed).toBe(redact(text));
        for (const secret of secrets) expect(streamed).not.toContain(secret);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('redactingLogger', () => {
  it('redacts the message and every string in the fields, at any depth', () => {
    const lines: [string, string, LogFields | undefined][] = [];
    const sink = (level: string) => (message: string, fields?: LogFields) =>
      lines.push([level, message, fields]);
    const logger = redactingLogger(
      { debug: sink('debug'), info: sink('info'), warn: sink('warn'), error: sink('error') },
      secretRedactor(credentials(['sk-123456'])),
    );
    logger.warn('bad key sk-123456', { server: 's', detail: { list: ['x sk-123456', 3] } });
    logger.debug('plain');
    expect(lines).toEqual([
      ['warn', `bad key ${REDACTED}`, { server: 's', detail: { list: [`x ${REDACTED}`, 3] } }],
      ['debug', 'plain', undefined],
    ]);
  });
});
