// "Another origin" for the tests of what a hostile server may redirect our requests to: a listener
// on 127.0.0.2 (loopback, but a host of its own, which this code treats as remote) that records
// every request it receives and answers each with an empty JSON object.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeenRequest } from './oauth-grant-server.js';
import { readBody } from './read-body.js';

export interface OtherOrigin {
  readonly origin: string;
  readonly received: SeenRequest[];
  stop(): Promise<void>;
}

export async function startOtherOrigin(): Promise<OtherOrigin> {
  const received: SeenRequest[] = [];
  let origin = '';
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', origin).pathname;
    received.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
