// An answer whose envelope is not valid MCP (a result that is not an object, an error without an
// integer code or a string message, both or neither) fails the request it answers at once, as a
// server_error saying what was wrong; the connection stays up, and the same answer to an id nobody
// asked with is dropped. Over stdio on every request (the SDK's path, the handshake, a direct
// tools/call), from the hand-written fault server; over Streamable HTTP and legacy SSE from
// hand-written servers on 127.0.0.1 that answer with JSON or in an event stream (a POST's answer,
// Streamable HTTP's GET stream, legacy SSE's stream), the event whole or cut at odd places. Every
// request gets a timeout longer than the test's own, so an answer that is dropped fails the test
// rather than coming back as request_timeout; a stream with the answer in it stays open, so a
// dropped answer is not failed by the stream's end either.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { type FaultHarness, useFaultHarness } from './support/fault-harness.js';
import {
  type AnsweringServer,
  answerMcp,
  type McpMessage,
  type McpReply,
  replyOf,
} from './support/mcp-answers.js';
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

/** What the server sends for each shape, beside `jsonrpc` and `id`, as the fault server does. */
const SENT: Record<Shape, McpReply> = {
  string: { result: 'done' },
  array: { result: [{ type: 'text', text: 'done' }] },
  null: { result: null },
  both: { result: {}, error: { code: -32603, message: 'both' } },
  neither: {},
  'code-string': { error: { code: 'E_FAIL', message: 'failed' } },
  'message-missing': { error: { code: -32603 } },
};
const SHAPES = Object.keys(SENT) as Shape[];

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
    const server = await startJsonServer(SENT.string);
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
 * Where a server's answers go on an event stream: `post`, Streamable HTTP's answer to the POST;
 * `get`, Streamable HTTP's GET stream (the POST accepted with 202); `sse`, legacy SSE's stream.
 */
type Carrier = 'post' | 'get' | 'sse';
const CARRIERS: readonly Carrier[] = ['post', 'get', 'sse'];

function streamed(h: FaultHarness, carrier: Carrier, url: string) {
  return h.remote('odd', carrier === 'sse' ? 'sse' : 'http', url, LONG);
}

/** A JSON-RPC message of the server's, as the data of an event. */
function event(message: Record<string, unknown>, lines = ''): string {
  return `${lines}data: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`;
}

/** Lets the client read what was written before the next piece goes, as a rule in a read of its own. */
async function nextTurns(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('an answer that is not valid MCP, on an event stream', () => {
  it.each(CARRIERS.flatMap((carrier) => SHAPES.map((shape) => [carrier, shape] as const)))(
    '%s: a %s answer to resources/read fails it at once; the connection stays up',
    async (carrier, shape) => {
      const h = start();
      const server = await startEventServer(carrier, ({ method, id }) =>
        method === 'resources/read'
          ? [event({ id, ...SENT[shape] }, ': an answer follows\nevent: message\nid: 7\n')]
          : undefined,
      );
      h.own(server.stop);
      await h.registry.connectAll([h.healthy(), streamed(h, carrier, server.url)], 'user');
      await expectNotMcp(
        h.registry.readResource('odd', 'memo://one'),
        failure('odd', 'resources/read', shape),
      );
      expect(h.states('odd')).toEqual(['connecting', 'connected']);
      await h.expectEcho('odd');
      await h.finish();
    },
  );

  it('an answer cut in "data:", between a CR and its LF and after an empty line\'s CR fails its request all the same', async () => {
    const h = start();
    const server = await startEventServer('post', ({ method, id }) =>
      method === 'resources/read' ? cutAnswer(id) : undefined,
    );
    h.own(server.stop);
    await h.registry.connectAll([h.healthy(), streamed(h, 'post', server.url)], 'user');
    await expectNotMcp(
      h.registry.readResource('odd', 'memo://one'),
      failure('odd', 'resources/read', 'string'),
    );
    await h.expectEcho('odd');
    await h.finish();
  });

  it.each(CARRIERS)(
    '%s: progress reaches the caller while the answer is still to come',
    async (carrier) => {
      const h = start();
      let progressSeen: () => void = () => {};
      const seen = new Promise<void>((resolve) => {
        progressSeen = resolve;
      });
      const server = await startEventServer(carrier, (message) =>
        message.method === 'tools/call' ? progressThenAnswer(message, seen) : undefined,
      );
      h.own(server.stop);
      await h.registry.connectAll([h.healthy(), streamed(h, carrier, server.url)], 'user');
      const reports: number[] = [];
      const result = await h.tool('odd', 'echo').execute(
        {},
        {
          signal: new AbortController().signal,
          onProgress: ({ progress }) => {
            reports.push(progress);
            progressSeen();
          },
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'after progress' }]);
      expect(reports).toEqual([1]);
      await h.finish();
    },
  );
});

