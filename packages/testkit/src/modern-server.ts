// A server that speaks protocol revision 2026-07-28 only, over Streamable HTTP on 127.0.0.1: the
// MCP server SDK's createMcpHandler with the 2025 fallback refused, so a client that connects to it
// has negotiated the new era. It serves the tools it is given as they are written, and each call
// answers with its arguments as JSON.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
  McpHttpHandler,
  Tool,
} from '@modelcontextprotocol/server';

export interface ModernServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  close(): Promise<void>;
}

export async function startModernServer(tools: readonly Tool[]): Promise<ModernServer> {
  // Loaded here, not at the top: every test imports the testkit, few need a server SDK.
  const sdk = await import('@modelcontextprotocol/server');
  // The server SDK compiles an input schema to check calls against it; these schemas are served
  // to see what a client keeps of them, refs that lead nowhere included, so nothing is checked.
  const unchecked: jsonSchemaValidator = {
    getValidator<T>(): JsonSchemaValidator<T> {
      return (data) => ({ valid: true, data: data as T, errorMessage: undefined });
    },
  };
  const handler = sdk.createMcpHandler(
    () => {
      const server = new sdk.McpServer({ name: 'modern-server', version: '1.0.0' });
      for (const tool of tools) {
        const { name, title, description, inputSchema } = tool;
        const config = {
          ...(title === undefined ? {} : { title }),
          ...(description === undefined ? {} : { description }),
          // Our Tool's type says less of JSON Schema than the SDK's own: the same value either way.
          inputSchema: sdk.fromJsonSchema(inputSchema as JsonSchemaType, unchecked),
        };
        server.registerTool(name, config, async (args: unknown) => ({
          content: [{ type: 'text', text: JSON.stringify(args) }],
        }));
      }
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((request, response) => {
    serve(handler, request, response).catch((error: unknown) => response.destroy(error as Error));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', resolve);
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** One node:http exchange through the handler's web-standard face. */
async function serve(
  handler: McpHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  const body = ['GET', 'HEAD'].includes(request.method ?? 'GET') ? null : Buffer.concat(chunks);
  const answer = await handler.fetch(
    new Request(`http://127.0.0.1${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers,
      body,
    }),
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body === null) {
    response.end();
    return;
  }
  // An event stream stays open until the client or close() ends it.
  Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(response);
}
