// A host with many servers: 100 servers of 100 tools each, connected over an in-memory transport
// (a hand-written JSON-RPC answerer injected as the transport factory, so the figures are the
// registries' own work, not 100 processes starting). Ten pairs of servers are named so that their
// tools collide (`team.3` and `team_3` both give `mcp__team_3__...`): 1,000 collisions for the
// ToolRegistry to settle. Nothing here has a raw SDK counterpart; the goals are absolute.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpRegistry, parseMcpConfig, toEpochTools } from '@epoch-agent/plugin-mcp';
import { buildRuntime, mcpGroup, ToolRegistry } from '@epoch-agent/runtime';
import { median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';

const SERVERS = 100;
const TOOLS = 100;
const COLLIDING_PAIRS = 10;
const ROUNDS = 11;
const GOAL = { kind: 'absolute', max: 50 };

const TOOL_LIST = Array.from({ length: TOOLS }, (_, i) => ({
  name: `tool_${String(i).padStart(3, '0')}`,
  description: `Tool number ${i} of a large server.`,
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, depth: { type: 'integer' } },
    required: ['path'],
  },
  annotations: { readOnlyHint: i % 2 === 0 },
}));

export async function manyServers(signal) {
  const label = `${SERVERS} servers x ${TOOLS} tools`;
  return scoped(async (defer) => {
    const registry = new McpRegistry({ schemaCache: null, createTransport: inMemoryTransport });
    defer(() => registry.disconnectAll());
    const statuses = await registry.connectAll(configs(), 'user');
    if (statuses.some((status) => status.state !== 'connected')) {
      throw new Error('scale bench: an in-memory server did not connect');
    }
    const all = registry.tools();
    if (all.length !== SERVERS * TOOLS) throw new Error(`scale bench: ${all.length} tools`);
    const byServer = new Map();
    for (const tool of all) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);

    const toolsCall = await repeat(() => registry.tools(), signal);
    const naming = await repeat(
      () =>
        [...byServer.keys()].map((server) =>
          toEpochTools({ server, tools: TOOL_LIST, resources: false, backend: NOT_CALLED }),
        ),
      signal,
    );
    const resolving = await repeat(() => {
      const tools = new ToolRegistry();
      for (const [server, offered] of byServer) tools.setGroup(mcpGroup(server), offered);
      const collisions = tools.collisions().length;
      if (collisions !== COLLIDING_PAIRS * TOOLS) {
        throw new Error(`scale bench: ${collisions} collisions`);
      }
      return tools.tools();
    }, signal);
    const runtime = await repeat(() => runtimeOf(signal), signal, 3);
    return [
      { metric: `McpRegistry.tools(), ${label}`, ours: toolsCall, goal: GOAL },
      { metric: `tool names of ${label} (toEpochTools per server)`, ours: naming, goal: GOAL },
      {
        metric: `ToolRegistry: ${SERVERS} groups set one by one, ${COLLIDING_PAIRS * TOOLS} collisions`,
        ours: resolving,
        goal: GOAL,
      },
      {
        metric: `buildRuntime of ${label} (in memory), until every tool is registered`,
        ours: runtime,
        goal: { kind: 'info' },
      },
    ];
  });
}

/** Naming tools calls nothing on their server. */
const NOT_CALLED = {
  callTool: unexpected,
  listResources: unexpected,
  listResourceTemplates: unexpected,
  readResource: unexpected,
};

function unexpected() {
  throw new Error('scale bench: a tool was called');
}

/** The median time of `step` over `rounds` runs. */
async function repeat(step, signal, rounds = ROUNDS) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    signal.throwIfAborted();
    samples.push(await timed(step));
  }
  return median(samples);
}

/** A whole runtime on a user mcp.json of every server, until its ToolRegistry holds every tool. */
async function runtimeOf(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-scale-'));
  let runtime;
  try {
    const configFile = join(dir, 'mcp.json');
    await writeFile(configFile, JSON.stringify({ servers: entries() }));
    runtime = await buildRuntime({
      configFile,
      registry: { schemaCache: null, createTransport: inMemoryTransport },
      signal,
    });
    const registered = runtime.tools.entries().length;
    if (registered !== SERVERS * TOOLS) throw new Error(`scale bench: ${registered} registered`);
  } finally {
    await runtime?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function entries() {
  const servers = {};
  for (let i = 0; i < SERVERS - 2 * COLLIDING_PAIRS; i++) {
    servers[`srv-${String(i).padStart(2, '0')}`] = { command: 'in-memory', skip_preflight: true };
  }
  for (let i = 0; i < COLLIDING_PAIRS; i++) {
    servers[`team.${i}`] = { command: 'in-memory', skip_preflight: true };
    servers[`team_${i}`] = { command: 'in-memory', skip_preflight: true };
  }
  return servers;
}

function configs() {
  const { servers, diagnostics } = parseMcpConfig(JSON.stringify({ servers: entries() }), 'scale');
  if (diagnostics.length > 0) throw new Error(diagnostics[0].message);
  return servers;
}

/** An McpTransportFactory whose every server is a MemoryServer. */
function inMemoryTransport() {
  const transport = new MemoryServer();
  return { transport, stderrTail: () => '', close: () => transport.close() };
}

/** The client side of an SDK Transport, answered in process by a server of TOOL_LIST. */
class MemoryServer {
  onmessage;
  onclose;
  onerror;
  #closed = false;

  async start() {}

  async send(message) {
    if (this.#closed) throw new Error('closed');
    if (message.id === undefined) return;
    const result = answer(message);
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, ...result }));
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

function answer(message) {
  switch (message.method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'bench-memory', version: '1.0.0' },
        },
      };
    case 'tools/list':
      return { result: { tools: TOOL_LIST } };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}
