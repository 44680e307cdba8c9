// An mcp.json entry with only a `url` is SSE (the seed's rule). When that url is a Streamable HTTP
// endpoint, its refusal of the SSE GET (400, 404 or 405) is followed by one Streamable HTTP
// initialize, and the failure says to add "type": "http", naming the file and line. Real files in
// the test's EPOCH_HOME, real servers on 127.0.0.1 (support/http-mcp-server.ts, web-server.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config/load.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpServerStatus } from '../src/types.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { ownLogins } from './support/own-logins.js';
import { NOT_FOUND_PAGE, startWebServer } from './support/web-server.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Writes `text` as an mcp.json of its own under EPOCH_HOME, loads it and connects what it holds. */
async function connectFile(text: string): Promise<{ file: string; statuses: McpServerStatus[] }> {
  const dir = await mkdtemp(join(process.env.EPOCH_HOME ?? '', 'probe-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'mcp.json');
  await writeFile(file, text);
  const { servers, diagnostics } = await loadMcpConfig(file);
  expect(diagnostics).toEqual([]);
  const logins = ownLogins();
  const registry = new McpRegistry({ schemaCache: null, createTransport: logins.createTransport });
  cleanups.push(async () => {
    await registry.disconnectAll();
    logins.remove();
  });
  const statuses = await registry.connectAll(servers, 'user');
  return { file, statuses };
}

async function gateway(sessionlessGet: 400 | 404 | 405): Promise<RunningHttpMcpServer> {
  const running = await startHttpMcpServer({ mode: 'http', sessionlessGet });
  cleanups.push(() => running.stop());
  return running;
}

function entryFile(url: string, extra = ''): string {
  return `// my servers
{
  "servers": {
    "gateway": {
      "url": "${url}"${extra}
    }
  }
}
`;
}

describe.each([400, 404, 405] as const)(
  'a url-only entry at a Streamable HTTP endpoint whose SSE GET gets %i',
  (status) => {
    it('fails saying to add "type": "http" at the file and line, after one Streamable HTTP initialize', async () => {
      const running = await gateway(status);
      const { file, statuses } = await connectFile(entryFile(running.url));
      const [gw] = statuses;
      if (gw?.state !== 'failed') throw new Error(`expected failed, got ${gw?.state}`);
      const reason = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed' }[status];
      expect(gw.error).toEqual({
        code: 'connect_failed',
        message: `MCP server "gateway" failed to connect: ${running.url} is a Streamable HTTP endpoint, not SSE. It refused the SSE event stream (GET answered HTTP ${status} ${reason}) but answered a Streamable HTTP initialize. An entry with only a "url" is taken as SSE: add "type": "http" to server "gateway" at ${file}:4.`,
      });
      // Ended by the answers (connect_timeout, 60 s from the file, says connect_timeout): the SSE
      // GET, then one probe: initialize, its session's requests, and the DELETE that ends it.
      const asked = running.records.map((r) => r.rpc ?? r.httpMethod);
      expect(asked[0]).toBe('GET');
      expect(asked.filter((what) => what === 'initialize')).toHaveLength(1);
      expect(asked.at(-1)).toBe('DELETE');
      expect(running.records.at(-1)?.session).toBe('session-1');
    });
  },
);

describe('the probe stays out of the way', () => {
  it('the advice works: with "type": "http" added on that line, the same entry connects', async () => {
    const running = await gateway(404);
    const { statuses } = await connectFile(entryFile(running.url, ',\n      "type": "http"'));
    expect(statuses[0]?.state).toBe('connected');
  });

  it('a url-only entry at a web page: the plain 404 failure, no "type" advice', async () => {
    const site = await startWebServer({
      status: 404,
      contentType: 'text/html',
      body: NOT_FOUND_PAGE,
    });
    cleanups.push(() => site.stop());
    const url = `${site.origin}/sse`;
    const { statuses } = await connectFile(entryFile(url));
    const [gw] = statuses;
    if (gw?.state !== 'failed') throw new Error(`expected failed, got ${gw?.state}`);
    expect(gw.error.message).toBe(
      `MCP server "gateway" failed to connect: the server answered GET ${url} (the SSE event stream) with HTTP 404 Not Found. Check "url": it must be the server's MCP endpoint (often ending in /mcp or /sse).`,
    );
    // It was tried once as Streamable HTTP, which answered with the same page: to server/discover,
    // and to the initialize that an answer which is not MCP falls back to.
    expect(site.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST']);
  });

  it('an entry that says "type": "sse" is taken at its word, and told it is wrong at its line', async () => {
    const running = await gateway(405);
    const { file, statuses } = await connectFile(entryFile(running.url, ',\n      "type": "sse"'));
    const [gw] = statuses;
    if (gw?.state !== 'failed') throw new Error(`expected failed, got ${gw?.state}`);
    expect(gw.error.message).toBe(
      `MCP server "gateway" failed to connect: ${running.url} is a Streamable HTTP endpoint, not SSE. It refused the SSE event stream (GET answered HTTP 405 Method Not Allowed) but answered a Streamable HTTP initialize. The entry of server "gateway" at ${file}:4 says SSE: make its transport "http".`,
    );
    // Probed once, and not connected as what it did not choose: the probe's session is ended.
    const asked = running.records.map((r) => r.rpc ?? r.httpMethod);
    expect(asked[0]).toBe('GET');
    expect(asked.filter((what) => what === 'initialize')).toHaveLength(1);
    expect(asked.at(-1)).toBe('DELETE');
  });
});
