// What the OAuth tests' MCP server answers itself once a request got past its authorization check
// (unless it forwards to a real server): a server of the 2025 revisions over Streamable HTTP
// without sessions, every POST answered with JSON, no event stream. server/discover is a method it
// does not know, so a client falls back to initialize.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface McpMessage {
  readonly id?: number | string;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** `message` is the body of a POST; a GET or DELETE has none. Every tool's call answers "machine". */
export function answerMcp(
  req: IncomingMessage,
  res: ServerResponse,
  message: McpMessage | undefined,
  tools: readonly string[],
): void {
  if (message === undefined) {
    res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const reply =
    message.method === 'initialize'
      ? {
          result: {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'oauth-grant-fixture', version: '0.0.1' },
          },
        }
      : message.method === 'tools/list'
        ? { result: { tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })) } }
        : message.method === 'tools/call'
          ? { result: { content: [{ type: 'text', text: 'machine' }] } }
          : message.method === 'ping'
            ? { result: {} }
            : { error: { code: -32601, message: `Method not found: ${message.method}` } };
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply }));
}
