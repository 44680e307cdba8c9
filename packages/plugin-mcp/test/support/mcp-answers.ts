// A hand-written MCP server's answers to one POST: a server of the 2025 revisions over Streamable
// HTTP without sessions, every POST answered with JSON, no event stream. server/discover is a
// method it does not know, so a client falls back to initialize. The OAuth tests' server answers so
// once a request got past its authorization check (unless it forwards to a real server).
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface McpMessage {
  readonly id?: number | string;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** The members of an answer beside `jsonrpc` and `id`: its `result` or its `error`. */
export type McpReply = Record<string, unknown>;

/** What the server is: its name, what it says it can do, its tools, and answers of its own. */
export interface AnsweringServer {
  readonly name: string;
  /** `{ tools: {} }` when not given. */
  readonly capabilities?: Record<string, object>;
  readonly tools: readonly string[];
  /** Its own reply to a request, or undefined for the usual one below. */
  readonly answer?: (message: McpMessage) => McpReply | undefined;
}

/**
 * `message` is the body of a POST; a GET or DELETE has none. Unless the server answers a request
 * itself, every tool's call answers "machine".
 */
export function answerMcp(
  req: IncomingMessage,
  res: ServerResponse,
  message: McpMessage | undefined,
  server: AnsweringServer,
): void {
  if (message === undefined) {
    res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...replyOf(message, server) }));
}

/** The server's reply to a request, whatever carries it (a JSON body, an event). */
export function replyOf(message: McpMessage, server: AnsweringServer): McpReply {
  return server.answer?.(message) ?? usualReply(message, server);
}

function usualReply(message: McpMessage, server: AnsweringServer): McpReply {
  switch (message.method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: message.params?.protocolVersion,
          capabilities: server.capabilities ?? { tools: {} },
          serverInfo: { name: server.name, version: '0.0.1' },
        },
      };
    case 'tools/list':
      return {
        result: { tools: server.tools.map((name) => ({ name, inputSchema: { type: 'object' } })) },
      };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: 'machine' }] } };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}
