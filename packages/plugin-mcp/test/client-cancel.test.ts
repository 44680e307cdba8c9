import { describe, expect, it } from 'vitest';
import type { McpClient } from '../src/connection/client.js';
import {
  type Behavior,
  cancelledIds,
  requests,
  useRecordingClients,
  waitForRecords,
} from './support/recording.js';
import { rejection } from './support/waiting.js';

const ALL = { tools: {}, resources: {}, prompts: {} };

/** The lists a client walks page by page on request (tools/list is walked by connect). */
const LISTS: ReadonlyArray<
  readonly [string, (client: McpClient, signal?: AbortSignal) => Promise<unknown>]
> = [
  ['prompts/list', (c, signal) => c.listPrompts(signal)],
  ['resources/list', (c, signal) => c.listResources(signal)],
  ['resources/templates/list', (c, signal) => c.listResourceTemplates(signal)],
];

const servers = useRecordingClients();

function start(behavior: Behavior, timeoutMs = 300_000, maxTotalTimeoutMs = 3_600_000) {
  return servers.start(behavior, { config: { timeoutMs, maxTotalTimeoutMs } });
}

/**
 * The two ways a tools/call goes, held to one contract: plain JSON-RPC on a 2025-era stdio
 * connection (direct-calls.ts), and the SDK's request on a 2026-era one.
 */
const CALL_PATHS: ReadonlyArray<readonly [string, Behavior]> = [
  ['on the stdio hot path (2025 era)', {}],
  ["on the SDK's path (2026 era over stdio)", { modern: true }],
];

/** Waits until the server got notifications/cancelled for the (only) request of `method`. */
async function expectCancelled(file: string, method: string): Promise<void> {
  const [request] = requests(file, method);
  expect(request?.in?.id).toBeTypeOf('number');
  const entries = await waitForRecords(file, (e) =>
    e.some((r) => r.event === 'cancelled' && r.id === request?.in?.id),
  );
  expect(cancelledIds(entries)).toEqual([request?.in?.id]);
  // The fixture honours it: it dropped the work for exactly that id.
  expect(entries.filter((e) => e.event === 'cancelled').map((e) => e.id)).toEqual([
    request?.in?.id,
  ]);
}

describe.each(CALL_PATHS)('tools/call cancellation %s', (_, era) => {
  it('user abort sends notifications/cancelled with the request id and rejects as aborted', async () => {
    const { client, file } = start({ ...era });
    await client.connect();
    const stop = new AbortController();
    const call = client.callTool('hang', {}, stop.signal);
    await waitForRecords(file, (e) => e.some((r) => r.in?.method === 'tools/call'));
    stop.abort();
    const error = await rejection(call);
    expect(error.code).toBe('aborted');
    expect(error.server).toBe('rec');
    expect(error.tool).toBe('hang');
    expect(error.message).toContain('"rec"');
    expect(error.message).toContain('"hang"');
    await expectCancelled(file, 'tools/call');
  });

  it('a signal aborted before the call: aborted, said to be cancelled before it was sent, and nothing reaches the server', async () => {
    const { client, file } = start({ ...era });
    await client.connect();
    const error = await rejection(client.callTool('echo', { text: 'x' }, AbortSignal.abort()));
    expect(error.code).toBe('aborted');
    expect(error.tool).toBe('echo');
    expect(error.message).toContain(
      'MCP server "rec": tools/call "echo" was cancelled before it was sent',
    );
    // There was no earlier call for it to wait for.
    expect(error.message).not.toContain('earlier call');
    // The next call is answered, and it is the only one the server ever got.
    await client.callTool('echo', { text: 'y' });
    expect(requests(file, 'tools/call').map((r) => r.in?.params)).toEqual([
      expect.objectContaining({ arguments: { text: 'y' } }),
    ]);
  });

  it('timeout sends notifications/cancelled with the request id and rejects as request_timeout', async () => {
    const { client, file } = start({ ...era }, 300);
    await client.connect();
    const error = await rejection(client.callTool('hang', {}, new AbortController().signal));
    expect(error.code).toBe('request_timeout');
    expect(error.tool).toBe('hang');
    expect(error.message).toContain('"rec"');
    expect(error.message).toContain('"hang"');
    expect(error.message).toContain('timeout');
    await expectCancelled(file, 'tools/call');
  });

  it('the total limit (max_total_timeout) sends notifications/cancelled and rejects as request_total_timeout', async () => {
    const { client, file } = start({ ...era }, 60_000, 300);
    await client.connect();
    const error = await rejection(client.callTool('hang', {}, new AbortController().signal));
    expect(error.code).toBe('request_total_timeout');
    expect(error.tool).toBe('hang');
    // The setting named, no file (a host's server is in none); a plain call, not a task's words.
    expect(error.message).toContain(
      'its total limit of 300 ms ("max_total_timeout") and was cancelled: the server was told to cancel it (notifications/cancelled',
    );
    expect(error.message).not.toContain('mcp.json');
    await expectCancelled(file, 'tools/call');
  });

  it('a call answered in time settles with its result, and nothing is cancelled', async () => {
    const { client, file } = start({ ...era });
    await client.connect();
    const stop = new AbortController();
    const result = await client.callTool('echo', { text: 'x' }, stop.signal);
    expect(JSON.stringify(result.content)).toContain('x');
    // A stop after the answer tells the server nothing: a notification it sent would reach the
    // server before the next call does.
    stop.abort();
    await client.callTool('echo', { text: 'y' });
    expect(cancelledIds(await waitForRecords(file, () => true))).toEqual([]);
  });
});

