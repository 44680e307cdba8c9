// mcp_search_tools on real server processes: what a query can cost (a 1 MB query in a process with
// a small heap, hostile queries cut before they are split), what it finds (other languages,
// misspellings, parameter descriptions, word groups that hold only in their own field, the
// request's action, the tool's name and first sentence, who the user is) and how much an answer
// may hold, whatever a server's tool definitions weigh.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { type Runtime, SEARCH_TOOL_NAME } from '@epoch-agent/runtime';
import { manyToolServers } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from '../src/tools/search-limits.js';
import { queryTerms } from '../src/tools/search-query.js';
import { useRuntimeHome } from './runtime-helpers.js';

const t = useRuntimeHome();
const CATALOG_SERVER = fileURLToPath(
  new URL('../../../bench/fixtures/catalog-server.mjs', import.meta.url),
);
const SMALL_HEAP_SEARCH = fileURLToPath(
  new URL('./fixtures/search-small-heap.mjs', import.meta.url),
);

function searchTool(runtime: Runtime): EpochTool {
  const tool = runtime.tools.get(SEARCH_TOOL_NAME);
  if (tool === undefined) throw new Error('nothing is deferred');
  return tool;
}

function textOf(result: ToolResult): string {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error(`not a text answer: ${JSON.stringify(result)}`);
  return first.text;
}

async function answer(runtime: Runtime, query: string, limit = 5) {
  const result = await searchTool(runtime).execute(
    { query, limit },
    { signal: AbortSignal.timeout(5000) },
  );
  return {
    text: textOf(result),
    ...(JSON.parse(textOf(result)) as { tools: Found[]; note: string }),
  };
}

interface Found {
  name: string;
  description: string;
  input_schema: { [key: string]: unknown };
}

const names = async (runtime: Runtime, query: string) =>
  (await answer(runtime, query)).tools.map(({ name }) => name);

/** The repo's real servers of these names, every tool deferred. */
async function deferredServers(...wanted: string[]): Promise<Runtime> {
  const all = manyToolServers(t.home.dir);
  await t.home.writeUserConfig(Object.fromEntries(wanted.map((name) => [name, all[name]])));
  return t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
}

/** Catalog servers (bench/fixtures/catalog-server.mjs) of these tools, every tool deferred. */
async function catalogServers(catalogs: Record<string, unknown[]>): Promise<Runtime> {
  const servers: Record<string, unknown> = {};
  for (const [server, tools] of Object.entries(catalogs)) {
    const file = join(t.home.dir, `${server}.json`);
    await writeFile(file, JSON.stringify({ server, tools }));
    servers[server] = { command: process.execPath, args: [CATALOG_SERVER, file] };
  }
  await t.home.writeUserConfig(servers);
  return t.build({ registry: { schemaCache: null }, toolBudgetTokens: 0 });
}

describe('what a query may cost', () => {
  it('a 1 MB query of one-letter words answers, cut, in a process with a 64 MB heap, over 351 tools', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', SMALL_HEAP_SEARCH], {
      env: { ...process.env, EPOCH_HOME: t.home.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(err).not.toContain('heap out of memory');
    expect(code).toBe(0);
    const { tools, hugeFound, found } = JSON.parse(out);
    expect(tools).toBe(351);
    // Its first 500 characters are one-letter words, which name nothing: nothing is found.
    expect(hugeFound).toEqual([]);
    // The same process still searches.
    expect(found[0]).toMatch(/__create_pull_request$/);
  }, 60_000);

  // How long a query takes is measured by `npm run bench` (its goal: 50 ms, warm), never asserted
  // here: a busy machine would decide it. What bounds the time is asserted: a query is read only
  // as far as MAX_QUERY_CHARS, and gives at most MAX_QUERY_TERMS terms.
  it('hostile queries are cut before they are split, and each still answers, over 158 tools', async () => {
    const runtime = await deferredServers(...Object.keys(manyToolServers(t.home.dir)));
    expect(runtime.tools.deferred()).toHaveLength(158);
    const letters = 'bcdefghjklmnopqrstuvwxyz';
    const hostile = {
      '100 kB of one-letter words': Array.from({ length: 50_000 }, (_, i) => letters[i % 24]).join(
        ' ',
      ),
      '1 MB of one word': 'z'.repeat(1_000_000),
      contractions: "it's don't can't won't I'm we'll they've ".repeat(2_000),
      'long unicode': '日本語のテキストを検索する🙂ÄÖÜß'.repeat(5_000),
      'many distinct words': Array.from({ length: 20_000 }, (_, i) => `word${i}`).join(' '),
    };
    // A word past the cut is not read at all.
    expect(queryTerms(`${'x '.repeat(MAX_QUERY_CHARS)}issue`).terms).toEqual([]);
    expect(queryTerms('x issue').terms).not.toEqual([]);
    for (const [label, query] of Object.entries(hostile)) {
      const { terms } = queryTerms(query);
      expect(terms.length, label).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      expect(queryTerms(query.slice(0, MAX_QUERY_CHARS)), label).toEqual(queryTerms(query));
      expect(Array.isArray((await answer(runtime, query)).tools), label).toBe(true);
    }
  });
});

