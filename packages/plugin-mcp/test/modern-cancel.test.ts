// A tool call stopped by the user or by its timeout on a 2026-era connection reaches the server as
// that era's transport says it must: over stdio as notifications/cancelled with the request's id,
// over Streamable HTTP by closing the request's stream (the spec makes that the signal, and the
// server must take a disconnect as cancellation).
import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { MODERN, startModernServer } from './support/modern-http-server.js';
import {
  cancelledIds,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { rejection } from './support/waiting.js';

const servers = useRecordingClients();
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('2026-era stdio', () => {
  async function modernStdio(timeoutMs: number) {
    const started = servers.start({ modern: true }, { config: { timeoutMs } });
    await started.client.connect();
    // The era is the 2026 one: no initialize, and every request carries that revision.
    expect(requests(started.file, 'initialize')).toEqual([]);
    return started;
  }

  async function expectCancelledCall(file: string): Promise<void> {
    const [call] = requests(file, 'tools/call');
    const meta = call?.in?.params?._meta as Record<string, unknown> | undefined;
    expect(meta?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
    const entries = await waitForRecords(file, (e) =>
      e.some((r) => r.event === 'cancelled' && r.id === call?.in?.id),
    );
    expect(cancelledIds(entries)).toEqual([call?.in?.id]);
  }

  it('a call stopped by the user sends notifications/cancelled with its id', async () => {
    const { client, file } = await modernStdio(300_000);
    const stop = new AbortController();
    const call = client.callTool('hang', {}, stop.signal);
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'tools/call'));
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    await expectCancelledCall(file);
  });

  it('a call that times out sends notifications/cancelled with its id', async () => {
    const { client, file } = await modernStdio(300);
    expect((await rejection(client.callTool('hang', {}))).code).toBe('request_timeout');
    await expectCancelledCall(file);
    expect(client.state.kind).toBe('connected');
  });
});

describe('2026-era Streamable HTTP', () => {
  async function modernHttp(timeoutMs: number) {
    const server = await startModernServer({ tools: [{ name: 'hang', script: () => 'hang' }] });
    cleanups.push(() => server.stop());
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url, { timeoutMs }),
    });
    cleanups.push(() => client.close());
    await client.connect();
    return { server, client };
  }

  it('a call stopped by the user closes its request stream, which the server takes as cancellation', async () => {
    const { server, client } = await modernHttp(300_000);
    const stop = new AbortController();
    const call = client.callTool('hang', {}, stop.signal);
    await server.until(() => server.requests('tools/call').length === 1, 'the call');
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    const [sent] = server.requests('tools/call');
    await server.until(() => server.closed.includes(sent?.id ?? -1), 'the call to be closed');
    expect(server.closed).toEqual([sent?.id]);
  });

  it('a call that times out closes its request stream', async () => {
    const { server, client } = await modernHttp(300);
    expect((await rejection(client.callTool('hang', {}))).code).toBe('request_timeout');
    const [sent] = server.requests('tools/call');
    await server.until(() => server.closed.includes(sent?.id ?? -1), 'the call to be closed');
    expect(server.closed).toEqual([sent?.id]);
    expect(client.state.kind).toBe('connected');
  });
});
