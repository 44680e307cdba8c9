// How the answer to a tools/call over stdio reaches the call that asked (direct-calls.ts takes these
// answers out of the stream by id, before the SDK sees it): an error answer, a result that is not
// MCP, an answer that comes after the call gave up, answers out of order, and a request from the
// server in the middle of a call, which the SDK must still answer. Hand-written misbehaving server
// (fixtures/fault-server.mjs); every test ends with harness.finish().
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { useFaultHarness } from './support/fault-harness.js';
import { cancelledIds } from './support/recording.js';

const start = useFaultHarness();

describe('the answer to a call over stdio', () => {
  it('an error answer is a server_error with the code and the server’s words; the server stays connected', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('picky', 'error-answer')], 'user');
    const error = await h.call('picky', 'work').catch((e: unknown) => e);
    expect(isMcpError(error, 'server_error')).toBe(true);
    expect((error as Error).message).toBe(
      'MCP server "picky": tools/call "work" failed: the server answered with error -32602: Invalid arguments for tool work: "text" is required',
    );
    expect(h.status('picky').state).toBe('connected');
    await h.expectEcho('picky');
    await h.finish();
  });

  it('a result that is not an object is a server_error saying the answer is not valid MCP', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('odd', 'invalid-result')], 'user');
    const error = await h.call('odd', 'work').catch((e: unknown) => e);
    expect(isMcpError(error, 'server_error')).toBe(true);
    expect((error as Error).message).toBe(
      `MCP server "odd": tools/call "work" failed: the server's answer is not valid MCP: its "result" is a string, not an object. Ask the server's maintainers to fix it.`,
    );
    await h.expectEcho('odd');
    await h.finish();
  });

  it('an answer to a call that timed out is dropped: the next call gets its own answer', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('slow', 'late-answer', { timeoutMs: 300 })],
      'user',
    );
    const error = await h.call('slow', 'work').catch((e: unknown) => e);
    expect(isMcpError(error, 'request_timeout')).toBe(true);
    const call = h.received('slow').find((r) => r.in?.method === 'tools/call');
    await expect.poll(() => cancelledIds(h.received('slow'))).toEqual([call?.in?.id]);
    // The server sends the old answer right before this call's own.
    await h.expectEcho('slow');
    expect(h.states('slow')).toEqual(['connecting', 'connected']);
    await h.finish();
  });

  it('answers out of order go to the calls that asked, and no request id is used twice', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('juggler', 'swap', { supportsParallel: true })],
      'user',
    );
    const [first, second] = await Promise.all([
      h.call('juggler', 'work', { text: 'first' }),
      h.call('juggler', 'work', { text: 'second' }),
    ]);
    expect(first.content).toEqual([{ type: 'text', text: 'first' }]);
    expect(second.content).toEqual([{ type: 'text', text: 'second' }]);
    const ids = h
      .received('juggler')
      .filter((r) => r.in?.id !== undefined)
      .map((r) => r.in?.id);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ids).size).toBe(ids.length);
    await h.finish();
  });

  it('a request from the server during a call is answered by the client, and the call then completes', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('curious', 'ask-mid-call')], 'user');
    const result = await h.call('curious', 'work');
    expect(result.content).toEqual([{ type: 'text', text: 'the client answered: {}' }]);
    await h.finish();
  });
});
