// Every MCP operation traced, with the OpenTelemetry SDK registered as a host registers it (spans
// in memory, metrics read on demand), against testkit's modern-server.mjs on the official server
// SDK with `--trace`: a tool that answers with the traceparent its call carried, and one that
// logs. Both eras (the 2025 era through the same program wired the 2025 way over stdio, and over
// HTTP by a remembered verdict), stdio (the 2025 era's direct hot path too) and Streamable HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogFields, Logger } from '@epoch-agent/infra';
import {
  MODERN_SERVER,
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  stdioConfig,
  waitUntil,
} from '@epoch-agent/testkit';
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import type { McpTracingOptions } from '../src/connection/options.js';
import type { McpServerConfig } from '../src/types.js';
import { registerTelemetry, type Telemetry } from './support/otel.js';
import { jsonLines, recordingConfig, records } from './support/recording.js';

const FAULT_SERVER = fileURLToPath(new URL('./fixtures/fault-server.mjs', import.meta.url));

let telemetry: Telemetry;
let dir: string;
let record: string;
const clients: McpClient[] = [];
let http: RunningModernServer | undefined;

beforeAll(() => {
  telemetry = registerTelemetry();
});
afterAll(async () => {
  await telemetry.shutdown();
});

beforeEach(async () => {
  dir = mkdtempSync(join(os.tmpdir(), 'epoch-trace-'));
  record = join(dir, 'record.jsonl');
  await telemetry.reset();
});

