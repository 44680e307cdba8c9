// A minimal hand-written MCP server over HTTP on 127.0.0.1, in the test's own process, in either
// remote transport: legacy SSE (GET stream + POSTed messages) or Streamable HTTP (POST answered
// with JSON, 405 for the GET stream, DELETE to end the session). It records every HTTP request
// with its method, path, JSON-RPC method and the header under test, and refuses (401) a request
// without that header, so a test can prove the header reached every request.
//
// Faults for the fault-injection suite: `fault: 'http500'` answers every request with 500;
// `fault: 'htmlPosts'` answers every POST with a 404 web page (a proxy in front of the server);
// `fault: 'forgetOnCall'` (Streamable HTTP) answers every tools/call with 404 as for an unknown
// session, so a client that re-initializes forever would show;
// expireSessions() makes Streamable HTTP forget its sessions (404 until the client initializes
// again); the tool `drop` opens an SSE answer (http) or uses the event stream (sse) and then
// drops the connection mid-call; the tool `reset` destroys the socket before any answer; the tool
// `invalid` answers with the JSON-RPC error an older-SDK server sends (its message repeats the
// code).
//
// Streamable HTTP sessions end with DELETE (answered as `onDelete` says); a GET without a session
// is refused with `sessionlessGet` (404 by default), as a client that takes the endpoint for SSE
// sees. `keepAlive: false` closes every connection after its answer, so a request made after
// stop() finds nothing listening (ECONNREFUSED) rather than a pooled socket.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body.js';

export interface HttpRecord {
  readonly httpMethod: string;
  readonly path: string;
  /** The JSON-RPC method and id of a POSTed message. */
  readonly rpc?: string;
  readonly id?: number;
  readonly params?: Record<string, unknown>;
  readonly header: string | undefined;
  /** The Mcp-Session-Id the request carried. */
  readonly session?: string;
}

export interface RunningHttpMcpServer {
  readonly url: string;
  readonly records: HttpRecord[];
  /** Streamable HTTP: every session id issued so far is unknown from now on (404). */
  expireSessions(): void;
  stop(): Promise<void>;
}

