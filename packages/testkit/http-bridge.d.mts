// The type of http-bridge.mjs, which stays plain JavaScript so modern-server.mjs runs unbuilt.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Serves `request` with `fetch`; `onBody` sees each request body (a server that records). */
export function bridge(
  fetch: (request: Request) => Promise<Response>,
  request: IncomingMessage,
  response: ServerResponse,
  onBody?: (body: Buffer) => void,
): Promise<void>;
