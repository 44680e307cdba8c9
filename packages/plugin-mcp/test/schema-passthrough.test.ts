// A tool's input schema as its server wrote it, whatever JSON Schema 2020-12 keywords it uses
// (`$schema`, `$defs`, `$anchor`, `$ref`, `allOf`, `if` / `then` / `else`, `additionalProperties`):
// the EpochTool the registry offers, the schema cache file under EPOCH_HOME, and that file read
// back by a new process hold exactly what the server sent. Every `$ref` stays as written, and the
// one to another document is never fetched. Both eras: the fixture server over stdio (2025), and
// testkit's 2026-07-28 server refusing the 2025 revisions, over Streamable HTTP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fixtureServerArgs,
  remoteConfig,
  startModernHttp,
  startTripwire,
  stdioConfig,
  type Tripwire,
} from '@epoch-agent/testkit';
import { refsTool } from '@epoch-agent/testkit/refs-tool';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSchemaCacheDir, McpSchemaCache } from '../src/cache.js';
import { fingerprint } from '../src/config/fingerprint.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpServerConfig } from '../src/types.js';

let tripwire: Tripwire;
let sent: Tool;

beforeEach(async () => {
  tripwire = await startTripwire();
  sent = refsTool(`${tripwire.origin}/airline.json`);
});

afterEach(async () => {
  await tripwire.close();
});

/**
 * Connects `config` with the default cache (under this file's temp EPOCH_HOME), then checks the
 * tool it offers, the cache file and a fresh cache's read of it against `sent`.
 */
async function expectVerbatim(config: McpServerConfig): Promise<void> {
  const registry = new McpRegistry();
  try {
    const [status] = await registry.connectAll([config], 'user');
    expect(status?.state).toBe('connected');
    const [tool] = registry.tools();
    expect(tool?.inputSchema).toStrictEqual(sent.inputSchema);
    expect(tool).toMatchObject({ title: sent.title, description: sent.description });
  } finally {
    // Resolves once the cache file is written.
    await registry.disconnectAll();
  }
  const file = join(defaultSchemaCacheDir(), `${fingerprint(config)}.json`);
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { tools: Tool[] };
  expect(onDisk.tools).toStrictEqual([sent]);
  // A new process: nothing in memory, the file read and checked as a valid MCP Tool.
  const cached = await new McpSchemaCache().get(config);
  expect(cached?.tools).toStrictEqual([sent]);
  expect(tripwire.hits()).toEqual([]);
}

describe('a tool input schema passes through verbatim', () => {
  it('over stdio, in the 2025 era: into EpochTool.inputSchema and the cache file', async () => {
    const args = fixtureServerArgs('refs', `--network-ref=${tripwire.origin}/airline.json`);
    await expectVerbatim(stdioConfig('trips', process.execPath, args));
  });

  it('over Streamable HTTP, in the 2026-07-28 era: into EpochTool.inputSchema and the cache file', async () => {
    // The server refuses the 2025 handshake: connected means the new era was negotiated. Its list
    // is public, so the schema cache may keep it on disk (a private one stays in memory).
    const server = await startModernHttp([
      '--modern-only',
      '--catalog=refs',
      `--network-ref=${tripwire.origin}/airline.json`,
      '--tools-scope=public',
    ]);
    try {
      await expectVerbatim(remoteConfig('modern', 'http', server.url));
    } finally {
      await server.stop();
    }
  });
});
