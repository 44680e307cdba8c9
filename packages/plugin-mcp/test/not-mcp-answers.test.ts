// An answer whose envelope is not valid MCP (a result that is not an object, an error without an
// integer code or a string message, both or neither) fails the request it answers at once, as a
// server_error saying what was wrong; the connection stays up, and the same answer to an id nobody
// asked with is dropped. Over stdio on every request (the SDK's path, the handshake, a direct
// tools/call), from the hand-written fault server; over Streamable HTTP from a hand-written server
// on 127.0.0.1 that answers with JSON. Every request gets a timeout longer than the test's own, so
// an answer that is dropped fails the test rather than coming back as request_timeout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { type FaultHarness, useFaultHarness } from './support/fault-harness.js';
import { answerMcp, type McpMessage, type McpReply } from './support/mcp-answers.js';
import { readBody } from './support/read-body.js';

const start = useFaultHarness();

/** Longer than vitest's testTimeout (30 s): the answer has to fail the request, not its timer. */
const LONG = { timeoutMs: 120_000, connectTimeoutMs: 120_000 };

const SAID = {
  string: 'its "result" is a string, not an object',
  array: 'its "result" is an array, not an object',
  null: 'its "result" is null, not an object',
  both: 'it has both "result" and "error"',
  neither: 'it has neither "result" nor "error"',
  'code-string': 'its "error.code" is a string, not an integer',
  'message-missing': 'its "error.message" is missing, not a string',
} as const;
type Shape = keyof typeof SAID;

function failure(server: string, what: string, shape: Shape): string {
  return `MCP server "${server}": ${what} failed: the server's answer is not valid MCP: ${SAID[shape]}. Ask the server's maintainers to fix it.`;
}

async function connected(h: FaultHarness, method: string, shape: Shape): Promise<void> {
  const flags = [`--method=${method}`, `--shape=${shape}`];
  await h.registry.connectAll([h.healthy(), h.stdio('odd', 'not-mcp', LONG, flags)], 'user');
  expect(h.status('odd').state).toBe('connected');
}

async function expectNotMcp(request: Promise<unknown>, message: string): Promise<void> {
  const error = await request.then(
    () => new Error('the request succeeded'),
    (e: unknown) => e,
  );
  expect((error as Error).message).toBe(message);
  expect(isMcpError(error, 'server_error')).toBe(true);
}

describe('an answer that is not valid MCP, over stdio', () => {
  it.each([
    ['string', 'resources/read'],
    ['array', 'prompts/get'],
    ['neither', 'resources/read'],
    ['code-string', 'prompts/get'],
    ['message-missing', 'resources/read'],
  ] as const)(
    'a %s answer to %s fails it at once; the connection stays up',
    async (shape, method) => {
      const h = start();
      await connected(h, method, shape);
      const request =
        method === 'resources/read'
          ? h.registry.readResource('odd', 'memo://one')
          : h.registry.getPrompt('odd', 'greet');
      await expectNotMcp(request, failure('odd', method, shape));
      expect(h.states('odd')).toEqual(['connecting', 'connected']);
      await h.expectEcho('odd');
      await h.finish();
    },
  );

  it.each(['both', 'null'] as const)(
    'tools/call, sent as plain JSON-RPC: a %s answer is a server_error too',
    async (shape) => {
      const h = start();
      await connected(h, 'tools/call', shape);
      await expectNotMcp(h.call('odd', 'work'), failure('odd', 'tools/call "work"', shape));
      await h.expectEcho('odd');
      await h.finish();
    },
  );

  it('an answer to initialize that is not valid MCP fails the connect at once, as connect_failed', async () => {
    const h = start();
    const flags = ['--method=initialize', '--shape=string'];
    await h.registry.connectAll([h.healthy(), h.stdio('odd', 'not-mcp', LONG, flags)], 'user');
    const status = h.status('odd');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toBe(
      `MCP server "odd" failed to connect: the server's answer is not valid MCP: ${SAID.string}. Ask the server's maintainers to fix it.`,
    );
    await h.finish();
  });
});

describe('an answer that is not valid MCP, over Streamable HTTP', () => {
  it('a JSON answer whose result is not an object fails its request as a server_error, not a parse failure', async () => {
    const h = start();
    const server = await startJsonServer({ result: 'done' });
    h.own(server.stop);
    await h.registry.connectAll([h.healthy(), h.remote('odd', 'http', server.url, LONG)], 'user');
    await expectNotMcp(
      h.registry.readResource('odd', 'memo://one'),
      failure('odd', 'resources/read', 'string'),
    );
    expect(h.states('odd')).toEqual(['connecting', 'connected']);
    await h.expectEcho('odd');
    await h.finish();
  });
});

/**
 * A Streamable HTTP server of the 2025 revisions, without sessions, every POST answered with JSON
 * (support/mcp-answers.ts): resources/read with `{ jsonrpc, id, ...notMcp }`, its echo tool's call
 * with the text it was given.
 */
async function startJsonServer(
  notMcp: McpReply,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const answer = ({ method, params }: McpMessage): McpReply | undefined => {
    if (method === 'resources/read') return notMcp;
    if (method !== 'tools/call') return undefined;
    const { text } = (params?.arguments ?? {}) as { text?: unknown };
    return { result: { content: [{ type: 'text', text }] } };
  };
  const server = createServer(async (req, res) => {
    const message =
      req.method === 'POST' ? (JSON.parse(await readBody(req)) as McpMessage) : undefined;
    answerMcp(req, res, message, {
      name: 'not-mcp-json',
      capabilities: { tools: {}, resources: {} },
      tools: ['echo'],
      answer,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
