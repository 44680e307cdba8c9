// A 2026-07-28 MCP server built on the MCP server SDK, over Streamable HTTP on 127.0.0.1, in the
// test's own process: the SDK's web-standard handler (createMcpHandler, 2026 era only) behind a
// small node:http bridge. A test meets what a real 2026 server does — server/discover, the
// input_required builder, its check of the Mcp-* headers against the body, a request whose stream
// closes seen as cancelled — and registers its tools on each McpServer the handler asks for (one
// per request). Its own subpath (`@epoch-agent/testkit/sdk-server`), so a test that does not use
// it does not load the server SDK.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';

export interface RunningSdkServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** `register` is called with every McpServer the handler makes: define the tools there. */
export async function startSdkServer(
  register: (server: McpServer) => void,
): Promise<RunningSdkServer> {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'sdk-fixture', version: '2.4.0' });
      register(server);
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((req, res) => {
    serve(handler.fetch, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      await handler.close();
      // Idle keep-alive sockets too: close() would otherwise wait for the client to drop them.
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** One request through the web-standard handler; its signal aborts when the client goes away. */
async function serve(
  fetch: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  const response = await fetch(
    new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      signal: gone.signal,
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body !== null) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}
