// addServer / removeServer on generated mcp.json files: comments (line and block, on their own
// lines, at line ends, after the last entry, inside servers and inside entries), indentation by
// tabs or 2, 3 or 4 spaces (mixed between levels), LF or CRLF, one-line files, aliases (`type`,
// `connectTimeout`) and trailing commas. For every file: the result is the original with one piece
// inserted, it loads with the new server exactly as given, the new entry follows the file's
// indentation and line ending, and removeServer gives back the original bytes.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '@epoch-agent/infra';
import { type McpServerConfig, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addServersToText } from '../src/config-edit/add-many.js';
import {
  type AddServerInput,
  addServer,
  addServerToText,
  removeServer,
  removeServerFromText,
} from '../src/config-edit/index.js';

type Comment = { readonly kind: 'line' | 'block' | 'block-lines'; readonly text: string };

interface Item {
  /** `"key": value`, already laid out. */
  readonly text: string;
  /** A comment on its own line above the item. */
  readonly above?: Comment | undefined;
  /** A comment after the item (and its comma) on the same line. */
  readonly sameLine?: Comment | undefined;
}

interface ObjectShape {
  readonly items: readonly Item[];
  /** After `{` on its line. */
  readonly open?: Comment | undefined;
  /** On their own lines after the last item. */
  readonly tail: readonly Comment[];
  readonly trailingComma: boolean;
  /** How an empty object without comments is written. */
  readonly empty: 'tight' | 'space' | 'lines';
}

interface Layout {
  readonly eol: '\n' | '\r\n';
  /** One indentation step per depth (they may differ: mixed indentation). */
  readonly units: readonly string[];
  readonly oneLine: boolean;
}

const indent = (layout: Layout, depth: number) => layout.units.slice(0, depth).join('');

function comment(c: Comment, layout: Layout): string {
  if (layout.oneLine || c.kind === 'block') return `/* ${c.text} */`;
  if (c.kind === 'line') return `// ${c.text}`;
  return `/* ${c.text}${layout.eol} * ${c.text} */`;
}

function printObject(shape: ObjectShape, depth: number, layout: Layout): string {
  const { items, open, tail } = shape;
  if (layout.oneLine) {
    const parts = items.map((item, i) => {
      const above = item.above === undefined ? '' : `${comment(item.above, layout)} `;
      const comma = i < items.length - 1 || shape.trailingComma ? ',' : '';
      const after = item.sameLine === undefined ? '' : ` ${comment(item.sameLine, layout)}`;
      return `${above}${item.text}${comma}${after}`;
    });
    const notes = [open, ...tail].filter((c) => c !== undefined).map((c) => comment(c, layout));
    const inner = [...parts, ...notes].join(' ');
    return inner === '' ? (shape.empty === 'tight' ? '{}' : '{ }') : `{${inner}}`;
  }
  const { eol } = layout;
  const inner = indent(layout, depth + 1);
  if (items.length === 0 && open === undefined && tail.length === 0) {
    return { tight: '{}', space: '{ }', lines: `{${eol}${indent(layout, depth)}}` }[shape.empty];
  }
  let out = open === undefined ? '{' : `{ ${comment(open, layout)}`;
  items.forEach((item, i) => {
    out += eol + inner;
    if (item.above !== undefined) out += comment(item.above, layout) + eol + inner;
    out += item.text;
    if (i < items.length - 1 || shape.trailingComma) out += ',';
    if (item.sameLine !== undefined) out += ` ${comment(item.sameLine, layout)}`;
  });
  for (const c of tail) out += eol + inner + comment(c, layout);
  return `${out}${eol}${indent(layout, depth)}}`;
}

// --- generators -------------------------------------------------------------------------------