afterEach(async () => {
  try {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await http?.stop();
    http = undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

type Way = 'stdio 2026' | 'stdio 2025' | 'http 2026' | 'http 2025';
const WAYS: readonly Way[] = ['stdio 2026', 'stdio 2025', 'http 2026', 'http 2025'];

interface Line {
  readonly level: keyof Logger;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

async function connectedClient(
  way: Way,
  {
    tracing,
    config = {},
  }: { readonly tracing?: McpTracingOptions; readonly config?: Partial<McpServerConfig> } = {},
): Promise<{ client: McpClient; lines: Line[] }> {
  const env = { RECORD_FILE: record, API_TOKEN: 'sekret-token-31337' };
  let server: McpServerConfig;
  if (way.startsWith('stdio')) {
    const legacy = way === 'stdio 2025' ? ['--legacy-only'] : [];
    server = stdioConfig('traced', process.execPath, [MODERN_SERVER, '--trace', ...legacy], {
      env,
      ...config,
    } as Partial<McpServerConfig> as never);
  } else {
    http = await startModernHttp(['--trace'], env);
    server = remoteConfig('traced', 'http', http.url, config as never);
  }
  const lines: Line[] = [];
  const line =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  const client = new McpClient({
    config: server,
    logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
    ...(tracing === undefined ? {} : { tracing }),
  });
  clients.push(client);
  // Over HTTP the 2025 era is the one the client remembers meeting: it goes straight to initialize.
  if (way === 'http 2025') {
    client.remember({
      tools: [],
      resources: false,
      prompts: false,
      memory: { verdict: { era: 'legacy', version: '2025-11-25' } },
    });
  }
  await client.connect();
  const state = client.state;
  if (state.kind !== 'connected') throw new Error(`not connected: ${JSON.stringify(state)}`);
  expect(state.protocol.era).toBe(way.endsWith('2026') ? 'modern' : 'legacy');
  return { client, lines };
}

const textOf = (result: { readonly content: readonly unknown[] }): string =>
  (result.content[0] as { readonly text: string }).text;

const spanNamed = (name: string): ReadableSpan => {
  const found = telemetry.spans().filter((span) => span.name === name);
  expect(found, `spans named "${name}" among ${telemetry.spans().map((s) => s.name)}`).toHaveLength(
    1,
  );
  return found[0] as ReadableSpan;
};

/** Runs `work` inside a span of the host's own, as an agent's turn would. */
function inHostSpan<T>(name: string, work: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer('host').startActiveSpan(name, async (span) => {
    try {
      return await work(span);
    } finally {
      span.end();
    }
  });
}

describe.each(WAYS)('over %s', (way) => {
  it("a tool call's span, its attributes, and the server saw its trace context", async () => {
    const { client } = await connectedClient(way);
    let turnTrace = '';
    const seen = await inHostSpan('turn', async (turn) => {
      turnTrace = turn.spanContext().traceId;
      return textOf(await client.callTool('traceparent', { note: 'not in any span' }));
    });
    const call = spanNamed('tools/call traceparent');
    const { traceId, spanId } = call.spanContext();
    expect(call.kind).toBe(SpanKind.CLIENT);
    // The host's turn is its parent; the server was sent the call's own span as its parent.
    expect(traceId).toBe(turnTrace);
    expect(seen).toBe(`00-${traceId}-${spanId}-01`);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    const remote = way.startsWith('http');
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'traceparent',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': way.endsWith('2026') ? '2026-07-28' : expect.stringMatching(/^2025-/),
      'network.transport': remote ? 'tcp' : 'pipe',
      'epoch.mcp.server.name': 'traced',
      ...(remote ? { 'server.address': '127.0.0.1', 'network.protocol.name': 'http' } : {}),
    });
    expect(call.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    // Not asked for: no arguments, no result.
    expect(call.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(call.attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it("the connect's span, and the handshake's requests carried its trace context", async () => {
    await connectedClient(way);
    const modern = way.endsWith('2026');
    const connect = spanNamed(modern ? 'server/discover' : 'initialize');
    expect(connect.kind).toBe(SpanKind.CLIENT);
    expect(connect.attributes['mcp.method.name']).toBe(modern ? 'server/discover' : 'initialize');
    expect(connect.attributes['mcp.protocol.version']).toEqual(
      modern ? '2026-07-28' : expect.stringMatching(/^2025-/),
    );
    const { traceId, spanId } = connect.spanContext();
    const handshake = jsonLines<{ method?: string; traceparent?: string }>(record).filter(
      ({ method }) =>
        method === 'initialize' || method === 'server/discover' || method === 'tools/list',
    );
    expect(handshake.length).toBeGreaterThan(0);
    for (const request of handshake) expect(request.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });
});

describe('lists, resources and prompts', () => {
  it('each request its span, named by the conventions, its trace context sent in _meta', async () => {
    const file = join(dir, 'lists.jsonl');
    const all = { capabilities: { tools: {}, resources: {}, prompts: {} } };
    const client = new McpClient({ config: recordingConfig('lists', file, all) });
    clients.push(client);
    await client.connect();
    await inHostSpan('turn', async () => {
      await client.listResources();
      await client.listResourceTemplates();
      await client.readResource('mem://a');
      await client.listPrompts();
      await client.getPrompt('greet', { who: 'ada' });
    });
    const sent = (method: string) =>
      records(file).find((entry) => entry.in?.method === method)?.in?.params?._meta as
        | Record<string, unknown>
        | undefined;
    for (const [name, method] of [
      ['resources/list', 'resources/list'],
      ['resources/templates/list', 'resources/templates/list'],
      ['resources/read', 'resources/read'],
      ['prompts/list', 'prompts/list'],
      ['prompts/get greet', 'prompts/get'],
    ] as const) {
      const span = spanNamed(name);
      expect(span.attributes['mcp.method.name']).toBe(method);
      const { traceId, spanId } = span.spanContext();
      expect(sent(method)?.traceparent, method).toBe(`00-${traceId}-${spanId}-01`);
    }
    expect(spanNamed('prompts/get greet').attributes['gen_ai.prompt.name']).toBe('greet');
    // A resource's URI is content: not without `tracing.content`.
    expect(spanNamed('resources/read').attributes['mcp.resource.uri']).toBeUndefined();
  });
});

describe('spans of failures', () => {
  it("a JSON-RPC error: the span is an error, by the server's code", async () => {
    const { client } = await connectedClient('stdio 2026');
    await expect(client.callTool('no_such_tool', {})).rejects.toThrow();
    const call = spanNamed('tools/call no_such_tool');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toMatch(/^-32\d{3}$/);
    expect(call.attributes['rpc.response.status_code']).toBe(call.attributes['error.type']);
  });

  it('an answer not valid MCP: the span is a server_error, with no JSON-RPC code (the server sent none)', async () => {
    const flags = ['--fault=not-mcp', '--method=resources/read', '--shape=neither'];
    const client = new McpClient({
      config: stdioConfig('traced', process.execPath, [FAULT_SERVER, record, ...flags]),
    });
    clients.push(client);
    await client.connect();
    await expect(client.readResource('memo://one')).rejects.toThrow('not valid MCP');
    const read = spanNamed('resources/read');
    expect(read.status.code).toBe(SpanStatusCode.ERROR);
    expect(read.attributes['error.type']).toBe('server_error');
    expect(read.attributes['rpc.response.status_code']).toBeUndefined();
  });

  it('a cancelled call: the span ends as aborted, and the server was told', async () => {
    const { client } = await connectedClient('stdio 2025');
    const stop = new AbortController();
    const calling = client.callTool('slow', {}, stop.signal);
    await waitUntil(
      () => jsonLines<{ tool?: string }>(record).some(({ tool }) => tool === 'slow'),
      'the server to start the slow call',
    );
    stop.abort(new Error('the person pressed Stop'));
    await expect(calling).rejects.toMatchObject({ code: 'aborted' });
    const call = spanNamed('tools/call slow');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('aborted');
  });
});

describe('what the host chooses', () => {
  it("the host's own tool span stands for the call: MCP attributes on it, no second span", async () => {
    const { client } = await connectedClient('stdio 2025', { tracing: { outerToolSpan: true } });
    let hostSpanId = '';
    const seen = await inHostSpan('execute_tool traceparent', async (span) => {
      hostSpanId = span.spanContext().spanId;
      return textOf(await client.callTool('traceparent', {}));
    });
    expect(telemetry.spans().filter(({ name }) => name.startsWith('tools/call'))).toEqual([]);
    const host = spanNamed('execute_tool traceparent');
    expect(host.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'traceparent',
    });
    expect(seen).toBe(`00-${host.spanContext().traceId}-${hostSpanId}-01`);
  });

  it("arguments and results only when asked, with the server's secrets blanked", async () => {
    const { client } = await connectedClient('stdio 2026', { tracing: { content: true } });
    await client.callTool('echo', { message: 'the token is sekret-token-31337' });
    const call = spanNamed('tools/call echo');
    const args = String(call.attributes['gen_ai.tool.call.arguments']);
    const result = String(call.attributes['gen_ai.tool.call.result']);
    expect(args).toContain('the token is');
    expect(result).toContain('the token is');
    expect(`${args}${result}`).not.toContain('sekret-token-31337');
  });
});

describe('metrics', () => {
  it('each operation and each connection is measured', async () => {
    const { client } = await connectedClient('stdio 2026');
    await client.callTool('echo', { message: 'hi' });
    await client.close();
    const operations = await telemetry.points('mcp.client.operation.duration');
    const call = operations.find(
      ({ attributes }) =>
        attributes['mcp.method.name'] === 'tools/call' && attributes['gen_ai.tool.name'] === 'echo',
    );
    expect(call?.value.count).toBe(1);
    expect(call?.attributes).toMatchObject({
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'pipe',
    });
    expect(call?.attributes['error.type']).toBeUndefined();
    const connect = operations.find(
      ({ attributes }) => attributes['mcp.method.name'] === 'server/discover',
    );
    expect(connect?.value.count).toBe(1);
    const sessions = await telemetry.points('mcp.client.session.duration');
    expect(
      sessions.map(({ attributes, value }) => [attributes['mcp.protocol.version'], value.count]),
    ).toEqual([['2026-07-28', 1]]);
  });
});

describe('server logs', () => {
  const fromServer = (lines: readonly Line[]) =>
    lines
      .filter(({ fields }) => fields?.logger === 'modern-server')
      .map(({ level, message }) => [level, message]);

  it('arrive from a 2026-07-28 server, which sends none unless a request asks (logLevel)', async () => {
    const { client, lines } = await connectedClient('stdio 2026');
    await client.callTool('log', { level: 'debug', message: 'below the default' });
    await client.callTool('log', { level: 'info', message: 'hello from the tool' });
    expect(fromServer(lines)).toEqual([
      ['info', 'MCP server "traced" (modern-server): hello from the tool'],
    ]);
  });

  it('arrive over HTTP at 2026-07-28 too', async () => {
    const { client, lines } = await connectedClient('http 2026');
    await client.callTool('log', { level: 'warning', message: 'careful' });
    await waitUntil(() => fromServer(lines).length > 0, 'the log message');
    expect(fromServer(lines)).toEqual([['warn', 'MCP server "traced" (modern-server): careful']]);
  });

  it("a 2025-era server is asked for the entry's log_level (logging/setLevel)", async () => {
    const { client, lines } = await connectedClient('stdio 2025', {
      config: { logLevel: 'warning' },
    });
    await waitUntil(
      () =>
        jsonLines<{ method?: string }>(record).some(({ method }) => method === 'logging/setLevel'),
      'logging/setLevel',
    );
    await client.callTool('log', { level: 'info', message: 'not asked for' });
    await client.callTool('log', { level: 'error', message: 'asked for' });
    expect(fromServer(lines)).toEqual([
      ['error', 'MCP server "traced" (modern-server): asked for'],
    ]);
  });
});
