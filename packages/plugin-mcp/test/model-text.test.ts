// What reaches the model of a server's words is what a person would see, and bounded: through a
// real McpRegistry connect of a server that hides instructions in tag and zero-width characters,
// escape sequences and bidi overrides (hidden-text-server.mjs), the offered tools' titles,
// descriptions and schema descriptions are clean, the description is cut with a note, the enum
// value the server expects comes back unchanged with the call, which reaches the server by its raw
// name; its instructions are clean and cut. Then modelText's and modelTool's edges one by one.
import { fileURLToPath } from 'node:url';
import { stdioConfig } from '@epoch-agent/testkit';
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INSTRUCTIONS_CHARS } from '../src/connection/server-identity.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpEpochTool } from '../src/tools/epoch-tools.js';
import {
  MAX_TOOL_DESCRIPTION_CHARS,
  MAX_TOOL_TITLE_CHARS,
  modelText,
  modelTool,
} from '../src/tools/model-text.js';

const SERVER = fileURLToPath(new URL('./fixtures/hidden-text-server.mjs', import.meta.url));
const DESCRIPTION_CHARS = 10 * 1024 * 1024;
const INSTRUCTIONS_CHARS = 1024 * 1024;

// Written here, not taken from the module: what must never reach a model. C0 but line feed and
// tab, DEL, C1, bidi, zero-width and other invisible characters, tags, supplementary selectors.
const HIDDEN = new RegExp(
  '[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u115F\\u1160\\u180E\\u200B-\\u200F' +
    '\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\u3164\\uFEFF\\uFFA0\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}]',
  'u',
);

function cutNote(what: string, sent: number, kept: number): string {
  return `[${what} cut: the server sent ${sent} characters; the first ${kept} are kept]`;
}

describe('a server hiding words from the person, through a real registry', () => {
  let registry: McpRegistry;
  let poisoned: McpEpochTool;
  let plain: McpEpochTool;

  beforeAll(async () => {
    registry = new McpRegistry({ schemaCache: null });
    const config = stdioConfig('hidden', process.execPath, [SERVER], {
      timeoutMs: 30_000,
      connectTimeoutMs: 30_000,
    });
    await registry.connectAll([config], 'user');
    const tools = registry.toolsOf('hidden');
    const find = (raw: string) => {
      const tool = tools.find(({ target }) => target.kind === 'tool' && target.name === raw);
      if (tool === undefined)
        throw new Error(`no tool ${raw}: ${JSON.stringify(registry.statuses())}`);
      return tool;
    };
    poisoned = find('read.file');
    plain = find('plain');
  }, 60_000);

  afterAll(async () => {
    await registry?.disconnectAll();
  });

  it('offers the description clean, cut at the bound, with a note of what was sent', () => {
    const visible = 'Reads a file of the project.\nGive it a path.\tNothing else.\n';
    const kept = visible + 'x'.repeat(MAX_TOOL_DESCRIPTION_CHARS - visible.length);
    expect(poisoned.description).toBe(
      `${kept}\n${cutNote('description', DESCRIPTION_CHARS, MAX_TOOL_DESCRIPTION_CHARS)}`,
    );
    expect(poisoned.description).not.toMatch(HIDDEN);
    expect(poisoned.description).not.toContain('secret title');
  });

  it('offers titles, annotations and schema texts clean, and leaves the enum and default alone', () => {
    expect(poisoned.title).toBe('Read elif safely');
    expect(poisoned.annotations.title).toBe('Reader');
    expect(poisoned.annotations.readOnlyHint).toBe(true);
    const properties = poisoned.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.path?.description).toBe('The path to read.');
    expect(properties.mode).toEqual({
      type: 'string',
      title: 'Mode',
      enum: ['plain', 'joined\u200Dword'],
      default: 'joined\u200Dword',
    });
    expect(poisoned.outputSchema).toEqual({
      type: 'object',
      title: 'File text',
      properties: { text: { type: 'string', description: 'Its text.' } },
    });
    expect(plain.description).toBe('Nothing hidden here. ❤️ 👨‍👩‍👧');
    expect(plain.title).toBe('Plain');
  });

  it('calls the server by its raw name, with the enum value it listed', async () => {
    const result = await poisoned.execute(
      { path: 'a.txt', mode: 'joined\u200Dword' },
      { signal: new AbortController().signal },
    );
    const [block] = result.content;
    if (block?.type !== 'text') throw new Error(JSON.stringify(result));
    expect(JSON.parse(block.text)).toMatchObject({
      name: 'read.file',
      arguments: { path: 'a.txt', mode: 'joined\u200Dword' },
    });
  });

  it('keeps the instructions clean and cut, with a note', () => {
    const [status] = registry.statuses();
    if (status?.state !== 'connected') throw new Error(JSON.stringify(status));
    const visible = 'Use this server for project files.\n';
    expect(status.instructions).toBe(
      `${visible}${'y'.repeat(MAX_INSTRUCTIONS_CHARS - visible.length)}\n${cutNote('instructions', INSTRUCTIONS_CHARS, MAX_INSTRUCTIONS_CHARS)}`,
    );
  });
});