const commentArb: fc.Arbitrary<Comment> = fc.record({
  kind: fc.constantFrom('line', 'block', 'block-lines'),
  // Text that looks like JSON must stay a comment: braces, commas, quotes, a commented-out entry.
  text: fc.constantFrom(
    'note',
    'TODO: rotate token',
    '"old": { "command": "x" },',
    '} , {',
    'ünï 😀',
  ),
});
// Half the time: comments in every slot at once would make the plain shapes (`{}`) rare.
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** A field spelled as a person would: aliases and both spellings of connect_timeout. */
const stdioFieldsArb = fc.record({
  transport: fc.constantFrom(undefined, '"transport": "stdio"', '"type": "stdio"'),
  command: fc.constantFrom('"command": "npx"', '"command": "C:\\\\tools\\\\mcp.exe"'),
  args: maybe(fc.constantFrom('"args": ["-y", "@scope/server"]', '"args": []')),
  env: maybe(fc.constantFrom('"env": { "LOG_LEVEL": "warn" }', '"env": {}')),
  timeout: maybe(fc.constantFrom('"connectTimeout": 30', '"connect_timeout": 5', '"timeout": 1.5')),
});
const remoteFieldsArb = fc.record({
  transport: fc.constantFrom(
    undefined,
    '"type": "http"',
    '"transport": "sse"',
    '"transport": "streamable"',
  ),
  url: fc.constantFrom(
    '"url": "https://mcp.example.com/mcp"',
    '"url": "http://127.0.0.1:8080/sse"',
  ),
  headers: maybe(fc.constant('"headers": { "Authorization": "Bearer x" }')),
  timeout: maybe(fc.constantFrom('"connectTimeout": 30', '"keepalive_interval": 0')),
});
const fieldsArb = fc
  .oneof(stdioFieldsArb, remoteFieldsArb)
  .map((fields) =>
    Object.values<string | undefined>(fields).filter((f): f is string => f !== undefined),
  );

const entryArb = fc.record({
  fields: fieldsArb,
  inline: fc.boolean(),
  innerComment: maybe(commentArb),
  above: maybe(commentArb),
  sameLine: maybe(commentArb),
});

const objectExtrasArb = fc.record({
  open: maybe(commentArb),
  tail: fc.oneof(
    { arbitrary: fc.constant([]), weight: 2 },
    { arbitrary: fc.array(commentArb, { minLength: 1, maxLength: 2 }), weight: 1 },
  ),
  trailingComma: fc.boolean(),
  empty: fc.constantFrom('tight', 'space', 'lines'),
});

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  eol: fc.constantFrom('\n', '\r\n'),
  units: fc.oneof(
    fc.constantFrom('\t', '  ', '   ', '    ').map((unit) => [unit, unit, unit, unit, unit]),
    fc.array(fc.constantFrom('\t', '  ', '   ', '    '), { minLength: 5, maxLength: 5 }),
  ),
  oneLine: fc.oneof(
    { arbitrary: fc.constant(false), weight: 4 },
    { arbitrary: fc.constant(true), weight: 1 },
  ),
});

const fileArb = fc
  .record({
    layout: layoutArb,
    names: fc.uniqueArray(fc.constantFrom('github', 'fs', 'remote-1', 'a_b', 'x'), {
      maxLength: 3,
    }),
    entries: fc.array(entryArb, { minLength: 3, maxLength: 3 }),
    servers: objectExtrasArb,
    top: objectExtrasArb,
    schemaFirst: fc.boolean(),
    otherAfter: fc.boolean(),
    lead: maybe(commentArb),
    finalBreak: fc.boolean(),
  })
  .map((g) => {
    const { layout } = g;
    const entries: Item[] = g.names.map((name, i) => {
      const e = g.entries[i] as (typeof g.entries)[number];
      const fieldItems: Item[] = e.fields.map((text, j) => ({
        text,
        above: j === 0 ? e.innerComment : undefined,
      }));
      const value = e.inline
        ? `{ ${e.fields.join(', ')} }`
        : printObject(
            { items: fieldItems, tail: [], trailingComma: false, empty: 'tight' },
            2,
            layout,
          );
      return { text: `"${name}": ${value}`, above: e.above, sameLine: e.sameLine };
    });
    const servers = printObject({ ...g.servers, items: entries }, 1, layout);
    const top: Item[] = [
      ...(g.schemaFirst ? [{ text: '"$schema": "https://example.com/mcp.json"' }] : []),
      { text: `"servers": ${servers}` },
      ...(g.otherAfter ? [{ text: '"other": { "k": [1, 2] }' }] : []),
    ];
    const root = printObject({ ...g.top, items: top }, 0, layout);
    const lead =
      g.lead === undefined ? '' : comment(g.lead, layout) + (layout.oneLine ? ' ' : layout.eol);
    const text = lead + root + (g.finalBreak ? layout.eol : '');
    return {
      text,
      layout,
      names: g.names,
      // The entries whose `above` comment has a line of its own: it goes when they are removed.
      commentedAbove: layout.oneLine
        ? []
        : g.names.filter((_, i) => g.entries[i]?.above !== undefined),
      multiLineEntries: g.names.some((_, i) => !g.entries[i]?.inline),
    };
  });

