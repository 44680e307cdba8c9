// One node:http exchange through a web-standard `fetch` handler (the server SDK's createMcpHandler
// has only that face), for the 2026-07-28 servers of the testkit: modern-server.mjs in its own
// process and src/sdk-server.ts in a test's. A streamed answer (an SSE stream, a
// subscriptions/listen stream) is written as it comes; the request's signal aborts when the client
// goes away, which is how a 2026-07-28 server over HTTP is told a request was cancelled. Plain
// JavaScript so modern-server.mjs runs unbuilt.

/** Serves `request` with `fetch`; `onBody` sees each request body (a server that records). */
export async function bridge(fetch, request, response, onBody = () => {}) {
  const gone = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  onBody(body);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  const answer = await fetch(
    new Request(`http://127.0.0.1${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
      signal: gone.signal,
    }),
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body !== null) {
    try {
      for await (const chunk of answer.body) response.write(chunk);
    } catch {
      // The client went away mid-stream: nothing left to write to.
    }
  }
  response.end();
}
