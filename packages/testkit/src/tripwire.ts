// An HTTP listener on 127.0.0.1 that nothing may touch: a URL to put where a client must never go
// (a `$ref` to another document, say), and the record of everyone who went there anyway. Every
// connection counts, even one that never sends a request, so a fetch cut short is seen too.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Tripwire {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** One entry per connection (`connection`) and per request (`GET /path`), in order. */
  hits(): readonly string[];
  close(): Promise<void>;
}

export async function startTripwire(): Promise<Tripwire> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(418).end();
  });
  server.on('connection', () => hits.push('connection'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits: () => [...hits],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
