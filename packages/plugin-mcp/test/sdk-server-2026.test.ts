// The 2026 era against a server built on the MCP server SDK (2.4.0), over Streamable HTTP on
// 127.0.0.1: what a real 2026 server makes of the client's requests — a requestState it sent comes
// back as sent, a server that needs elicitation refuses a client that declares none, its check of
// the Mcp-Param-* headers against the body passes, and a stopped call reaches the tool as an abort.
import { remoteConfig } from '@epoch-agent/testkit';
import { startSdkServer } from '@epoch-agent/testkit/sdk-server';
import { fromJsonSchema, inputRequired, type McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { rejection } from './support/waiting.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(register: (server: McpServer) => void): Promise<McpClient> {
  const server = await startSdkServer(register);
  cleanups.push(() => server.stop());
  const client = new McpClient({ config: remoteConfig('sdk', 'http', server.url) });
  cleanups.push(() => client.close());
  await client.connect();
  return client;
}

const STATE = ' step 2 of 3, für dich \n';

/** Held in a variable: x-mcp-header is an extension keyword the SDK's JSON Schema type lacks. */
const ROUTE = {
  type: 'object' as const,
  properties: {
    region: { type: 'string' as const, 'x-mcp-header': 'Region' },
    shard: { type: 'integer' as const, 'x-mcp-header': 'Shard' },
    dry: { type: 'boolean' as const, 'x-mcp-header': 'Dry' },
  },
};

describe('a 2026-era server built on the SDK', () => {
  it('gets its requestState back as it sent it, and the call completes', async () => {
    const client = await connected((server) =>
      server.registerTool('resume', {}, (ctx) => {
        const state = ctx.mcpReq.requestState();
        return state === undefined
          ? inputRequired({ requestState: STATE })
          : { content: [{ type: 'text', text: `resumed: ${JSON.stringify(state)}` }] };
      }),
    );
    const result = await client.callTool('resume', {});
    expect(result.content).toEqual([{ type: 'text', text: `resumed: ${JSON.stringify(STATE)}` }]);
  });

  it('refuses a call that needs elicitation from a client with nobody to ask: input_required saying so', async () => {
    const client = await connected((server) =>
      server.registerTool('confirm', {}, () =>
        inputRequired({
          inputRequests: {
            ok: inputRequired.elicit({
              message: 'Proceed?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
            }),
          },
        }),
      ),
    );
    const error = await rejection(client.callTool('confirm', {}));
    expect(error.code).toBe('input_required');
    expect(error.tool).toBe('confirm');
    expect(error.message).toContain('MCP server "sdk": tool "confirm" needs elicitation');
    expect(error.message).toContain(
      'which epoch declares only when someone can be asked, and nobody can be asked here',
    );
  });

  it('refuses a call that needs roots from a client given none: input_required saying none were given, not that epoch cannot', async () => {
    let ran = false;
    const client = await connected((server) =>
      server.registerTool('scan', {}, () => {
        ran = true;
        return inputRequired({ inputRequests: { where: inputRequired.listRoots() } });
      }),
    );
    const error = await rejection(client.callTool('scan', {}));
    expect(error.code).toBe('input_required');
    expect(error.message).toContain('MCP server "sdk": tool "scan" needs roots');
    expect(error.message).toContain('none were given');
    expect(error.message).toContain('error -32021');
    // epoch does support roots, given some; and the server's tool did run before it refused.
    expect(ran).toBe(true);
    expect(error.message).not.toContain('does not support');
    expect(error.message).not.toContain('without running it');
  });

  it('accepts the Mcp-Param headers of a call, which it checks against the body', async () => {
    const client = await connected((server) =>
      server.registerTool(
        'route',
        {
          inputSchema: fromJsonSchema<{ region: string; shard: number; dry: boolean }>(ROUTE),
        },
        ({ region, shard, dry }) => ({
          content: [{ type: 'text', text: `${region}/${shard}/${dry}` }],
        }),
      ),
    );
    for (const region of ['us-west1', ' Zürich ', '=?base64?x?=', '']) {
      const result = await client.callTool('route', { region, shard: -7, dry: true });
      expect(result.content).toEqual([{ type: 'text', text: `${region}/-7/true` }]);
    }
  });

  it('sees a call stopped by the user as aborted, in the tool itself', async () => {
    let toolAborted: () => void = () => {};
    const aborted = new Promise<void>((resolve) => {
      toolAborted = resolve;
    });
    let toolStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    const client = await connected((server) =>
      server.registerTool('wait', {}, async (ctx) => {
        toolStarted();
        const { signal } = ctx.mcpReq;
        if (!signal.aborted)
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
        toolAborted();
        return { content: [] };
      }),
    );
    const stop = new AbortController();
    const call = client.callTool('wait', {}, stop.signal);
    await started;
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    await aborted;
  });
});
