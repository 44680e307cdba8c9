// The SDK's zod schemas as the bundle builds them (scripts/lazy-schemas.mjs): each on its first
// use, so that a process's first connect builds the few it validates with, not the protocol's
// every schema while the SDK loads. Counted in fresh Node processes by zod's own hook, called for
// every zod object made; the rewrite itself run on code written for the test, in a process of its
// own, as the build runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REWRITE = fileURLToPath(new URL('../../../scripts/lazy-schemas.mjs', import.meta.url));

/** Counts the zod objects made in the process; `built` holds the count. */
const COUNT_ZOD = `let built = 0;
globalThis.__zod_globalConfig = { postProcessor: () => { built += 1; } };`;

/** Runs `script` as an ES module in a fresh Node in the repo's root; its stdout. */
function node(script: string): string {
  const ran = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (ran.status !== 0) throw new Error(`node exited ${ran.status}: ${ran.stderr}`);
  return ran.stdout;
}

/** A chunk the rewrite takes: 150 top-level schemas, a schema set of 50, and `extra` after them. */
function chunkWith(extra: readonly string[]): string {
  return [
    'const made = [];',
    'function make(name, inner) { made.push(name); return { name, inner }; }',
    ...Array.from({ length: 150 }, (_, n) => `const S${n}Schema = make('S${n}');`),
    'function build() {',
    ...Array.from({ length: 50 }, (_, n) => `\tconst L${n}Schema = make('L${n}');`),
    '\treturn { L0Schema };',
    '}',
    ...extra,
  ].join('\n');
}

/** `chunk` rewritten as the build does, in a fresh Node: its `report`, or the rewrite's failure. */
function rewritten(chunk: string): { report?: unknown; failure?: string } {
  const ran = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
const { lazySchemas } = await import(${JSON.stringify(REWRITE)});
const file = join(mkdtempSync(join(tmpdir(), 'lazy-schemas-')), 'chunk.mjs');
writeFileSync(file, lazySchemas(${JSON.stringify(chunk)}, 'chunks/sdk.js'));
const { report } = await import(pathToFileURL(file).href);
console.log(JSON.stringify(report));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return ran.status === 0 ? { report: JSON.parse(ran.stdout) } : { failure: ran.stderr };
}

