// One malformed tool costs that tool, never the server's whole list: through a real McpRegistry
// connect of a hand-written server (malformed-tools-server.mjs) whose tools/list mixes good tools
// with malformed ones as real servers send them, the server connects; a tool whose inputSchema has
// no `type` is offered as taking an object, and callable; the ones the spec's schema refuses are
// left out, each with a warning naming the server, the tool and what is wrong, and so is one
// whose name is empty (the schema takes it; nothing could call it). And a page of more
// tools than a function call takes arguments (many-tools-server.mjs) is read whole, not a stack
// overflow that failed the server.
import { fileURLToPath } from 'node:url';
import { stdioConfig } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import { memoryLogger } from './support/recording.js';

const SERVER = fileURLToPath(new URL('./fixtures/malformed-tools-server.mjs', import.meta.url));
const MANY = fileURLToPath(new URL('./fixtures/many-tools-server.mjs', import.meta.url));

describe('a tools/list with malformed tools', () => {
  const logger = memoryLogger();
  let registry: McpRegistry;

  beforeAll(async () => {
    registry = new McpRegistry({ schemaCache: null, logger });
    const config = stdioConfig('mixed', process.execPath, [SERVER], { connectTimeoutMs: 30_000 });
    await registry.connectAll([config], 'user');
  }, 60_000);

  afterAll(() => registry?.disconnectAll());

  it('connects and offers the tools that are tools', () => {
    expect(registry.statuses()[0]).toMatchObject({ state: 'connected', toolCount: 2 });
    expect(registry.toolsOf('mixed').map((tool) => tool.name)).toEqual([
      'mcp__mixed__search_repositories',
      'mcp__mixed__fine',
    ]);
  });

  it('reads an inputSchema with no type as an object, and the tool is callable', async () => {
    const tool = registry.toolsOf('mixed')[0];
    expect(tool?.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
    });
    const result = await tool?.execute({}, { signal: new AbortController().signal });
    expect(result?.content).toEqual([{ type: 'text', text: 'search_repositories' }]);
  });

  it('says which tools were left out and why', () => {
    const warnings = logger.lines
      .filter(({ level, message }) => level === 'warn' && message.includes('is not offered'))
      .map(({ message }) => message);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toContain(
      'MCP server "mixed": tool "no_input" is not offered: inputSchema',
    );
    expect(warnings[1]).toContain('tool #3 (no name) is not offered: name');
    expect(warnings[2]).toContain('tool #4 (no name) is not offered');
    expect(warnings[3]).toBe(
      'MCP server "mixed": tool #5 is not offered: its name is empty, and a tool is called by its name. Ask the server\'s maintainers to fix its definition.',
    );
  });
});

describe('a tools/list page of 300,000 tools', () => {
  it('is read whole and the server connects', async () => {
    const registry = new McpRegistry({ schemaCache: null, logger: memoryLogger() });
    try {
      const config = stdioConfig('many', process.execPath, [MANY, '300000'], {
        connectTimeoutMs: 120_000,
      });
      await registry.connectAll([config], 'user');
      expect(registry.statuses()[0]).toMatchObject({ state: 'connected', toolCount: 300_000 });
    } finally {
      await registry.disconnectAll();
    }
  }, 150_000);
});