interface RpcMessage {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

export async function startHttpMcpServer(options: {
  readonly mode: 'sse' | 'http';
  /**
   * Lower-case header name every request must carry, and its value (a function: the value it
   * takes now, for a credential that rotates); absent: none is required.
   */
  readonly header?: readonly [string, string | (() => string)];
  /** The status a request without that header gets; default 401. */
  readonly refuseWith?: 401 | 403;
  readonly fault?: 'http500' | 'htmlPosts' | 'forgetOnCall';
  /** Streamable HTTP's answer to DELETE: end the session (default), 405, or never answer. */
  readonly onDelete?: 'end' | 'refuse405' | 'hang';
  /** Streamable HTTP's answer to a GET without a known session. Default 404. */
  readonly sessionlessGet?: 400 | 404 | 405;
  /** Default true. */
  readonly keepAlive?: boolean;
  /** Declare the resources capability and answer resources/list with one resource. */
  readonly resources?: boolean;
}): Promise<RunningHttpMcpServer> {
  const [headerName, headerValue] = options.header ?? ['', undefined];
  const records: HttpRecord[] = [];
  const open = new Set<ServerResponse>();
  const sessions = new Set<string>();
  let issued = 0;
  let stream: ServerResponse | undefined;

  const reply = (res: ServerResponse, message: RpcMessage, session: string | undefined): void => {
    if (message.method === 'tools/call' && toolOf(message) === 'drop') {
      dropMidCall(res);
      return;
    }
    if (message.method === 'tools/call' && toolOf(message) === 'reset') {
      res.socket?.destroy();
      return;
    }
    const answer = answerFor(message, options.resources === true);
    if (answer === undefined) return; // hang: leave the request open
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer });
    if (options.mode === 'sse') {
      stream?.write(`event: message\ndata: ${body}\n\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(session === undefined ? {} : { 'mcp-session-id': session }),
    });
    res.end(body);
  };

  /** The answer starts as an event stream, then the connection goes away without a result. */
  const dropMidCall = (res: ServerResponse): void => {
    if (options.mode === 'sse') {
      stream?.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': working\n\n');
    setTimeout(() => res.destroy(), 50);
  };

  /** Streamable HTTP: a new session for initialize, the known one otherwise; null when unknown. */
  const sessionFor = (req: IncomingMessage, message: RpcMessage | undefined): string | null => {
    if (options.mode !== 'http') return '';
    if (message?.method === 'initialize') {
      issued += 1;
      const id = `session-${issued}`;
      sessions.add(id);
      return id;
    }
    const id = req.headers['mcp-session-id'];
    return typeof id === 'string' && sessions.has(id) ? id : null;
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (options.keepAlive === false) res.setHeader('connection', 'close');
    const raw = req.method === 'POST' ? await readBody(req) : '';
    const message = raw === '' ? undefined : (JSON.parse(raw) as RpcMessage);
    const carried = req.headers['mcp-session-id'];
    records.push({
      httpMethod: req.method ?? '',
      path,
      ...(message?.method === undefined ? {} : { rpc: message.method }),
      ...(message?.id === undefined ? {} : { id: message.id }),
      ...(message?.params === undefined ? {} : { params: message.params }),
      header: headerValue === undefined ? undefined : (req.headers[headerName] as string),
      ...(typeof carried === 'string' ? { session: carried } : {}),
    });
    if (options.fault === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error: database down');
      return;
    }
    if (options.fault === 'htmlPosts' && req.method === 'POST') {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html>\n<html><body><h1>404</h1><p>No such page.</p></body></html>\n');
      return;
    }
    const wanted = typeof headerValue === 'function' ? headerValue() : headerValue;
    if (wanted !== undefined && req.headers[headerName] !== wanted) {
      res.writeHead(options.refuseWith ?? 401).end('missing header');
      return;
    }
    const session = sessionFor(req, message);
    if (session === null && req.method === 'GET' && options.sessionlessGet !== undefined) {
      res.writeHead(options.sessionlessGet).end();
      return;
    }
    if (
      session === null ||
      (options.fault === 'forgetOnCall' && message?.method === 'tools/call')
    ) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32001, message: 'Session not found' },
        }),
      );
      return;
    }
    if (options.mode === 'sse' && req.method === 'GET' && path === '/sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: endpoint\ndata: /messages?sessionId=1\n\n');
      stream = res;
      return;
    }
    if (req.method === 'POST' && message !== undefined) {
      if (options.mode === 'sse' || message.id === undefined) res.writeHead(202).end();
      if (message.id !== undefined) reply(res, message, session || undefined);
      return;
    }
    if (options.mode === 'http' && req.method === 'DELETE') {
      if (options.onDelete === 'hang') return;
      if (options.onDelete === 'refuse405') {
        res.writeHead(405).end();
        return;
      }
      sessions.delete(session);
      res.writeHead(200).end();
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.mode === 'sse' ? '/sse' : '/mcp'}`,
    records,
    expireSessions: () => sessions.clear(),
    stop: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Answer = { result: unknown } | { error: { code: number; message: string } };

function answerFor(message: RpcMessage, resources: boolean): Answer | undefined {
  switch (message.method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: message.params?.protocolVersion,
          capabilities: resources ? { tools: {}, resources: {} } : { tools: {} },
          serverInfo: { name: 'http-fixture', version: '0.0.1' },
        },
      };
    case 'resources/list':
      return { result: { resources: [{ uri: 'memo://one', name: 'one' }] } };
    case 'tools/list':
      return {
        result: {
          tools: [
            { name: 'echo', inputSchema: { type: 'object' } },
            { name: 'hang', inputSchema: { type: 'object' } },
            { name: 'drop', inputSchema: { type: 'object' } },
            { name: 'reset', inputSchema: { type: 'object' } },
            { name: 'invalid', inputSchema: { type: 'object' } },
          ],
        },
      };
    case 'tools/call': {
      const params = message.params as { name: string; arguments?: { text?: string } };
      if (params.name === 'hang') return undefined;
      if (params.name === 'invalid') {
        const text = 'Invalid arguments for tool invalid: "text" must be a string';
        return { error: { code: -32602, message: `MCP error -32602: ${text}` } };
      }
      return { result: { content: [{ type: 'text', text: String(params.arguments?.text) }] } };
    }
    default:
      return { result: {} };
  }
}

function toolOf(message: RpcMessage): unknown {
  return message.params?.name;
}