describe('modelText', () => {
  it('returns the very text when nothing needs doing, emoji and every script included', () => {
    const text = 'Lit un fichier. Читает файл. 读取文件。 ファイル 📄 ❤️ 👩🏽‍💻 🏳️‍🌈 #️⃣\n\tnext';
    expect(modelText(text, 2048, 'description')).toBe(text);
    expect(modelText('', 2048, 'description')).toBe('');
  });

  it('ends lines with a line feed whatever the server ended them with', () => {
    expect(modelText('one\r\ntwo\rthree\u2028four\u2029five\n', 100, 'description')).toBe(
      'one\ntwo\nthree\nfour\nfive\n',
    );
  });

  it('gives nothing for a text of nothing but invisible characters', () => {
    expect(
      modelText('\u200B\u200C\u200D\u2060\uFEFF\u00AD\u{E0041}\u{E0100}\u202E\u0007', 100, 'd'),
    ).toBe('');
  });

  it('drops a whole escape sequence, a window title with it, and a lone surrogate', () => {
    expect(modelText('a\u001b[1;31mb\u001b]0;title\u0007c\u009b2Jd\u001b7e\uD800f', 100, 'd')).toBe(
      'abcdef',
    );
  });

  it('keeps a joiner between emoji and one presentation selector, and drops the rest', () => {
    expect(
      modelText('a\u200Db \u200D😀 😀\u200D\u200D😀 x\uFE0F\uFE0F \uFE0F 👨‍👩', 100, 'd'),
    ).toBe('ab 😀 😀😀 x\uFE0F  👨‍👩');
  });

  it('never cuts a surrogate pair in two, nor leaves a joiner last', () => {
    // '😀' is two UTF-16 units: a cut at 3 would keep half of it.
    expect(modelText('ab😀cd', 3, 'description')).toBe(`ab\n${cutNote('description', 6, 2)}`);
    expect(modelText('ab😀cd', 4, 'description')).toBe(`ab😀\n${cutNote('description', 6, 4)}`);
    expect(modelText('👨‍👩‍👧', 3, 'description')).toBe(`👨\n${cutNote('description', 8, 2)}`);
  });

  it('cuts at the bound exactly, and not a character before it', () => {
    const text = 'z'.repeat(2048);
    expect(modelText(text, 2048, 'instructions')).toBe(text);
    expect(modelText(`${text}!`, 2048, 'instructions')).toBe(
      `${text}\n${cutNote('instructions', 2049, 2048)}`,
    );
  });

  it('cleans only the start of a huge text: invisible padding cannot push words in', () => {
    const text = `a${'\u200B'.repeat(100_000)}hidden words`;
    expect(modelText(text, 100, 'description')).toBe(
      `a\n${cutNote('description', text.length, 1)}`,
    );
  });
});

describe('modelTool', () => {
  const tool: Tool = {
    name: 'clean',
    title: 'Clean',
    description: 'Nothing to do. ❤️',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'string', description: 'First.' },
        b: { type: 'string', description: 'Second.', enum: ['x\u200By'] },
        description: { type: 'string', description: 'A property named description.' },
      },
    },
    outputSchema: { type: 'object', title: 'Out' },
    annotations: { title: 'Clean', readOnlyHint: true },
  };

  it('returns the same object when nothing changes, data values with invisibles included', () => {
    expect(modelTool(tool)).toBe(tool);
  });

  it('copies only what changed, and cuts the title with a note', () => {
    const long = 'T'.repeat(MAX_TOOL_TITLE_CHARS + 10);
    const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    const changed: Tool = {
      ...tool,
      title: `${long}\n`,
      inputSchema: {
        ...tool.inputSchema,
        properties: { ...properties, description: { type: 'string', description: 'Named\u200B.' } },
      },
    };
    const made = modelTool(changed);
    expect(made.title).toBe(
      `${'T'.repeat(MAX_TOOL_TITLE_CHARS)} ${cutNote('title', long.length + 1, MAX_TOOL_TITLE_CHARS)}`,
    );
    const madeProperties = made.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(madeProperties.description).toEqual({ type: 'string', description: 'Named.' });
    expect(madeProperties.a).toBe(properties.a);
    expect(madeProperties.b).toBe(properties.b);
    expect(made.outputSchema).toBe(tool.outputSchema);
    expect(made.annotations).toBe(tool.annotations);
    expect(changed.title).toBe(`${long}\n`);
  });

  it('puts a space for a line break or a tab in a title, and drops a title of nothing', () => {
    const made = modelTool({
      ...tool,
      title: '\u200B\u202E',
      annotations: { title: 'Two\r\nlines\there' },
    });
    expect(made).not.toHaveProperty('title');
    expect(made.annotations?.title).toBe('Two lines here');
  });
});
