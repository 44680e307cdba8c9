// The two sides of every comparison, on the same server. Ours: McpRegistry and McpClient from
// @epoch-agent/plugin-mcp, configured the way a user's mcp.json configures them. Raw: the SDK's
// `Client` with the SDK's own transports, doing the same work (initialize, then tools/list).
import { McpClient, McpRegistry, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Bounds every request of both sides, so that a server that stops answering cannot hang the bench. */
const REQUEST_TIMEOUT_S = 10;
const CONNECT_TIMEOUT_S = 30;

export const ECHO_ARGS = { message: 'bench' };

/**
 * Server configs through the real config reader (defaults applied), one per `{ name: endpoint }`;
 * an endpoint is `{ transport: 'stdio', command, args, env? }` or `{ transport: 'http', url }`.
 */
export function serverConfigs(endpoints) {
  const servers = {};
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const limits = { timeout: REQUEST_TIMEOUT_S, connect_timeout: CONNECT_TIMEOUT_S };
    servers[name] =
      endpoint.transport === 'stdio'
        ? { command: endpoint.command, args: [...endpoint.args], env: endpoint.env, ...limits }
        : { transport: endpoint.transport, url: endpoint.url, ...limits };
  }
  const { servers: configs, diagnostics } = parseMcpConfig(JSON.stringify({ servers }), 'bench');
  if (diagnostics.length > 0) {
    throw new Error(`bench configs: ${diagnostics.map((d) => d.message).join('; ')}`);
  }
  return configs;
}

/** connectAll, then a check that every server really connected: a failed one must not be timed. */
export async function connectRegistry(registry, configs) {
  const statuses = await registry.connectAll(configs, 'user');
  const failed = statuses.filter((status) => status.state !== 'connected');
  if (failed.length > 0) {
    const first = failed[0];
    throw new Error(
      `${failed.length} of ${statuses.length} servers did not connect; "${first.name}": ${first.state === 'failed' ? first.error.message : first.state}`,
    );
  }
}

/**
 * A registry without the schema cache: the bench times connections, and with a cached tool list
 * connectAll would not wait for a server at all (a host's first start has no cache either).
 */
export function newRegistry() {
  return new McpRegistry({ schemaCache: null });
}

/** A registry with one server connected: the path a host takes. */
export async function ourRegistry(name, endpoint) {
  const registry = newRegistry();
  try {
    await connectRegistry(registry, serverConfigs({ [name]: endpoint }));
  } catch (error) {
    await registry.disconnectAll();
    throw error;
  }
  return registry;
}

export async function ourClient(name, endpoint) {
  const [config] = serverConfigs({ [name]: endpoint });
  const client = new McpClient({ config });
  await client.connect();
  return client;
}

export async function rawClient(endpoint, signal) {
  const client = new Client({ name: 'bench-raw-sdk', version: '1.0.0' });
  const transport =
    endpoint.transport === 'stdio'
      ? new StdioClientTransport({
          command: endpoint.command,
          args: [...endpoint.args],
          env: { ...getDefaultEnvironment(), ...endpoint.env },
          stderr: 'ignore',
        })
      : new StreamableHTTPClientTransport(new URL(endpoint.url));
  const options = rawOptions(signal, CONNECT_TIMEOUT_S);
  try {
    await client.connect(transport, options);
    await client.listTools(undefined, options);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

/** A host's tool call: the EpochTool the registry made of the server's `echo`, with the turn's signal. */
export function executeEcho(registry, server, signal) {
  const tool = registry
    .tools()
    .find(
      (candidate) =>
        candidate.server === server &&
        candidate.target.kind === 'tool' &&
        candidate.target.name === 'echo',
    );
  if (tool === undefined) throw new Error(`server "${server}" has no echo tool`);
  return () => tool.execute(ECHO_ARGS, { signal });
}

export function clientEcho(client, signal) {
  return () => client.callTool('echo', ECHO_ARGS, signal);
}

export function rawEcho(client, signal) {
  const options = rawOptions(signal, REQUEST_TIMEOUT_S);
  return () => client.callTool({ name: 'echo', arguments: ECHO_ARGS }, options);
}

/** One call, checked: a bench that times errors would measure nothing. */
export async function checkEcho(label, call) {
  const result = await call();
  const text = JSON.stringify(result);
  if (result.isError === true || !text.includes(ECHO_ARGS.message)) {
    throw new Error(`${label}: echo did not echo: ${text.slice(0, 300)}`);
  }
}

function rawOptions(signal, timeoutS) {
  return { signal, timeout: timeoutS * 1000 };
}
