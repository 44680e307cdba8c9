// list_resources as the model uses it, on McpClient and real servers: the client walks every page
// of resources/list and resources/templates/list, and the tool answers with the whole list, or, when
// that is too long for one answer, with a cut that says what it left out and how to narrow it or
// read on. The model never sees a cursor. A stop reaches the server as notifications/cancelled.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@epoch-agent/protocol';
import { stdioConfig } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../src/config/output-tokens.js';
import { McpClient } from '../src/connection/client.js';
import { type McpEpochTool, toEpochTools } from '../src/tools/epoch-tools.js';
import { LISTING_BUDGET_CHARS } from '../src/tools/resource-listing.js';
import { defaultToolResultsDir } from '../src/tools/result-files.js';
import type { StdioServerConfig } from '../src/types.js';
import {
  cancelledIds,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { rejection } from './support/waiting.js';

const SHAPES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tool-shapes-server.mjs');

interface Entry {
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly name: string;
}

interface Listing {
  readonly resources: Entry[];
  readonly note?: string;
}

function shapesConfig(flags: readonly string[]): StdioServerConfig {
  return stdioConfig('shapes', process.execPath, [SHAPES, ...flags], {
    timeoutMs: 30_000,
    connectTimeoutMs: 20_000,
  });
}

/** The list_resources tool of a connected client, as the registry builds it. */
function listTool(client: McpClient): McpEpochTool {
  const state = client.state;
  if (state.kind !== 'connected') throw new Error(`expected connected, got ${state.kind}`);
  const tools = toEpochTools({
    server: client.name,
    source: 'user',
    tools: state.tools,
    resources: state.resources,
    backend: client,
    cap: {
      maxTokens: () => DEFAULT_MAX_OUTPUT_TOKENS,
      dir: defaultToolResultsDir(),
      redact: client.redactor,
    },
  });
  const tool = tools.find((candidate) => candidate.target.kind === 'list_resources');
  if (tool === undefined) throw new Error('no list_resources tool');
  return tool;
}

function text(result: ToolResult): string {
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error(`expected text, got ${JSON.stringify(block)}`);
  return block.text;
}

async function list(
  tool: McpEpochTool,
  args: Record<string, unknown> = {},
): Promise<{ listing: Listing; text: string }> {
  const result = await tool.execute(args, { signal: new AbortController().signal });
  expect(result.isError).toBeUndefined();
  const answer = text(result);
  return { listing: JSON.parse(answer) as Listing, text: answer };
}

const where = (entry: Entry): string | undefined => entry.uri ?? entry.uriTemplate;

describe('a server with a few resources over several pages', () => {
  let client: McpClient;

  beforeAll(async () => {
    client = new McpClient({ config: shapesConfig([]) });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('answers with the template and every page of resources at once, with no cursor and no note', async () => {
    const { listing, text: answer } = await list(listTool(client));
    expect(listing.resources.map(where)).toEqual([
      'fixture://doc/{n}',
      ...[1, 2, 3, 4, 5].map((n) => `fixture://doc/${n}`),
    ]);
    expect(listing.note).toBeUndefined();
    expect(answer).not.toMatch(/cursor/i);
  });

  it('describes filter and offset to the model, and no cursor', () => {
    const tool = listTool(client);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['filter', 'offset']);
    expect(tool.description).toContain('`filter`');
    expect(tool.description).toContain('`offset`');
    expect(`${tool.description}${JSON.stringify(tool.inputSchema)}`).not.toMatch(/cursor/i);
  });
});

describe('a server with more resources than one answer holds', () => {
  const COUNT = 600;
  // The template, then fixture://doc/1 .. fixture://doc/600.
  const ALL = [
    'fixture://doc/{n}',
    ...Array.from({ length: COUNT }, (_, i) => `fixture://doc/${i + 1}`),
  ];
  let client: McpClient;
  let tool: McpEpochTool;

  beforeAll(async () => {
    // 12 pages of 50: well within the 50 pages a list may take.
    client = new McpClient({ config: shapesConfig([`--resources=${COUNT}`, '--page-size=50']) });
    await client.connect();
    tool = listTool(client);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('cuts the answer to its budget, says how many were left out, and offset reads on to the end exactly once each', async () => {
    const first = await list(tool);
    const shown = first.listing.resources.length;
    expect(shown).toBeGreaterThan(1);
    expect(shown).toBeLessThan(ALL.length);
    expect(first.text.length).toBeLessThan(LISTING_BUDGET_CHARS + 1_000);
    expect(first.listing.note).toContain(`Showing entries 1-${shown} of ${ALL.length};`);
    expect(first.listing.note).toContain(`${ALL.length - shown} more are not shown`);
    expect(first.listing.note).toContain('filter');
    expect(first.listing.note).toContain(`offset ${shown}`);

    const seen = first.listing.resources.map(where);
    let note = first.listing.note ?? '';
    for (let calls = 1; note.includes('more are not shown'); calls++) {
      expect(calls).toBeLessThan(20);
      const next = await list(tool, { offset: seen.length });
      expect(next.text.length).toBeLessThan(LISTING_BUDGET_CHARS + 1_000);
      expect(next.listing.note).toContain(`Showing entries ${seen.length + 1}-`);
      seen.push(...next.listing.resources.map(where));
      note = next.listing.note ?? '';
    }
    expect(seen).toEqual(ALL);
    // The last answer reaches the end and says so, with nothing more to read.
    expect(note).toMatch(new RegExp(`^Showing entries \\d+-${ALL.length} of ${ALL.length}\\.$`));
  });

  it('filter keeps the entries whose fields hold every word, in any case', async () => {
    const expected = [
      'fixture://doc/42',
      ...Array.from({ length: 10 }, (_, i) => `fixture://doc/42${i}`),
    ];
    const byUri = await list(tool, { filter: 'doc/42' });
    expect(byUri.listing.resources.map(where)).toEqual(expected);
    expect(byUri.listing.note).toBeUndefined();
    // Two words: one in the name, one in the mimeType.
    const twoWords = await list(tool, { filter: '  DOC-42   Plain ' });
    expect(twoWords.listing.resources.map(where)).toEqual(expected);
    // A template matches on its description too.
    const template = await list(tool, { filter: 'counted' });
    expect(template.listing.resources).toEqual([
      {
        uriTemplate: 'fixture://doc/{n}',
        name: 'doc-by-number',
        description: 'Document n, counted from 1.',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('a filter that matches nothing, or an offset past the end, says what there is', async () => {
    const none = await list(tool, { filter: 'no-such-thing' });
    expect(none.listing.resources).toEqual([]);
    expect(none.listing.note).toBe(
      `No entry of MCP server "shapes" matches filter "no-such-thing" (it lists ${ALL.length} in all). Try fewer or other words, or leave filter out.`,
    );
    const past = await list(tool, { filter: 'doc/42', offset: 11 });
    expect(past.listing.resources).toEqual([]);
    expect(past.listing.note).toContain('offset 11 is past the end');
    expect(past.listing.note).toContain('has 11 entries matching filter "doc/42"');
  });
});

describe('a stop while the tool walks the pages', () => {
  const servers = useRecordingClients();

  it('reaches the server as notifications/cancelled for the page in flight, and no page follows', async () => {
    const { client, file } = servers.start({
      capabilities: { tools: {}, resources: {} },
      forever: ['resources/list'],
      hangAfter: { 'resources/list': 2 },
    });
    await client.connect();
    const stop = new AbortController();
    const listing = rejection(listTool(client).execute({}, { signal: stop.signal }));
    await waitForRecords(
      file,
      (e) => e.filter((r) => r.in?.method === 'resources/list').length === 3,
    );
    stop.abort();
    const error = await listing;
    expect(error.code).toBe('aborted');
    expect(error.message).toContain('MCP server "rec": resources/list was stopped by the user');
    const pages = requests(file, 'resources/list');
    expect(pages.map((page) => page.in?.params?.cursor)).toEqual([undefined, '1', '2']);
    const entries = await waitForRecords(file, (e) => cancelledIds(e).length > 0);
    expect(cancelledIds(entries)).toEqual([pages[2]?.in?.id]);
    expect(requests(file, 'resources/list')).toHaveLength(3);
    expect(client.state.kind).toBe('connected');
  });
});
