// A 2026-07-28 MCP server built on the MCP server SDK, over Streamable HTTP on 127.0.0.1, in the
// test's own process: the SDK's web-standard handler (createMcpHandler, 2026 era only) behind the
// testkit's node:http bridge (http-bridge.mjs, shared with modern-server.mjs). A test meets what a real 2026 server does — server/discover, the
// input_required builder, its check of the Mcp-* headers against the body, a request whose stream
// closes seen as cancelled — and registers its tools on each McpServer the handler asks for (one
// per request). Its own subpath (`@epoch-agent/testkit/sdk-server`), so a test that does not use
// it does not load the server SDK.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { bridge } from '../http-bridge.mjs';

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
    bridge(handler.fetch, req, res).catch((error: unknown) => {
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
