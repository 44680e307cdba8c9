// Fault injection over HTTP (support/http-mcp-server.ts on 127.0.0.1): a server that answers 500
// to everything, one that forgets its session, an event stream that drops mid-call, a server that
// goes away mid-session or cuts a call's connection, and URLs that are not MCP endpoints at all
// (support/web-server.ts). Each ends in the state and message the issue asks for, as soon as it
// asks (told by what ended it and what had happened by then, not by a clock, which only says a
// deadline did not pass early), beside a healthy stdio server in the same registry; every test
// ends with harness.finish() (see support/fault-harness.ts).
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { type FaultHarness, failure, useFaultHarness } from './support/fault-harness.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';
import { failsAtOnce } from './support/waiting.js';
import { NOT_FOUND_PAGE, startWebServer, type WebAnswer } from './support/web-server.js';

const newHarness = useFaultHarness();

async function start(
  options: Parameters<typeof startHttpMcpServer>[0],
): Promise<{ h: FaultHarness; server: RunningHttpMcpServer }> {
  const h = newHarness();
  const server = await startHttpMcpServer(options);
  h.own(() => server.stop());
  return { h, server };
}

describe('HTTP faults', () => {
  it('HTTP 500 on every request: failed with the status, quickly; the healthy server connects', async () => {
    const { h, server } = await start({ mode: 'http', fault: 'http500' });
    await h.registry.connectAll([h.healthy(), h.remote('broken', 'http', server.url)], 'user');
    const status = h.status('broken');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toContain('"broken"');
    expect(status.error.message).toBe(
      `MCP server "broken" failed to connect: the server answered POST ${server.url} with HTTP 500 Internal Server Error: "internal error: database down". The server failed on its side: check its logs, or try again later.`,
    );
    // Quickly: ended by the answer, in one attempt; connect_timeout (10 s) says connect_timeout.
    expect(h.states('broken')).toEqual(['connecting', 'failed']);
    expect(h.status('healthy').state).toBe('connected');
    await h.finish();
  });

  it('session 404: the client initializes a new session once and the call succeeds', async () => {
    const { h, server } = await start({ mode: 'http' });
    await h.registry.connectAll([h.healthy(), h.remote('forgetful', 'http', server.url)], 'user');
    await h.expectEcho('forgetful');
    server.expireSessions();
    const error = await failure(h.expectEcho('forgetful'));
    expect(error).toBeUndefined();
    const rpcs = server.records.map((r) => r.rpc);
    expect(rpcs.filter((rpc) => rpc === 'initialize')).toHaveLength(2);
    // The refused call was sent once on the old session and once on the new one, no more.
    expect(rpcs.filter((rpc) => rpc === 'tools/call')).toHaveLength(3);
    expect(server.records.filter((r) => r.rpc === 'initialize' && r.httpMethod !== 'POST')).toEqual(
      [],
    );
    expect(h.status('forgetful').state).toBe('connected');
    expect(h.states('forgetful')).not.toContain('failed');
    await h.finish();
  });

  it('response stream dropped mid-call (Streamable HTTP): that call fails at once, the session stays', async () => {
    const { h, server } = await start({ mode: 'http' });
    await h.registry.connectAll([h.healthy(), h.remote('flaky', 'http', server.url)], 'user');
    // The request timeout is 10 s: the drop must be noticed, not waited out (which would end the
    // call with request_timeout).
    const error = await failure(h.call('flaky', 'drop'));
    expect(isMcpError(error, 'request_failed')).toBe(true);
    expect((error as Error).message).toContain('"flaky"');
    expect((error as Error).message).toContain('"drop"');
    expect((error as Error).message).toContain('broke off before the server answered');
    // Only that request's stream broke: the session is intact and answers the next call.
    expect(h.states('flaky')).toEqual(['connecting', 'connected']);
    await h.expectEcho('flaky');
    await h.finish();
  });

  it('event stream dropped mid-call (legacy SSE): the call fails soon, reconnecting, then connected', async () => {
    const { h, server } = await start({ mode: 'sse' });
    await h.registry.connectAll([h.healthy(), h.remote('flaky', 'sse', server.url)], 'user');
    // Soon: the drop ends it, not the request timeout (10 s: request_timeout).
    const error = await failure(h.call('flaky', 'drop'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect((error as Error).message).toContain('"flaky"');
    expect((error as Error).message).toContain('"drop"');
    await h.waitForState('flaky', 'connected');
    expect(h.states('flaky')).toContain('reconnecting');
    expect(h.states('flaky')).not.toContain('failed');
    expect(server.records.filter((r) => r.rpc === 'initialize')).toHaveLength(2);
    await h.expectEcho('flaky');
    await h.finish();
  });
});

describe('a remote server that goes away mid-session', () => {
  it('Streamable HTTP server stopped: the next call fails at once naming ECONNREFUSED, reconnecting once per attempt, then failed', async () => {
    // No keep-alive: the call after stop() opens a new connection, which is refused.
    const { h, server } = await start({ mode: 'http', keepAlive: false });
    await h.registry.connectAll([h.healthy(), h.remote('gone', 'http', server.url)], 'user');
    await h.expectEcho('gone');
    const echo = h.tool('gone', 'echo');
    await server.stop();

    // At once: the refused connection ends it, not the request timeout (10 s: request_timeout).
    const error = await failure(echo.execute({ text: 'x' }, { signal: never() }));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^MCP server "gone": tools\/call "echo" failed: the connection was refused \(connect ECONNREFUSED 127\.0\.0\.1:\d+\); the server never received it\. The connection counts as dead and reconnects in the background; try again in a few seconds\.$/,
    );
    // Seen by the time the caller reads the error, not at the next keepalive (which is off).
    const down = h.status('gone');
    if (down.state !== 'reconnecting') throw new Error(`expected reconnecting, got ${down.state}`);
    expect(down.error.message).toMatch(
      /^MCP server "gone" cannot be reached any more: the connection was refused \(connect ECONNREFUSED 127\.0\.0\.1:\d+\), so the connection counts as dead; reconnecting in the background\.$/,
    );

    // A call while it reconnects fails at once with the story, in whole sentences: it waits for
    // nothing, and the server's state does not move (the next attempt is a status of its own).
    const before = [...h.states('gone')];
    const calling = echo.execute({ text: 'y' }, { signal: never() });
    const again = await failsAtOnce(calling);
    expect(h.states('gone')).toEqual(before);
    expect((again as Error).message).toContain('cannot be sent because it is reconnecting');
    expect((again as Error).message).toContain('ECONNREFUSED');
    expect((again as Error).message).not.toContain('..');

    await h.waitForState('gone', 'failed');
    const failed = h.status('gone');
    if (failed.state !== 'failed') throw new Error('unreachable');
    expect(failed.error.message).toContain('nothing accepts connections at 127.0.0.1:');
    expect(failed.error.message).toContain('Gave up after 3 reconnect attempts');
    expect(failed.error.message).not.toContain('..');
    expect(failed.error.message).not.toContain('stderr');
    // One status per attempt (the harness's watchdog makes three).
    expect(h.states('gone')).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'failed',
    ]);
    const after = await failure(echo.execute({ text: 'z' }, { signal: never() }));
    expect((after as Error).message).not.toContain('..');
    await h.finish();
  });

  it('a call whose connection is cut before the answer: it may have run, reconnecting, then connected again', async () => {
    const { h, server } = await start({ mode: 'http' });
    await h.registry.connectAll([h.healthy(), h.remote('cut', 'http', server.url)], 'user');
    // The cut ends it, not the request timeout (10 s: request_timeout).
    const error = await failure(h.call('cut', 'reset'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    // The socket was closed on us (FIN, undici's "other side closed") or reset (RST): the same story.
    expect((error as Error).message).toMatch(
      /^MCP server "cut": tools\/call "reset" failed: (the server closed the connection \(other side closed\)|the connection was reset \([^)]+\)) before the server answered; it may or may not have run on the server\. The connection counts as dead and reconnects in the background; try again in a few seconds\.$/,
    );
    expect(h.status('cut').state).toBe('reconnecting');
    await h.waitForState('cut', 'connected');
    expect(h.states('cut')).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    await h.expectEcho('cut');
    expect(server.records.filter((r) => r.rpc === 'initialize')).toHaveLength(2);
    await h.finish();
  });
});