describe("a turn's signal on the stdio hot path", () => {
  it('gets no combined signal per call: nothing of a call outlives it on the signal', async () => {
    const { client } = start({});
    await client.connect();
    const turn = new AbortController();
    const any = AbortSignal.any;
    let combined = 0;
    // Each AbortSignal.any() result stays among its sources' dependants until it is collected:
    // with one signal for a turn of many calls, that list grew with every call.
    AbortSignal.any = (signals) => {
      combined += 1;
      return any.call(AbortSignal, signals);
    };
    try {
      for (let call = 0; call < 5; call++) {
        await client.callTool('echo', { text: String(call) }, turn.signal);
      }
    } finally {
      AbortSignal.any = any;
    }
    expect(combined).toBe(0);
  });
});

describe('every request kind honours timeout', () => {
  const kinds: ReadonlyArray<readonly [string, (client: McpClient) => Promise<unknown>]> = [
    ['tools/call', (c) => c.callTool('echo', { text: 'x' })],
    ['resources/list', (c) => c.listResources()],
    ['resources/templates/list', (c) => c.listResourceTemplates()],
    ['resources/read', (c) => c.readResource('mem://a')],
    ['prompts/list', (c) => c.listPrompts()],
    ['prompts/get', (c) => c.getPrompt('greet', { who: 'x' })],
    ['ping', (c) => c.ping()],
  ];

  it.each(kinds)('%s times out and is cancelled on the server', async (method, send) => {
    const { client, file } = start({ capabilities: ALL, hang: [method] }, 300);
    await client.connect();
    const error = await rejection(send(client));
    expect(error.code).toBe('request_timeout');
    expect(error.message).toContain(method);
    await expectCancelled(file, method);
    // The connection survives a timed-out request.
    expect(client.state.kind).toBe('connected');
  });

  it('tools/list (during connect) times out and is cancelled on the server', async () => {
    const { client, file } = start({ hang: ['tools/list'] }, 300);
    const error = await rejection(client.connect());
    expect(error.code).toBe('request_timeout');
    expect(error.message).toContain('tools/list');
    await expectCancelled(file, 'tools/list');
    expect(client.state.kind).toBe('failed');
  });

  it.each(LISTS)(
    '%s gives every page the full timeout, not only the first',
    async (method, listAll) => {
      // Page 1 is answered with a nextCursor, page 2 never: without per-page options page 2 would
      // wait for the SDK's 60 s default instead of this server's 300 ms.
      const { client, file } = start(
        { capabilities: ALL, forever: [method], hangAfter: { [method]: 1 } },
        300,
      );
      await client.connect();
      const error = await rejection(listAll(client));
      expect(error.code).toBe('request_timeout');
      expect(error.message).toContain(method);
      const pages = requests(file, method);
      expect(pages.map((p) => p.in?.params?.cursor)).toEqual([undefined, '1']);
      const entries = await waitForRecords(file, (e) => cancelledIds(e).length > 0);
      expect(cancelledIds(entries)).toEqual([pages[1]?.in?.id]);
    },
  );
});

describe('paged list cancellation', () => {
  it.each(LISTS)(
    '%s stopped by the user mid-walk cancels the page in flight and asks for no more',
    async (method, listAll) => {
      // Pages 1 and 2 are answered with a nextCursor; page 3 never is, so the walk waits on it.
      const { client, file } = start({
        capabilities: ALL,
        forever: [method],
        hangAfter: { [method]: 2 },
      });
      await client.connect();
      const stop = new AbortController();
      const walking = rejection(listAll(client, stop.signal));
      await waitForRecords(file, (e) => e.filter((r) => r.in?.method === method).length === 3);
      stop.abort();
      const error = await walking;
      expect(error.code).toBe('aborted');
      expect(error.message).toContain(method);
      const pages = requests(file, method);
      expect(pages.map((p) => p.in?.params?.cursor)).toEqual([undefined, '1', '2']);
      // The fixture dropped that page's work; nothing after it was asked.
      const entries = await waitForRecords(file, (e) => e.some((r) => r.event === 'cancelled'));
      expect(cancelledIds(entries)).toEqual([pages[2]?.in?.id]);
      expect(entries.filter((e) => e.event === 'cancelled').map((e) => e.id)).toEqual([
        pages[2]?.in?.id,
      ]);
      expect(requests(file, method)).toHaveLength(3);
      expect(client.state.kind).toBe('connected');
    },
  );
});
