// A server's stderr is redacted as a stream, before it is split into lines, cut or dropped: a
// secret split across chunks (even inside a UTF-8 character), or cut by the endless-line limit,
// never reaches the tail or the line callback in any piece; a real process writing its secrets a
// few bytes at a time shows it on a real pipe.
import { join } from 'node:path';
import { credentials, REDACTED, secretRedactor } from '@epoch-agent/infra';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeTransportAndReap } from '../src/transport/reap.js';
import { STDERR_MAX_LINE_CHARS, StderrRing } from '../src/transport/stderr-ring.js';
import { StdioTransport } from '../src/transport/stdio.js';

const ECHO_FIXTURE = join(import.meta.dirname, 'fixtures', 'echo-secrets-server.mjs');

/** What a ring fed `chunks` keeps: every line it handed on, and its tail. */
function feed(
  scrub: ReturnType<typeof secretRedactor>,
  chunks: readonly Buffer[],
): { lines: string[]; tail: string } {
  const lines: string[] = [];
  const ring = new StderrRing({ onLine: (line) => lines.push(line), scrub });
  for (const chunk of chunks) ring.write(chunk);
  ring.end();
  return { lines, tail: ring.tail() };
}

describe('StderrRing with a redaction policy', () => {
  // Multi-byte characters (2, 3 and 4 bytes) so that byte cuts also fall inside characters.
  const unit = fc.constantFrom(...'abcé€漢😀 \n');
  const scenario = fc
    .array(fc.string({ unit, minLength: 6, maxLength: 12 }), { minLength: 1, maxLength: 3 })
    .chain((secrets) =>
      fc.record({
        secrets: fc.constant(secrets),
        text: fc
          .array(fc.oneof(fc.constantFrom(...secrets), fc.string({ unit, maxLength: 10 })), {
            maxLength: 10,
          })
          .map((parts) => parts.join('')),
        cuts: fc.array(fc.nat(), { maxLength: 10 }),
      }),
    );

  it('keeps the same lines however the bytes are chunked, and no secret (property)', () => {
    fc.assert(
      fc.property(scenario, ({ secrets, text, cuts }) => {
        const scrub = secretRedactor(credentials(secrets));
        const bytes = Buffer.from(text);
        const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length));
        const { lines, tail } = feed(scrub, chunks);
        const expected = scrub(text).split('\n');
        if (expected.at(-1) === '') expected.pop();
        expect(lines).toEqual(expected);
        expect(tail).toBe(expected.join('\n'));
        for (const secret of secrets) {
          for (const piece of [secret, ...secret.split('\n').map((line) => line.trim())]) {
            if (piece.length >= 6) expect(tail).not.toContain(piece);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('blanks a secret that an endless line is cut through, before the cut', () => {
    const secret = 'sk-live-0123456789';
    const head = 'x'.repeat(STDERR_MAX_LINE_CHARS - 5);
    const { lines } = feed(secretRedactor(credentials([secret])), [
      Buffer.from(head + secret.slice(0, 9)),
      Buffer.from(`${secret.slice(9)}y`),
    ]);
    expect(lines.join('')).toBe(`${head}${REDACTED}y`);
    expect(lines[0]).toHaveLength(STDERR_MAX_LINE_CHARS);
  });
});

describe('a real server writing its secrets a few bytes at a time', () => {
  const secrets = ['sk-live-0123456789abcdef', 'p@ss w0rd "quoted" €'];
  const launch = {
    name: 'echo',
    command: process.execPath,
    args: [ECHO_FIXTURE, '--mode=serve', '--chunks=1,2,3,5,7', `--api-key=${secrets[0]}`],
    env: { DB_PASSWORD: secrets[1] ?? '' },
  };

  async function run(scrub: ReturnType<typeof secretRedactor> | undefined) {
    const lines: string[] = [];
    let sawEcho: () => void = () => {};
    const echoed = new Promise<void>((resolve) => {
      sawEcho = resolve;
    });
    const transport = new StdioTransport({
      server: launch,
      onStderrLine: (line) => {
        lines.push(line);
        if (line.startsWith('DB_PASSWORD=')) sawEcho();
      },
      ...(scrub === undefined ? {} : { scrub }),
    });
    try {
      await transport.start();
      // The whole line, not only its start: the echo arrives a few bytes at a time.
      await echoed;
      return { lines: lines.join('\n'), tail: transport.stderrTail() };
    } finally {
      await closeTransportAndReap(transport, { stdinGraceMs: 100, termGraceMs: 100 });
    }
  }

  it('leaves no secret in the tail or the lines; without the policy both carry them', async () => {
    const scrub = secretRedactor([
      ...credentials([secrets[0]]),
      { value: secrets[1] ?? '', kind: 'credential' },
    ]);
    const clean = await run(scrub);
    const raw = await run(undefined);
    for (const secret of secrets) {
      expect(clean.tail).not.toContain(secret);
      expect(clean.lines).not.toContain(secret);
      expect(clean.tail).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(raw.tail).toContain(secret);
      expect(raw.lines).toContain(secret);
    }
    expect(clean.tail).toContain(`--api-key=${REDACTED}`);
    expect(clean.tail).toContain(`DB_PASSWORD=${REDACTED}`);
  });
});
