// Fault injection over HTTP (support/http-mcp-server.ts on 127.0.0.1): a server that answers 500
// to everything, one that forgets its session, and an event stream that drops mid-call. Each ends
// in the state, message and time bound the issue asks for, beside a healthy stdio server in the
// same registry; every test ends with harness.finish() (see support/fault-harness.ts).
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors.js';
import { type FaultHarness, timed, useFaultHarness } from './support/fault-harness.js';
import { type RunningHttpMcpServer, startHttpMcpServer } from './support/http-mcp-server.js';

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
    const { ms } = await timed(
      h.registry.connectAll([h.healthy(), h.remote('broken', 'http', server.url)], 'user'),
    );
    const status = h.status('broken');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toContain('"broken"');
    expect(status.error.message).toContain('internal error: database down');
    expect(ms).toBeLessThan(2_000);
    expect(h.status('healthy').state).toBe('connected');
    await h.finish();
  });

  it('session 404: the client initializes a new session once and the call succeeds', async () => {
    const { h, server } = await start({ mode: 'http' });
    await h.registry.connectAll([h.healthy(), h.remote('forgetful', 'http', server.url)], 'user');
    await h.expectEcho('forgetful');
    server.expireSessions();
    const { ms, error } = await timed(h.expectEcho('forgetful'));
    expect(error).toBeUndefined();
    expect(ms).toBeLessThan(2_000);
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
    // The request timeout is 10 s: the drop must be noticed, not waited out.
    const { ms, error } = await timed(h.call('flaky', 'drop'));
    expect(isMcpError(error, 'request_failed')).toBe(true);
    expect((error as Error).message).toContain('"flaky"');
    expect((error as Error).message).toContain('"drop"');
    expect((error as Error).message).toContain('broke off before the server answered');
    expect(ms).toBeLessThan(3_000);
    // Only that request's stream broke: the session is intact and answers the next call.
    expect(h.states('flaky')).toEqual(['connecting', 'connected']);
    await h.expectEcho('flaky');
    await h.finish();
  });

  it('event stream dropped mid-call (legacy SSE): the call fails soon, reconnecting, then connected', async () => {
    const { h, server } = await start({ mode: 'sse' });
    await h.registry.connectAll([h.healthy(), h.remote('flaky', 'sse', server.url)], 'user');
    const { ms, error } = await timed(h.call('flaky', 'drop'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect((error as Error).message).toContain('"flaky"');
    expect((error as Error).message).toContain('"drop"');
    expect(ms).toBeLessThan(3_000);
    await h.waitForState('flaky', 'connected', 10_000);
    expect(h.states('flaky')).toContain('reconnecting');
    expect(h.states('flaky')).not.toContain('failed');
    expect(server.records.filter((r) => r.rpc === 'initialize')).toHaveLength(2);
    await h.expectEcho('flaky');
    await h.finish();
  });
});
