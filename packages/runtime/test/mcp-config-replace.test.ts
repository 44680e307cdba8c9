// replaceServerEntry on real files: an entry written with comments and aliases is edited as a
// replacement of its own object only (every byte outside it kept), its secrets go out as
// placeholders and come back as they were, and what add-json refuses is refused here too.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEntryJson } from '../src/config-edit/entry-json.js';
import {
  addServer,
  isMcpConfigWriteError,
  type McpConfigWriteErrorCode,
  readServerEntry,
  replaceServerEntry,
} from '../src/config-edit/index.js';

let home: string;
let file: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-config-replace-'));
  file = join(home, 'mcp.json');
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>, code: McpConfigWriteErrorCode) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isMcpConfigWriteError(error, code)) {
    throw new Error(`expected McpConfigWriteError ${code}, got ${String(error)}`);
  }
  return error;
}

const TOKEN = 'sk-live-0123456789abcdef';

// Tabs, CRLF, comments inside and around the entry, `type` and camelCase aliases.
const SEED = [
  '// servers of mine',
  '{',
  '\t"servers": {',
  '\t\t// the docs one',
  '\t\t"docs": {',
  '\t\t\t"type": "stdio", // alias of transport',
  '\t\t\t"command": "node",',
  '\t\t\t"args": ["server.js", "--api-key", "KEY-abcdef-123"],',
  '\t\t\t/* the old token was sk-old-999 */',
  `\t\t\t"env": { "API_TOKEN": "${TOKEN}", "LOG_LEVEL": "warn" },`,
  '\t\t\t"connectTimeout": 30,',
  '\t\t},',
  '\t\t"other": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer zzz" } }',
  '\t},',
  '\t"overrides": { "plugin-x": { "enabled": false } }',
  '}',
  '',
].join('\r\n');

