// The loader fed what a disk can hold rather than what a person writes: random bytes, and the real
// config fixtures cut, spliced, repeated and nested, each written to a real file and read back by
// loadMcpConfig. It never throws, answers every file, and each diagnostic names the file at a real
// line and column. How the time grows with a file's size is bench/large-inputs.mjs's (CPU time,
// against a goal); a file that hangs the loader ends this test at its timeout.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config/load.js';
import { MCP_CONFIG_DIAGNOSTIC_CODES } from '../src/config/report.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'config');
const REAL = readdirSync(FIXTURES).map((name) => readFileSync(join(FIXTURES, name)));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-config-fuzz-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Mutation =
  | { readonly kind: 'cut'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: Uint8Array }
  | {
      readonly kind: 'repeat';
      readonly at: number;
      readonly length: number;
      readonly times: number;
    }
  | { readonly kind: 'nest'; readonly at: number; readonly depth: number; readonly open: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('cut'), at: fc.nat(), length: fc.nat({ max: 64 }) }),
  fc.record({
    kind: fc.constant('insert'),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 16 }),
      fc.constantFrom(
        ...['"', '{', '[', '\\u0000', '\\', '/*', '//', ',', '\r\n', '\0'].map(bytesOf),
      ),
    ),
  }),
  fc.record({
    kind: fc.constant('repeat'),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 32 }),
    times: fc.integer({ min: 2, max: 200 }),
  }),
  fc.record({
    kind: fc.constant('nest'),
    at: fc.nat(),
    depth: fc.integer({ min: 1, max: 5000 }),
    open: fc.constantFrom('[', '{"a":'),
  }),
);

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function mutate(base: Buffer, m: Mutation): Buffer {
  const i = m.at % (base.length + 1);
  const before = base.subarray(0, i);
  switch (m.kind) {
    case 'cut':
      return Buffer.concat([before, base.subarray(i + m.length)]);
    case 'insert':
      return Buffer.concat([before, m.bytes, base.subarray(i)]);
    case 'repeat': {
      const piece = base.subarray(i, i + m.length);
      return Buffer.concat([before, ...Array<Buffer>(m.times).fill(piece), base.subarray(i)]);
    }
    case 'nest':
      return Buffer.concat([before, Buffer.from(m.open.repeat(m.depth)), base.subarray(i)]);
  }
  return m satisfies never;
}

async function expectDiagnosed(bytes: Uint8Array): Promise<void> {
  const file = join(dir, 'mcp.json');
  await writeFile(file, bytes);
  const load = await loadMcpConfig(file);
  for (const d of load.diagnostics) {
    expect(d.file).toBe(file);
    expect(MCP_CONFIG_DIAGNOSTIC_CODES).toContain(d.code);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.message).not.toMatch(/RangeError|Maximum call stack/);
  }
}

describe('loadMcpConfig on damaged files', () => {
  it('random bytes: a diagnostic or nothing, never a throw', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), expectDiagnosed), {
      numRuns: 200,
      seed: 18,
      endOnFailure: true,
    });
  });

  it('real files cut, spliced, repeated and nested thousands deep: a diagnostic, never a throw', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: REAL.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (index, mutations) => {
          const base = REAL[index] ?? Buffer.alloc(0);
          await expectDiagnosed(mutations.reduce(mutate, base));
        },
      ),
      { numRuns: 300, seed: 18, endOnFailure: true },
    );
    // What the runs keep is garbage to collect, not a heap that grows with every file.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
  });
});