const serverArb: fc.Arbitrary<AddServerInput> = fc.oneof(
  fc.record({
    name: fc.constantFrom('new', 'added-1', 'Z_9'),
    transport: fc.constant('stdio' as const),
    command: fc.constantFrom('node', 'npx', 'C:\\Program Files\\mcp.exe', 'uvx'),
    args: fc.array(fc.constantFrom('-y', 'pkg@1.0', 'a "quoted" arg', 'ünï', '--x=1,2', ''), {
      maxLength: 3,
    }),
    env: fc.dictionary(
      fc.constantFrom('TOKEN', 'A_B', 'PATH'),
      fc.constantFrom('s3cret', 'a"b', ''),
    ),
  }),
  fc.record(
    {
      name: fc.constantFrom('new', 'added-1', 'Z_9'),
      transport: fc.constantFrom('sse' as const, 'http' as const),
      url: fc.constantFrom('https://mcp.example.com/mcp', 'http://127.0.0.1:9000/sse?x=1&y=2'),
      headers: fc.dictionary(
        fc.constantFrom('Authorization', 'X-Key'),
        fc.constantFrom('Bearer t', 'a"b'),
      ),
    },
    { requiredKeys: ['name', 'transport', 'url'] },
  ),
  // `epoch mcp add-json`: a whole entry as a person writes it, aliases and nested objects included.
  fc.record({
    name: fc.constantFrom('new', 'added-1', 'Z_9'),
    entry: fc.record(
      {
        type: fc.constant('http'),
        url: fc.constant('https://mcp.example.com/mcp'),
        connectTimeout: fc.constantFrom(5, 0.5),
        headers: fc.dictionary(fc.constantFrom('X-Key'), fc.constantFrom('v', '')),
        oauth: fc.constant({ scopes: ['read', 'write'], callback_port: 8123 }),
      },
      { requiredKeys: ['type', 'url'] },
    ),
  }),
);

/** Servers addServer refuses alone: a name that differs only in case, an entry that does not load, a bad name. */
const refusedArb: fc.Arbitrary<AddServerInput> = fc.constantFrom<AddServerInput>(
  { name: 'GITHUB', transport: 'stdio', command: 'gh' },
  { name: 'bad', entry: { command: 5 } },
  { name: 'bad name', transport: 'stdio', command: 'x' },
);

// --- checks -----------------------------------------------------------------------------------

/** A diagnostic without its position (an insertion above it moves it). */
const kind = (d: Diagnostic) => `${d.severity} ${d.code} ${d.path}`;

/** The comments of a JSONC text, in order (strings skipped: a URL's // is not a comment). */
function comments(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (text.startsWith('//', i) || text.startsWith('/*', i)) {
      const end = text.startsWith('//', i) ? text.indexOf('\n', i) : text.indexOf('*/', i) + 2;
      const stop = end <= i ? text.length : end;
      out.push(text.slice(i, stop).replace(/\r$/, ''));
      i = stop - 1;
    }
  }
  return out;
}

function expectLoadsAsGiven(config: McpServerConfig | undefined, server: AddServerInput): void {
  expect(config).toBeDefined();
  if ('entry' in server) {
    expect(config).toMatchObject({ transport: 'http', url: server.entry.url });
  } else if (server.transport === 'stdio') {
    expect(config).toMatchObject({
      transport: 'stdio',
      command: server.command,
      args: server.args ?? [],
      env: server.env ?? {},
    });
  } else {
    expect(config).toMatchObject({
      transport: server.transport,
      url: server.url,
      headers: server.headers ?? {},
    });
  }
}