describe('what a query finds', () => {
  it('German and Chinese queries find the tool', async () => {
    const runtime = await deferredServers('github', 'filesystem', 'slack');
    // Not one English word among them: each is found through the word table alone.
    const top3 = async (query: string) => (await names(runtime, query)).slice(0, 3);
    expect(await top3('Neuen Ordner anlegen')).toContain('mcp__filesystem__create_directory');
    expect(await top3('Datei lesen')).toContain('mcp__filesystem__read_text_file');
    expect(await top3('创建一个新目录')).toContain('mcp__filesystem__create_directory');
    expect(await top3('在频道里发送消息')).toContain('mcp__slack__post_message');
  });

  it('a misspelt word finds the tool', async () => {
    const runtime = await deferredServers('filesystem');
    expect(await names(runtime, 'craete a direcotry')).toContain(
      'mcp__filesystem__create_directory',
    );
  });

  it('a word no tool has, two letters swapped from one a tool has, finds that tool', async () => {
    const runtime = await catalogServers({
      ops: [
        ['schedule_downtime', 'Schedule downtime', 'Schedule a downtime.', {}, 'w'],
        ['list_monitors', 'List monitors', 'List the monitors.', {}, 'r'],
      ],
    });
    // A near spelling is a letter or two away: "shcedule" is two from "schedule".
    expect(await names(runtime, 'shcedule')).toEqual(['mcp__ops__schedule_downtime']);
  });

  it("a word said only in a parameter's description finds the tool", async () => {
    const runtime = await catalogServers({
      records: [
        [
          'archive_record',
          'Archive record',
          'Archive a record.',
          { reason: 'Kept for the quarantine log' },
          'w',
        ],
        ['read_record', 'Read record', 'Read a record.', { id: 'The record' }, 'r'],
      ],
    });
    expect((await names(runtime, 'quarantine'))[0]).toBe('mcp__records__archive_record');
  });

  it('a word group holds only in its own field: "rename" finds moving a file, not moving a card', async () => {
    const runtime = await catalogServers({
      files: [
        [
          'move_file',
          'Move file',
          'Move a file to another path.',
          { from: 'Path', to: 'Path' },
          'w',
        ],
      ],
      board: [
        [
          'move_card',
          'Move card',
          'Move a card to another column of the board.',
          { card: 'Card id' },
          'w',
        ],
      ],
    });
    expect(await names(runtime, 'rename')).toEqual(['mcp__files__move_file']);
    expect(await names(runtime, 'move')).toHaveLength(2);
  });

  it('words in quotes or after # count less than the task: a post is found, not a release', async () => {
    const runtime = await catalogServers({
      chat: [
        [
          'post_message',
          'Post message',
          'Post a message to a channel.',
          { channel: 'Channel', text: 'Text' },
          'w',
        ],
      ],
      deploys: [
        [
          'list_releases',
          'List releases',
          'List the releases of a repository, newest first.',
          {},
          'r',
        ],
      ],
    });
    expect((await names(runtime, "post 'deploy finished' in #releases"))[0]).toBe(
      'mcp__chat__post_message',
    );
  });

  it('a question ranks the tools that only read first; a request to change, the others', async () => {
    const runtime = await catalogServers({
      notes: [
        [
          'list_comments',
          'List comments',
          'List the comments on a record.',
          { record: 'Record id' },
          'r',
        ],
        [
          'create_comment',
          'Create comment',
          'Create a comment on a record, with the comment text.',
          { record: 'Record id', text: 'The comment' },
          'w',
        ],
      ],
    });
    // Said as neither, the words decide: the writing tool says "comment" more.
    expect((await names(runtime, 'comments on record rec1'))[0]).toBe('mcp__notes__create_comment');
    expect((await names(runtime, 'what are the comments on record rec1?'))[0]).toBe(
      'mcp__notes__list_comments',
    );
    expect((await names(runtime, 'add a comment on record rec1'))[0]).toBe(
      'mcp__notes__create_comment',
    );
  });
  it("a request's verb finds the tool of its action: to add a record is to create one", async () => {
    const runtime = await catalogServers({
      records: [
        ['update_record', 'Update record', 'Update a record of a table.', { id: 'Record id' }, 'w'],
        [
          'create_record',
          'Create record',
          'Create a record in a table, with the values given.',
          { fields: 'Field values' },
          'w',
        ],
      ],
    });
    // Both write and share every word of the request; the updating tool says them in fewer.
    expect((await names(runtime, 'add a record to the table'))[0]).toBe(
      'mcp__records__create_record',
    );
    expect((await names(runtime, 'change a record of the table'))[0]).toBe(
      'mcp__records__update_record',
    );
  });

  it('a tool whose name the request says ranks above one whose other fields say it', async () => {
    const runtime = await catalogServers({
      boards: [['add_view', 'Table', 'Create a table of a board.', { table: 'The table' }, 'w']],
      base: [
        [
          'create_table',
          'Create table',
          'Create one in a base, with the fields given: each with a name, a type and the ' +
            'options of its values.',
          { base: 'Base' },
          'w',
        ],
      ],
      // Other servers' tools, so that "create" and "table" are words of some tools, not of all.
      other: [
        ['get_weather', 'Get weather', 'Get the weather of a city.', {}, 'r'],
        ['send_mail', 'Send mail', 'Send an e-mail.', {}, 'w'],
      ],
    });
    expect((await names(runtime, 'create a table called Vendors'))[0]).toBe(
      'mcp__base__create_table',
    );
  });

  it("a description's first sentence, which says what the tool does, counts more than the rest", async () => {
    const runtime = await catalogServers({
      billing: [
        [
          'send_invoice',
          'Send invoice',
          'Send an invoice. To list customers, or to find customers by name, use the customer ' +
            'tools first.',
          { invoice: 'Invoice id' },
          'w',
        ],
        [
          'list_accounts',
          'List accounts',
          'List the customers. Newest first, with their names and their e-mail addresses and ' +
            'their plans and usage.',
          {},
          'r',
        ],
      ],
    });
    expect((await names(runtime, 'customers'))[0]).toBe('mcp__billing__list_accounts');
  });

  it('a word of another language is found with or without its accents', async () => {
    const runtime = await catalogServers({
      calendar: [['list_meetings', 'List meetings', 'List the meetings of a day.', {}, 'r']],
      files: [['list_files', 'List files', 'List the files of a folder.', {}, 'r']],
    });
    expect(await names(runtime, 'reuniones')).toEqual(['mcp__calendar__list_meetings']);
    expect(await names(runtime, 'Reunión')).toEqual(['mcp__calendar__list_meetings']);
  });

  it('a request about who the user is finds the tool that says so, though they share no word', async () => {
    const runtime = await catalogServers({
      github: [
        ['get_me', 'Get me', 'Get details of the authenticated GitHub user.', {}, 'r'],
        ['search_users', 'Search users', 'Search for GitHub users.', { q: 'Name' }, 'r'],
      ],
    });
    expect((await names(runtime, 'who am I on GitHub'))[0]).toBe('mcp__github__get_me');
  });
});

