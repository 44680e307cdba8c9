// An HTTP server on 127.0.0.1 that is not an MCP server: it answers every request with one fixed
// status, content type and body (a web site's 404 page, a login page), or never answers at all.
// It records each request's method and path, so a test can see what the client tried.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningWebServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly requests: Array<{ readonly method: string; readonly path: string }>;
  stop(): Promise<void>;
}

export type WebAnswer =
  | {
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
      /** More headers of the answer (a redirect's Location). */
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Accept the request and never answer it. */
  | 'silence';

export const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><title>404 Not Found</title><style>body { font-family: sans-serif; }</style></head>
<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body>
</html>
`;

export async function startWebServer(answer: WebAnswer): Promise<RunningWebServer> {
  const requests: Array<{ method: string; path: string }> = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    req.resume();
    if (answer === 'silence') {
      open.add(res);
      return;
    }
    res
      .writeHead(answer.status, { ...answer.headers, 'content-type': answer.contentType })
      .end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    stop: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