describe("the SDK's schemas in the bundle", () => {
  it('a first stdio connect, tool list and call build fewer zod schemas than loading the SDK does', () => {
    const server = fixtureServerEntry('cli');
    const ours = JSON.parse(
      node(`${COUNT_ZOD}
const { McpRegistry, parseMcpConfig } = await import('@epoch-agent/plugin-mcp');
const config = JSON.stringify({ servers: { cli: ${JSON.stringify(server)} } });
const registry = new McpRegistry({ schemaCache: null });
const [status] = await registry.connectAll(parseMcpConfig(config, 'f').servers, 'user');
if (status.state !== 'connected') throw new Error(JSON.stringify(status));
const echo = registry.tools().find((tool) => tool.target.name === 'echo');
const result = await echo.execute({ text: 'hi' }, { signal: new AbortController().signal });
await registry.disconnectAll();
console.log(JSON.stringify({ built, result }));`),
    ) as { built: number; result: { content: { text: string }[] } };
    const sdkLoad = Number(
      node(`${COUNT_ZOD}
await import('@modelcontextprotocol/client');
console.log(built);`),
    );
    expect(ours.result.content[0]?.text).toContain('hi');
    // The hook counts here: the connect did validate with zod.
    expect(ours.built).toBeGreaterThan(0);
    expect(sdkLoad).toBeGreaterThan(0);
    // Loading the SDK builds all of the protocol's schemas; the connect's are a few of them.
    expect(ours.built).toBeLessThan(sdkLoad / 2);
  });

  it('the rewrite builds each schema once, on first use, the same object for every reference', () => {
    // 150 top-level schemas (the least the rewrite takes for the SDK's), a schema set of 50 with
    // one built in its returned object, a list filled at load, a value computed from a schema at
    // load, and a function's own copy of a schema's name.
    const top = Array.from(
      { length: 150 },
      (_, n) => `const S${n}Schema = make('S${n}', ${n === 0 ? 'undefined' : `S${n - 1}Schema`});`,
    );
    const set = Array.from({ length: 50 }, (_, n) => `\tconst L${n}Schema = make('L${n}');`);
    const chunk = [
      'const made = [];',
      'function make(name, inner) { made.push(name); return { name, inner }; }',
      ...top,
      'const listed = { S5Schema, named: S6Schema };',
      'const keys = new Set([S3Schema.name]);',
      'function known(name) { return keys.has(name); }',
      'function build() {',
      ...set,
      '\treturn { L0Schema, WholeSchema: make("whole", L1Schema) };',
      '}',
      'function own() { const S7Schema = "own copy"; return S7Schema; }',
      'const atLoad = made.length;',
      // Compared as the values a function returns: the rewrite refuses a schema's name in `===`.
      'function twice() { return [S9Schema, S9Schema, made.slice(), S8Schema]; }',
      'const [first, again, afterS9, s8] = twice();',
      'const built = build();',
      'export const report = { atLoad, afterS9, sameS9: first === again, inner: first.inner === s8,',
      '\tlisted: listed.named.name, own: own(), setBuilt: made.includes("L0"), whole: built.WholeSchema.inner.name,',
      '\tknown: known("S3") };',
    ].join('\n');
    const report = JSON.parse(
      node(`import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
const { lazySchemas } = await import(${JSON.stringify(REWRITE)});
const file = join(mkdtempSync(join(tmpdir(), 'lazy-schemas-')), 'chunk.mjs');
writeFileSync(file, lazySchemas(${JSON.stringify(chunk)}, 'chunk.mjs'));
const { report } = await import(pathToFileURL(file).href);
console.log(JSON.stringify(report));`),
    );
    expect(report).toEqual({
      // Nothing while the chunk loads, though a list names two schemas.
      atLoad: 0,
      // S9 builds what it is made of, each once, in order.
      afterS9: ['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9'],
      sameS9: true,
      inner: true,
      listed: 'S6',
      own: 'own copy',
      // The set's schemas wait for their first use too, the one built in its object as well.
      setBuilt: false,
      whole: 'L1',
      // A value computed from a schema as the chunk loads waits with it.
      known: true,
    });
  });

  it('the build fails, naming the chunk and what it missed, when the SDK declares its schemas otherwise', () => {
    const ran = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { lazySchemas } = await import(${JSON.stringify(REWRITE)});
lazySchemas('const OneSchema = make();', 'chunks/sdk.js');`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toContain(
      'chunk chunks/sdk.js: 1 top-level schemas found, not at least 150',
    );
  });
  it('a value computed from a schema is computed once, though it is undefined', () => {
    // Computed on first use in the place of the chunk's load: its call runs once, as it did there.
    const { report, failure } = rewritten(
      chunkWith([
        'let noted = 0;',
        'function note(name) { noted += 1; }',
        'const nothing = note(S3Schema.name);',
        'function use() { return nothing; }',
        'export const report = [use(), use(), use()].length === 3 && noted;',
      ]),
    );
    expect(failure).toBeUndefined();
    expect(report).toBe(1);
  });

  it('the build fails when the chunk compares a schema by identity, as a stand-in in a list is another object', () => {
    // A list's stand-in for S5 is not S5: `===`, a Map's key or `includes` would say so at run time.
    const uses: [use: string, said: string][] = [
      ['function isS5(schema) { return schema === S5Schema; }', 'S5Schema is compared with ==='],
      [
        'const seen = new WeakSet(); function mark() { seen.add(S5Schema); }',
        'S5Schema is passed to .add()',
      ],
      [
        'function known(schema) { return [S4Schema].includes(schema) || Object.is(schema, S5Schema); }',
        'S5Schema is passed to .is()',
      ],
      [
        'function kind(schema) { switch (schema) { case S5Schema: return 5; } }',
        'S5Schema is a switch case',
      ],
    ];
    for (const [use, said] of uses) {
      const { report, failure } = rewritten(
        chunkWith([
          'const listed = { S5Schema };',
          use,
          'export const report = listed.S5Schema.name;',
        ]),
      );
      expect(report).toBeUndefined();
      expect(failure).toContain(`chunk chunks/sdk.js: ${said}`);
    }
    // By its value it may be used, as the SDK does: a map's value, an argument to a function.
    const { report } = rewritten(
      chunkWith([
        'const table = new Map(); function fill() { table.set("five", S5Schema); return table.get("five").name; }',
        'export const report = fill();',
      ]),
    );
    expect(report).toBe('S5');
  });
});