/**
 * An answer whose result is a string, on two data lines, cut in "data:", between a CR and its LF,
 * and between the empty line's CR and LF; each piece is written once the client had a turn to read
 * the one before.
 */
async function* cutAnswer(id: McpMessage['id']): AsyncGenerator<string> {
  for (const piece of [
    ': an answer follows\nda',
    `ta: {"jsonrpc":"2.0","id":${JSON.stringify(id)},\r`,
    '\ndata: "result":"done"}\r\n\r',
    '\n',
  ]) {
    yield piece;
    await nextTurns();
  }
}

/** A progress notification for the call, then its answer once `seen` (the caller was told). */
async function* progressThenAnswer(
  { id, params }: McpMessage,
  seen: Promise<void>,
): AsyncGenerator<string> {
  const { progressToken } = (params?._meta ?? {}) as { progressToken?: string | number };
  yield event(
    { method: 'notifications/progress', params: { progressToken, progress: 1 } },
    'event: message\n',
  );
  await seen;
  yield event({ id, result: { content: [{ type: 'text', text: 'after progress' }] } });
}

/** What the server writes on an event stream for a request, piece by piece; undefined: its usual reply. */
type EventPieces = (message: McpMessage) => Iterable<string> | AsyncIterable<string> | undefined;

const EVENT_SERVER: AnsweringServer = {
  name: 'not-mcp-events',
  capabilities: { tools: {}, resources: {} },
  tools: ['echo'],
  answer: echoed,
};

/** The echo tool's answer: the text it was given. */
function echoed({ method, params }: McpMessage): McpReply | undefined {
  if (method !== 'tools/call') return undefined;
  const { text } = (params?.arguments ?? {}) as { text?: unknown };
  return { result: { content: [{ type: 'text', text }] } };
}

/**
 * A server of the 2025 revisions, without sessions, that answers a request with what `pieces`
 * writes, on the stream `carrier` says, and every other request as support/mcp-answers.ts does (a
 * JSON body, or an event on legacy SSE). Every stream stays open until stop().
 */
async function startEventServer(
  carrier: Carrier,
  pieces: EventPieces,
): Promise<{ url: string; stop: () => Promise<void> }> {
  let opened: (stream: ServerResponse) => void = () => {};
  const getStream = new Promise<ServerResponse>((resolve) => {
    opened = resolve;
  });
  const openStream = (res: ServerResponse, status = 200): ServerResponse => {
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    return res;
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && carrier !== 'post') {
      // Legacy SSE's stream tells where to POST first; Streamable HTTP's GET stream is sessionless.
      opened(openStream(res));
      if (carrier === 'sse') res.write('event: endpoint\ndata: /messages\n\n');
      return;
    }
    const message =
      req.method === 'POST' ? (JSON.parse(await readBody(req)) as McpMessage) : undefined;
    if (message === undefined) {
      answerMcp(req, res, message, EVENT_SERVER);
      return;
    }
    // Legacy SSE accepts every POST; its answers go on its stream.
    if (carrier === 'sse') res.writeHead(202).end();
    const own = message.id === undefined ? undefined : pieces(message);
    if (own === undefined) {
      if (carrier !== 'sse') answerMcp(req, res, message, EVENT_SERVER);
      else if (message.id !== undefined) {
        (await getStream).write(event({ id: message.id, ...replyOf(message, EVENT_SERVER) }));
      }
      return;
    }
    if (carrier === 'get') res.writeHead(202).end();
    const stream = carrier === 'post' ? openStream(res) : await getStream;
    for await (const piece of own) stream.write(piece);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${carrier === 'sse' ? 'sse' : 'mcp'}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A Streamable HTTP server of the 2025 revisions, without sessions, every POST answered with JSON
 * (support/mcp-answers.ts): resources/read with `{ jsonrpc, id, ...notMcp }`, its echo tool's call
 * with the text it was given.
 */
async function startJsonServer(
  notMcp: McpReply,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const answer = (message: McpMessage): McpReply | undefined =>
    message.method === 'resources/read' ? notMcp : echoed(message);
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