describe('what an answer may hold', () => {
  it('a tool with a 10 MB description and a 2,000-parameter schema is answered cut, within 10,000 tokens', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, i) => [
        `field${i}`,
        { type: 'string', description: 'x'.repeat(500) },
      ]),
    );
    const big = {
      name: 'huge_tool',
      description: `Export the ledger. ${'y'.repeat(10_000_000)}`,
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties,
        required: ['field0'],
      },
    };
    const small = {
      name: 'small_ledger_tool',
      description: 'Count the ledger.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { n: { type: 'integer' } },
      },
    };
    const runtime = await catalogServers({ ledger: [big, small] });
    const { text, tools } = await answer(runtime, 'ledger', 20);
    expect(text.length).toBeLessThanOrEqual(40_000);
    const huge = tools.find(({ name }) => name === 'mcp__ledger__huge_tool');
    expect(huge?.description.length).toBeLessThan(2_100);
    expect(huge?.description).toContain('more characters not shown');
    expect(JSON.stringify(huge?.input_schema).length).toBeLessThan(7_000);
    expect(huge?.input_schema).toMatchObject({ type: 'object', required: ['field0'] });
    expect(String(huge?.input_schema.$comment)).toContain('of its 2000 parameters');
    // `$schema` is left out, of a small schema given whole too.
    expect(text).not.toContain('$schema');
    const whole = tools.find(({ name }) => name === 'mcp__ledger__small_ledger_tool');
    expect(whole?.input_schema).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
  });
});