describe('replaceServerEntry', () => {
  it('changes only the bytes of the entry edited, its secrets kept through their placeholders', async () => {
    await writeFile(file, SEED);
    const shown = await readServerEntry(file, 'docs');
    expect(shown.text).not.toContain(TOKEN);
    expect(shown.text).not.toContain('KEY-abcdef-123');
    expect(shown.text).not.toContain('sk-old-999');
    expect(shown.text).toContain('/* <secret comment 1> */');
    expect(shown.json).not.toContain(TOKEN);
    expect(shown.text).toContain('"API_TOKEN": "<secret: env.API_TOKEN>"');
    expect(shown.text).toContain('"connectTimeout": 30,');
    expect(shown.text).toContain('// alias of transport');
    // The token, the argument after --api-key, every env value (LOG_LEVEL too, as the view) and the comment.
    expect(shown.hidden).toBe(4);
    expect(shown.line).toBe(5);

    // Sent back unchanged: nothing written, the file as it was.
    expect((await replaceServerEntry(file, 'docs', shown.text)).changed).toBe(false);
    expect(await readFile(file, 'utf8')).toBe(SEED);

    const edited = shown.text.replace('"connectTimeout": 30', '"connectTimeout": 45');
    expect((await replaceServerEntry(file, 'docs', edited)).changed).toBe(true);
    const after = await readFile(file, 'utf8');
    const start = SEED.indexOf('{', SEED.indexOf('"docs"'));
    const end = SEED.indexOf('\t\t},') + 3;
    expect(after.slice(0, start)).toBe(SEED.slice(0, start));
    expect(after.slice(after.length - (SEED.length - end))).toBe(SEED.slice(end));
    expect(after.slice(start, after.length - (SEED.length - end))).toBe(
      SEED.slice(start, end).replace('"connectTimeout": 30', '"connectTimeout": 45'),
    );
  });

  it('a write based on a version of the entry is refused once the entry changed, however little, and the file kept', async () => {
    await writeFile(file, SEED);
    const shown = await readServerEntry(file, 'docs');
    // The version tells nothing of the secret: it is not a plain hash of the text with it.
    expect(shown.version).not.toContain(TOKEN);
    expect(shown.version).not.toBe(createHash('sha256').update(TOKEN).digest('base64url'));
    // Another entry changed: this one's version holds.
    await writeFile(file, SEED.replace('https://example.com/mcp', 'https://example.org/mcp'));
    expect((await readServerEntry(file, 'docs')).version).toBe(shown.version);
    // Only its secret changed, by hand: the version moves on, and the write based on it is refused.
    const byHand = SEED.replace(TOKEN, 'sk-live-rotated-by-hand');
    await writeFile(file, byHand);
    expect((await readServerEntry(file, 'docs')).version).not.toBe(shown.version);
    const edited = shown.text.replace('"connectTimeout": 30', '"connectTimeout": 45');
    const error = await refusal(
      replaceServerEntry(file, 'docs', edited, { basedOn: shown.version }),
      'changed_since',
    );
    expect(error.message).toContain('server "docs"');
    expect(error.message).toContain(file);
    expect(error.message).toContain('changed since you opened it — reload');
    expect(await readFile(file, 'utf8')).toBe(byHand);
    // Based on the entry as it is now, it is written.
    const now = await readServerEntry(file, 'docs');
    const written = await replaceServerEntry(file, 'docs', edited, { basedOn: now.version });
    expect(written.changed).toBe(true);
    expect(await readFile(file, 'utf8')).toContain('sk-live-rotated-by-hand');
  });

  it('a placeholder moved to another key keeps its value there; one the file has not is refused', async () => {
    await writeFile(file, SEED);
    const shown = await readServerEntry(file, 'docs');
    const moved = shown.text.replace('"API_TOKEN"', '"GITHUB_TOKEN"');
    await replaceServerEntry(file, 'docs', moved);
    expect(await readFile(file, 'utf8')).toContain(`"GITHUB_TOKEN": "${TOKEN}"`);
    const again = await readServerEntry(file, 'docs');
    expect(again.text).toContain('"GITHUB_TOKEN": "<secret: env.GITHUB_TOKEN>"');
    const made = again.text.replace('<secret: env.LOG_LEVEL>', '<secret: env.NOPE>');
    const before = await readFile(file, 'utf8');
    const error = await refusal(replaceServerEntry(file, 'docs', made), 'secret_placeholder');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(error.field).toBe('servers.docs.env.LOG_LEVEL');
  });

  it('refuses a rename, text that is not an entry, and an entry that would not load', async () => {
    await writeFile(file, SEED);
    const shown = await readServerEntry(file, 'docs');
    await refusal(replaceServerEntry(file, 'docs', `{"renamed": ${shown.text}}`), 'renamed');
    // The same name wrapped is the entry itself.
    expect((await replaceServerEntry(file, 'docs', `{"docs": ${shown.text}}`)).changed).toBe(false);
    const broken = await refusal(replaceServerEntry(file, 'docs', '{"command": '), 'invalid_entry');
    expect(broken.message).toContain('line 1, column');
    const bad = await refusal(
      replaceServerEntry(file, 'docs', shown.text.replace('"command": "node"', '"command": ""')),
      'invalid_server',
    );
    expect(bad.diagnostics.map((d) => d.path)).toContain('servers.docs.command');
    await refusal(replaceServerEntry(file, 'nope', shown.text), 'unknown_server');
    expect(await readFile(file, 'utf8')).toBe(SEED);
  });

  it('a copied entry with placeholders is refused as a new server', async () => {
    await writeFile(file, SEED);
    const { json } = await readServerEntry(file, 'docs');
    const pasted = parseEntryJson(json);
    if (!pasted.ok) throw new Error(pasted.problem);
    expect(pasted.name).toBe('docs');
    const error = await refusal(
      addServer(file, { name: 'copy', entry: pasted.entry }),
      'secret_placeholder',
    );
    expect(error.field).toBe('servers.copy.args[2]');
  });
});

describe('parseEntryJson', () => {
  it('takes an entry, a named entry and one server of mcpServers; refuses several', () => {
    const entry = { command: 'npx' };
    for (const text of [
      JSON.stringify(entry),
      JSON.stringify({ gh: entry }),
      `{ "mcpServers": { "gh": ${JSON.stringify(entry)} } } // from the README`,
    ]) {
      const got = parseEntryJson(text);
      expect(got.ok && got.entry).toEqual(entry);
    }
    expect(parseEntryJson('{"env": {"A": "1"}}')).toMatchObject({ ok: true, name: undefined });
    expect(parseEntryJson('{"mcpServers": {"a": {}, "b": {}}}')).toMatchObject({ ok: false });
    expect(parseEntryJson('[1]')).toMatchObject({ ok: false });
  });
});
