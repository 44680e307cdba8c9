// The 2026-era Streamable HTTP headers (SEP-2243), on a real server on 127.0.0.1 that records the
// headers it received: Mcp-Method on every request and Mcp-Name on a call; a marked tool parameter
// mirrored into Mcp-Param-{name}, encoded as the spec says; and a tool whose marks break the rules
// not offered, with a warning that names the server, the tool and why.
import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { encodeValue, scanParamHeaders } from '../src/transport/param-headers.js';
import { type ModernTool, startModernServer } from './support/modern-http-server.js';
import { memoryLogger } from './support/recording.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(tools: readonly ModernTool[]) {
  const server = await startModernServer({ tools });
  cleanups.push(() => server.stop());
  const logger = memoryLogger();
  const client = new McpClient({ config: remoteConfig('hdr', 'http', server.url), logger });
  cleanups.push(() => client.close());
  await client.connect();
  return { server, client, logger };
}

const QUERY_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    priority: { type: 'integer', 'x-mcp-header': 'Priority' },
    dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
    padded: { type: 'string', 'x-mcp-header': 'Padded' },
    empty: { type: 'string', 'x-mcp-header': 'Empty' },
    missing: { type: 'string', 'x-mcp-header': 'Missing' },
    nothing: { type: 'string', 'x-mcp-header': 'Nothing' },
    where: {
      type: 'object',
      properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } },
    },
    sql: { type: 'string' },
  },
};

const QUERY: ModernTool = { name: 'query', inputSchema: QUERY_SCHEMA };

describe('2026-era Streamable HTTP headers', () => {
  it('every request carries Mcp-Method, a call Mcp-Name, and a marked parameter its Mcp-Param header', async () => {
    const { server, client } = await connected([QUERY]);
    await client.callTool('query', {
      region: 'us-west1',
      priority: 42,
      dryRun: false,
      greeting: 'Hello, 世界',
      padded: ' x ',
      empty: '',
      nothing: null,
      where: { zone: 'b' },
      sql: 'SELECT 1',
    });
    for (const { method, headers } of server.records.filter(({ id }) => id !== undefined)) {
      expect(headers['mcp-method']).toBe(method);
      expect(headers['mcp-protocol-version']).toBe('2026-07-28');
    }
    const [call] = server.requests('tools/call');
    const params = Object.fromEntries(
      Object.entries(call?.headers ?? {}).filter(([name]) => name.startsWith('mcp-param-')),
    );
    expect(call?.headers['mcp-name']).toBe('query');
    expect(params).toEqual({
      'mcp-param-region': 'us-west1',
      'mcp-param-priority': '42',
      'mcp-param-dry-run': 'false',
      'mcp-param-greeting': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
      'mcp-param-padded': `=?base64?${Buffer.from(' x ').toString('base64')}?=`,
      'mcp-param-empty': '=?base64??=',
      'mcp-param-zone': 'b',
    });
  });

  it('a tool whose x-mcp-header breaks the rules is not offered, with a warning naming the server, the tool and why', async () => {
    const { server, client, logger } = await connected([
      { name: 'fine', inputSchema: QUERY_SCHEMA },
      {
        name: 'float',
        inputSchema: {
          type: 'object',
          properties: { score: { type: 'number', 'x-mcp-header': 'Score' } },
        },
      },
      {
        name: 'twice',
        inputSchema: {
          type: 'object',
          properties: {
            a: { type: 'string', 'x-mcp-header': 'MyField' },
            b: { type: 'string', 'x-mcp-header': 'myfield' },
          },
        },
      },
      {
        name: 'spaced',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'string', 'x-mcp-header': 'My Field' } },
        },
      },
      {
        name: 'branch',
        inputSchema: {
          type: 'object',
          anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }],
        },
      },
      { name: 'plain' },
    ]);
    const { state } = client;
    expect(state.kind).toBe('connected');
    const offered = state.kind === 'connected' ? state.tools.map(({ name }) => name) : [];
    expect(offered).toEqual(['fine', 'plain']);
    const warnings = logger.lines.filter(({ level }) => level === 'warn');
    expect(warnings.map(({ fields }) => fields?.tool)).toEqual([
      'float',
      'twice',
      'spaced',
      'branch',
    ]);
    for (const { message, fields } of warnings) {
      expect(fields?.server).toBe('hdr');
      expect(message).toContain('"hdr"');
      expect(message).toContain(`"${String(fields?.tool)}" is not offered`);
    }
    const [float, twice, spaced, branch] = warnings.map(({ message }) => message);
    expect(float).toContain('of type "number"');
    expect(twice).toContain('repeats "MyField"');
    expect(spaced).toContain('not a valid HTTP header name');
    expect(branch).toContain('not reached from the root through "properties" alone');
    // What is offered still works; nothing was asked of the tools left out.
    await client.callTool('plain', {});
    expect(server.requests('tools/call').map(({ params }) => params.name)).toEqual(['plain']);
  });
});

describe('x-mcp-header rules', () => {
  it('a mark at the root, not a string, or under items, $defs or if/then is invalid', () => {
    const invalid = [
      { type: 'object', 'x-mcp-header': 'Root' },
      { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 7 } } },
      { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': '' } } },
      { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
      {
        $defs: { d: { type: 'string', 'x-mcp-header': 'Def' } },
        properties: { a: { $ref: '#/$defs/d' } },
      },
      { if: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
      { properties: { a: { type: 'object', 'x-mcp-header': 'A' } } },
    ];
    for (const schema of invalid) expect(scanParamHeaders(schema)).toMatchObject({ ok: false });
  });

  it('a plain schema has no marks', () => {
    expect(scanParamHeaders({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      ok: true,
      headers: [],
    });
  });

  it('a value that looks like the encoded form is encoded too', () => {
    expect(encodeValue('=?base64?abc?=')).toBe(
      `=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`,
    );
    expect(encodeValue('a\tb c')).toBe('a\tb c');
    expect(encodeValue('line\nbreak')).toMatch(/^=\?base64\?/);
  });
});