/** Everything addServer promises about `after`, the new text of the file that held `original`. */
function expectInsertedAsGiven(
  generated: { text: string; layout: Layout; names: readonly string[]; multiLineEntries: boolean },
  server: AddServerInput,
  after: string,
  inserted: { offset: number; text: string },
): void {
  const { text: original, layout } = generated;
  const { offset, text } = inserted;
  expect(after).toBe(original.slice(0, offset) + text + original.slice(offset));

  const before = parseMcpConfig(original, FILE);
  expect(before.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const load = parseMcpConfig(after, FILE);
  expect(load.diagnostics.map(kind)).toEqual(before.diagnostics.map(kind));
  expectLoadsAsGiven(load.servers.at(-1), server);
  expect(load.servers.slice(0, -1)).toEqual(before.servers);

  // The file's own line ending and indentation.
  const breaks = text.match(/\r?\n/g) ?? [];
  if (layout.oneLine) expect(breaks).toEqual([]);
  else for (const b of breaks) expect(b).toBe(layout.eol);
  if (layout.oneLine) return;
  const keyAt = after.indexOf(`"${server.name}": {`, offset);
  const keyLine = after.lastIndexOf('\n', keyAt) + 1;
  // With entries, exactly theirs; without, one step past `servers` as the file steps.
  const entryIndent =
    generated.names.length > 0 ? indent(layout, 2) : indent(layout, 1) + layout.units[0];
  expect(after.slice(keyLine, keyAt)).toBe(entryIndent);
  if (generated.multiLineEntries) {
    // The entry's first field, whatever it is called.
    const fieldAt = after.indexOf('"', after.indexOf('{', keyAt) + 1);
    expect(after.slice(after.lastIndexOf('\n', fieldAt) + 1, fieldAt)).toBe(indent(layout, 3));
  }
}

const FILE = '/home/user/.epoch/mcp.json';

/** Configs without the position an SSE entry carries (SseServerConfig.sseChosen). */
function placeless(servers: readonly McpServerConfig[]): object[] {
  return servers.map((server) => ({ ...server, sseChosen: undefined }));
}

describe('mcp-config-write on generated files', () => {
  it('adds as one inserted piece that loads as given, in the file style, and removes back to the original bytes', () => {
    fc.assert(
      fc.property(fileArb, serverArb, (generated, server) => {
        const { text: after, inserted } = addServerToText(generated.text, FILE, server);
        expectInsertedAsGiven(generated, server, after, inserted);
        // Removing what was added gives back the original bytes, also when the entry went right
        // under a comment line (a `servers` holding only comments): the comment was the file's.
        expect(removeServerFromText(after, FILE, server.name)).toBe(generated.text);
      }),
      { numRuns: 150 },
    );
  });

  it('adds several servers as one piece, byte for byte what adding them one by one gives, each refusal its own', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.array(fc.oneof(serverArb, refusedArb), { maxLength: 5 }),
        (generated, servers) => {
          let text = generated.text;
          const added: string[] = [];
          const refused: string[] = [];
          for (const server of servers) {
            try {
              text = addServerToText(text, FILE, server).text;
              added.push(server.name);
            } catch (error) {
              refused.push((error as Error).message);
            }
          }
          const many = addServersToText(generated.text, FILE, servers);
          expect(many.text).toBe(text);
          expect(many.added).toEqual(added);
          expect(many.refused.map((error) => error.message)).toEqual(refused);
          const { inserted } = many;
          if (inserted === undefined) expect(added).toEqual([]);
          else {
            const { offset, text: piece } = inserted;
            expect(generated.text.slice(0, offset) + piece + generated.text.slice(offset)).toBe(
              text,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('removes a hand-written entry with its comma only: the rest loads the same, every comment outside it stays', () => {
    fc.assert(
      fc.property(
        fileArb.filter((g) => g.names.length > 0),
        fc.nat(),
        (generated, pick) => {
          const { text: original } = generated;
          const name = generated.names[pick % generated.names.length] as string;
          const after = removeServerFromText(original, FILE, name);
          const before = parseMcpConfig(original, FILE);
          const load = parseMcpConfig(after, FILE);
          expect(load.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          // What each remaining server is stays; where it is written moves up with the removal.
          expect(placeless(load.servers)).toEqual(
            placeless(before.servers.filter((s) => s.name !== name)),
          );
          // The comments inside the entry go with it; every other one stays.
          const root = parseTree(original, [], { allowTrailingComma: true });
          const entry = root && findNodeAtLocation(root, ['servers', name])?.parent;
          if (entry === undefined) throw new Error(`no entry ${name}`);
          const ahead = comments(original.slice(0, entry.offset));
          const behind = comments(original.slice(entry.offset + entry.length));
          // And the comment on its own line directly above it; but above the only entry, written
          // just as addServer would have added it under a comment the file had, the comment stays:
          // such an entry cannot be told from an added one, and add then remove is the identity.
          if ((generated.commentedAbove as readonly string[]).includes(name)) {
            const above = ahead.pop() as string;
            const kept = [...ahead, above, ...behind];
            if (generated.names.length === 1 && String(comments(after)) === String(kept)) return;
          }
          expect(comments(after)).toEqual([...ahead, ...behind]);
        },
      ),
      { numRuns: 100 },
    );
  });

  describe('on real files', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'epoch-config-prop-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('addServer writes what the text edit gives, and removeServer restores the file byte for byte', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fileArb, serverArb, async (generated, server) => {
          const file = join(dir, `mcp-${run++}.json`);
          await writeFile(file, generated.text);
          const result = await addServer(file, server);
          const after = await readFile(file, 'utf8');
          expect(after).toBe(addServerToText(generated.text, file, server).text);
          expectInsertedAsGiven(generated, server, after, result.inserted);
          await removeServer(file, server.name);
          expect(await readFile(file, 'utf8')).toBe(generated.text);
        }),
        // Each run is two locked, fsynced writes: the text properties above carry the numbers.
        { numRuns: 25 },
      );
    });
  });
});