describe('what a remote failure says', () => {
  async function web(answer: WebAnswer) {
    const h = newHarness();
    const site = await startWebServer(answer);
    h.own(() => site.stop());
    return { h, site };
  }

  it('a URL that serves a 404 web page: failed at once with status, reason and redacted URL, never the page', async () => {
    const { h, site } = await web({ status: 404, contentType: 'text/html', body: NOT_FOUND_PAGE });
    const url = `${site.origin}/api?key=sk-live-4f9a8b7c`;
    await h.registry.connectAll([h.healthy(), h.remote('site', 'http', url)], 'user');
    const status = h.status('site');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error).toEqual({
      code: 'connect_failed',
      message: `MCP server "site" failed to connect: the server answered POST ${site.origin}/api?key=*** with HTTP 404 Not Found: a web page, not an MCP endpoint. Check "url": it must be the server's MCP endpoint (often ending in /mcp or /sse).`,
    });
    expect(status.stderrTail).toBe('');
    // At once: one attempt, ended by the answer (connect_timeout says connect_timeout).
    expect(h.states('site')).toEqual(['connecting', 'failed']);
    await h.finish();
  });

  it('a redirect to another origin: the status and where it points, its token and password redacted', async () => {
    const location = 'https://user:pa55@login.example/authorize?token=sk-live-9d8c&next=%2Fmcp';
    const { h, site } = await web({
      status: 302,
      contentType: 'text/html',
      body: NOT_FOUND_PAGE,
      headers: { location },
    });
    await h.registry.connectAll(
      [
        h.healthy(),
        h.remote('moved', 'http', `${site.origin}/mcp`),
        h.remote('old', 'sse', `${site.origin}/sse`),
      ],
      'user',
    );
    const to =
      'https://user:***@login.example/authorize?token=***&next=***, which was not followed';
    for (const [name, request] of [
      ['moved', `POST ${site.origin}/mcp`],
      ['old', `GET ${site.origin}/sse (the SSE event stream)`],
    ]) {
      const status = h.status(name as string);
      if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
      expect(status.error.code).toBe('connect_failed');
      expect(status.error.message).toContain(
        `the server answered ${request} with HTTP 302 Found to ${to}`,
      );
      expect(status.error.message).toContain('put it in "url"');
      expect(status.error.message).not.toContain('sk-live-9d8c');
      expect(status.error.message).not.toContain('pa55');
    }
    await h.finish();
  });

  it('5 MB of garbage on an SSE stream: says no valid event came, not "SSE error: undefined"', async () => {
    const { h, site } = await web({
      status: 200,
      contentType: 'text/event-stream',
      body: 'garbage '.repeat(640 * 1024),
    });
    await h.registry.connectAll(
      [h.healthy(), h.remote('noise', 'sse', `${site.origin}/sse`)],
      'user',
    );
    const status = h.status('noise');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error).toEqual({
      code: 'connect_failed',
      message: `MCP server "noise" failed to connect: the event stream of GET ${site.origin}/sse sent no valid "endpoint" event before it ended: it is not an MCP SSE endpoint, or its event stream is malformed. Check "url" (and whether the server uses Streamable HTTP: "type": "http").`,
    });
    await h.finish();
  });

  it('a URL that serves a web page with 200: one line saying it is not an MCP endpoint', async () => {
    const { h, site } = await web({ status: 200, contentType: 'text/html', body: NOT_FOUND_PAGE });
    await h.registry.connectAll(
      [
        h.healthy(),
        h.remote('page', 'http', `${site.origin}/`),
        h.remote('stream', 'sse', `${site.origin}/sse`),
      ],
      'user',
    );
    const page = h.status('page');
    const stream = h.status('stream');
    if (page.state !== 'failed' || stream.state !== 'failed') throw new Error('expected failed');
    expect(page.error.message).toBe(
      `MCP server "page" failed to connect: the server answered POST ${site.origin}/ with "text/html" instead of JSON or an event stream: it is not an MCP endpoint. Check "url".`,
    );
    expect(stream.error.message).toBe(
      `MCP server "stream" failed to connect: the server answered GET ${site.origin}/sse (the SSE event stream) with HTTP 200 OK, but not with an event stream: it is not an MCP SSE endpoint. Check "url" (and whether the server uses Streamable HTTP: "type": "http").`,
    );
    for (const name of ['page', 'stream']) {
      expect(h.states(name), name).toEqual(['connecting', 'failed']);
    }
    await h.finish();
  });

  it('legacy SSE whose POSTs get a web page: the status is said, the page is not shown', async () => {
    const { h, server } = await start({ mode: 'sse', fault: 'htmlPosts' });
    await h.registry.connectAll([h.healthy(), h.remote('proxied', 'sse', server.url)], 'user');
    const status = h.status('proxied');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.message).toBe(
      `MCP server "proxied" failed to connect: Error POSTing to endpoint (HTTP 404): an HTML page (not shown). Check "url" (${server.url}).`,
    );
    expect(h.states('proxied')).toEqual(['connecting', 'failed']);
    await h.finish();
  });

  it('a remote server that never answers: connect_timeout names its URL, not a stderr it does not have', async () => {
    const { h, site } = await web('silence');
    const url = `${site.origin}/mcp`;
    const started = performance.now();
    await h.registry.connectAll(
      [h.healthy(), h.remote('mute', 'http', url, { connectTimeoutMs: 500 })],
      'user',
    );
    const status = h.status('mute');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error).toEqual({
      code: 'connect_timeout',
      message: `MCP server "mute" did not finish connecting within 500 ms (the connect timeout covers start, initialize and the first tools/list). If it is just slow, give it a longer connect timeout; otherwise check that ${url} is the server's MCP endpoint and that it answers.`,
    });
    // The deadline ended a wait for its answer: the request had reached the server.
    expect(site.requests).toContainEqual({ method: 'POST', path: '/mcp' });
    // Not before the deadline: a lower bound, which no slow machine fails (a timer never fires
    // early; Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    await h.finish();
  });

  it('a JSON-RPC error from an older-SDK server prints its code once', async () => {
    const { h } = await start({ mode: 'http' }).then(async ({ h, server }) => {
      await h.registry.connectAll([h.healthy(), h.remote('strict', 'http', server.url)], 'user');
      return { h };
    });
    const error = await failure(h.call('strict', 'invalid', { text: 1 }));
    expect(isMcpError(error, 'server_error')).toBe(true);
    expect((error as Error).message).toBe(
      'MCP server "strict": tools/call "invalid" failed: the server answered with error -32602: Invalid arguments for tool invalid: "text" must be a string',
    );
    expect(h.status('strict').state).toBe('connected');
    await h.finish();
  });

  it('a server with resources: toolCount is the number of tools offered, list_resources and read_resource included', async () => {
    const { h, server } = await start({ mode: 'http', resources: true });
    const [status] = await h.registry.connectAll([h.remote('docs', 'http', server.url)], 'user');
    const offered = h.registry.tools().filter((tool) => tool.server === 'docs');
    expect(offered.map((tool) => tool.name)).toContain('mcp__docs__list_resources');
    expect(status?.toolCount).toBe(offered.length);
    expect(h.status('docs').toolCount).toBe(offered.length);
    await h.registry.connectAll([h.healthy()], 'user');
    await h.finish();
  });
});

function never(): AbortSignal {
  return new AbortController().signal;
}
