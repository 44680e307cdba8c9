// A 2026-07-28 server (a real process over stdio, listen-server.mjs --list=…) whose tools/list
// breaks the spec: a cache hint out of range or not one of its values costs the server nothing —
// it connects with its tools, the hint read as "keep nothing", and one warning per field names the
// server, the method, the field and the value with its escapes made visible. A list whose tools
// break it fails the server with a short message naming the field, not the validator's JSON.
import { fileURLToPath } from 'node:url';
import { stdioConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { memoryLogger } from './support/recording.js';

const SERVER = fileURLToPath(new URL('./fixtures/listen-server.mjs', import.meta.url));
const TOOLS = [{ name: 'echo', inputSchema: { type: 'object' } }];

const clients: McpClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connected(list: object) {
  const logger = memoryLogger();
  const client = new McpClient({
    config: stdioConfig(
      'hints',
      process.execPath,
      [SERVER, '--ack=refuse', `--list=${JSON.stringify(list)}`],
      {
        connectTimeoutMs: 20_000,
      },
    ),
    logger,
  });
  clients.push(client);
  // A failed connect rejects; its state says why.
  await client.connect().catch(() => {});
  const warnings = logger.lines
    .filter(({ level, message }) => level === 'warn' && message.includes('tools/list'))
    .map(({ message }) => message);
  return { client, warnings };
}

describe('a tools/list whose tools break the spec', () => {
  it('fails the server with one line naming the method, the field and what is wrong', async () => {
    const { client } = await connected({ ttlMs: 0, cacheScope: 'private', tools: 'not-a-list' });
    expect(client.state.kind).toBe('failed');
    const message = client.state.kind === 'failed' ? client.state.message : '';
    expect(message).toMatch(
      /^MCP server "hints": tools\/list failed: the server's answer is not valid MCP: tools: [^\n]*expected array[^\n]*\. Ask the server's maintainers to fix it\.$/,
    );
  });
});

describe('cache hints that break the spec', () => {
  it('a negative ttlMs and a cacheScope with an escape: connected with its tools, each hint read as absent, with a warning', async () => {
    const { client, warnings } = await connected({
      ttlMs: -5,
      cacheScope: 'public\x1b[31m',
      tools: TOOLS,
    });
    expect(client.state).toMatchObject({ kind: 'connected' });
    expect(client.state.kind === 'connected' && client.state.tools.map((t) => t.name)).toEqual([
      'echo',
    ]);
    expect(warnings).toEqual([
      'MCP server "hints": its tools/list answer has ttlMs -5, which must be a whole number of milliseconds from 0 to 2^53-1; read as absent (keep it for no time). Ask the server\'s maintainers to fix it.',
      'MCP server "hints": its tools/list answer has cacheScope "public\\u001b[31m", which must be "public" or "private"; read as absent (keep it for this user only). Ask the server\'s maintainers to fix it.',
    ]);
    // Nothing is kept: the next connect asks again.
    expect(client.memory?.toolsFreshUntil).toBeUndefined();
  });

  it('a ttlMs past the safe integers (1e308): connected, read as absent', async () => {
    const { client, warnings } = await connected({
      ttlMs: 1e308,
      cacheScope: 'private',
      tools: TOOLS,
    });
    expect(client.state).toMatchObject({ kind: 'connected' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('has ttlMs 1e+308, which must be a whole number');
  });

  it('none at all (both are required): connected, each read as absent, with a warning', async () => {
    const { client, warnings } = await connected({ tools: TOOLS });
    expect(client.state).toMatchObject({ kind: 'connected' });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('its tools/list answer has no ttlMs, which must be');
    expect(warnings[1]).toContain('its tools/list answer has no cacheScope, which must be');
  });
});
