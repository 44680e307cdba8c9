// Each result reaches the model once, without what is for the user only, its structured content
// checked against the tool's outputSchema: on both call paths (a 2025-era stdio server, whose calls
// go through direct-calls.ts; the same server over Streamable HTTP, whose calls go through the
// SDK's request), with the hand-written fixtures/result-shapes-server.mjs; and a real
// server-filesystem read of a 60 KB file.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@epoch-agent/protocol';
import { remoteConfig, stdioConfig } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpEpochTool } from '../src/tools/epoch-tools.js';
import { modelContent } from '../src/tools/one-copy.js';

const SERVER = join(
  dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'result-shapes-server.mjs',
);
const FILESYSTEM = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
);
const CTX = { signal: new AbortController().signal };
const DATA = { count: 2, rows: [{ name: 'alpha' }, { name: 'beta' }] };

let registry: McpRegistry;
let http: ChildProcess;
let files: string;

beforeAll(async () => {
  http = spawn(process.execPath, [SERVER, 'http'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(
    createInterface({ input: http.stdout as NodeJS.ReadableStream }),
    'line',
  )) as [string];
  const port = /^listening (\d+)$/.exec(line)?.[1];
  files = await mkdtemp(join(tmpdir(), 'epoch-one-copy-'));
  registry = new McpRegistry({ schemaCache: null });
  const statuses = await registry.connectAll(
    [
      stdioConfig('stdio', process.execPath, [SERVER]),
      remoteConfig('http', 'http', `http://127.0.0.1:${port}/mcp`),
      stdioConfig('files', process.execPath, [FILESYSTEM, files]),
    ],
    'user',
  );
  expect(statuses.map(({ state }) => state)).toEqual(['connected', 'connected', 'connected']);
}, 60_000);

afterAll(async () => {
  await registry?.disconnectAll();
  http?.stdin?.end();
  if (http !== undefined && http.exitCode === null) await once(http, 'exit');
  await rm(files, { recursive: true, force: true });
});

function tool(server: string, name: string): McpEpochTool {
  const found = registry
    .toolsOf(server)
    .find(({ target }) => target.kind === 'tool' && target.name === name);
  if (found === undefined) throw new Error(`no tool ${name} on ${server}`);
  return found;
}

function texts(result: ToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

describe.each(['stdio', 'http'])('a result over %s', (server) => {
  it('text that is the JSON of its structured content: the text, once', async () => {
    const result = await tool(server, 'same').execute({}, CTX);
    expect(texts(result)).toEqual([JSON.stringify({ b: 1, a: 'x' }, null, 2)]);
    expect(result.structuredContent).toEqual({ a: 'x', b: 1 });
  });

  it('a summary beside the data of an outputSchema: the data as JSON, the summary dropped; a person gets both', async () => {
    const result = await tool(server, 'summary').execute({}, CTX);
    expect(texts(result)).toEqual([JSON.stringify(DATA)]);
    const uncut = await tool(server, 'summary').executeUncut({}, CTX);
    expect(texts(uncut)).toEqual(['Found 2 rows.']);
    expect(uncut.structuredContent).toEqual(DATA);
  });

  it('a text that carries every string and number of the data, or a tool with no outputSchema: the text', async () => {
    expect(texts(await tool(server, 'carried').execute({}, CTX))).toEqual([
      'Found 2 rows: alpha, beta.',
    ]);
    expect(texts(await tool(server, 'unschemed').execute({}, CTX))).toEqual(['Found 2 rows.']);
  });

  it('structured content that breaks its outputSchema is a tool error naming the paths and the reasons', async () => {
    for (const run of ['execute', 'executeUncut'] as const) {
      const result = await tool(server, 'wrong')[run]({}, CTX);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const [text] = texts(result);
      expect(text).toContain(
        `MCP server "${server}" tool "wrong" returned structuredContent that does not match its outputSchema:`,
      );
      expect(text).toContain('structuredContent/count must be integer');
      expect(text).toContain('structuredContent/rows/0/name must be string');
    }
  });

  it('an outputSchema and no structuredContent is a tool error; an error result is not checked', async () => {
    const missing = await tool(server, 'missing').execute({}, CTX);
    expect(missing).toEqual({
      content: [
        {
          type: 'text',
          text: `MCP server "${server}" tool "missing" declares an outputSchema but returned no structuredContent.`,
        },
      ],
      isError: true,
    });
    expect(await tool(server, 'failed').execute({}, CTX)).toEqual({
      content: [{ type: 'text', text: 'the table is locked' }],
      isError: true,
    });
  });

  it('a block for the user only goes to forUser with its priority; the model gets the others', async () => {
    const result = await tool(server, 'audience').execute({}, CTX);
    expect(texts(result)).toEqual(['for both', 'for the model']);
    expect(result.forUser).toEqual([
      {
        type: 'text',
        text: 'shown to the user only',
        annotations: { audience: ['user'], priority: 0.9 },
      },
    ]);
    expect(result.content[0]?.annotations).toEqual({ audience: ['user', 'assistant'] });
  });
});

describe('a real server-filesystem read of a 60 KB file', () => {
  it('reaches the model once: its text, not its structured copy as well', async () => {
    const text = 'A line of a file that the model asked to read, with words in it.\n'.repeat(940);
    expect(text.length).toBeGreaterThan(60_000);
    await writeFile(join(files, 'notes.txt'), text);
    const read = tool('files', 'read_text_file');
    expect(read.outputSchema).toBeDefined();
    const uncut = await read.executeUncut({ path: join(files, 'notes.txt') }, CTX);
    // The server sends it twice.
    expect(texts(uncut)).toEqual([text]);
    expect(uncut.structuredContent).toEqual({ content: text });
    const result = await read.execute({ path: join(files, 'notes.txt') }, CTX);
    expect(result.content).toEqual([{ type: 'text', text }]);
    // And an adapter, which knows no outputSchema, keeps that one copy.
    expect(modelContent(result, { outputSchema: false })).toEqual([{ type: 'text', text }]);
  });
});

describe('modelContent on its own', () => {
  it('keeps a caption before an image when the structured content takes the text’s place', () => {
    const image = { type: 'image', data: 'iVBO', mimeType: 'image/png' } as const;
    const result: ToolResult = {
      content: [image, { type: 'text', text: 'a summary' }, image],
      structuredContent: { n: 1 },
    };
    expect(modelContent(result, { outputSchema: true })).toEqual([
      image,
      { type: 'text', text: '{"n":1}' },
      image,
    ]);
  });

  it('gives structured content with no text at all as JSON, and drops blocks for the user only', () => {
    const result: ToolResult = {
      content: [{ type: 'text', text: 'private', annotations: { audience: ['user'] } }],
      structuredContent: { n: 1 },
    };
    expect(modelContent(result, { outputSchema: false })).toEqual([
      { type: 'text', text: '{"n":1}' },
    ]);
  });
});
