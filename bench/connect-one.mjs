// connect + list of one stdio server, the wait a host's first start has for each server: ours is
// McpRegistry.connectAll with its default schema cache (empty: a first start), timed until the
// server's tools are known; raw is the SDK Client connecting over its StdioClientTransport, then
// listTools. Each sample starts a fresh server process; the close after it is not timed.
import { McpRegistry } from '@epoch-agent/plugin-mcp';
import { alternate, median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';
import { connectRegistry, rawClient, serverConfigs } from './sides.mjs';

const ROUNDS = 25;
const SERVER = 'bench';

export async function connectOneTime(endpoint, signal) {
  // Pays the one-time costs (code loaded on first use, JIT) outside the timed runs.
  await connectOurs(endpoint);
  await connectRaw(endpoint, signal);
  const [ours, raw] = await alternate(
    [() => connectOurs(endpoint), () => connectRaw(endpoint, signal)],
    ROUNDS,
    signal,
  );
  return {
    metric: 'connect + list of one stdio server (hand-written server), median',
    ours: median(ours),
    base: median(raw),
    goal: { kind: 'ratio', max: 1.0 },
  };
}

function connectOurs(endpoint) {
  return scoped(async (defer) => {
    // The default cache, under the bench's EPOCH_HOME; disconnect(name) drops the entry again, so
    // every sample is a first start. The config is read before: reading one is not connecting.
    const configs = serverConfigs({ [SERVER]: endpoint });
    const registry = new McpRegistry();
    defer(() => registry.disconnect(SERVER));
    return timed(() => connectRegistry(registry, configs));
  });
}

function connectRaw(endpoint, signal) {
  return scoped(async (defer) => {
    let client;
    defer(() => client?.close());
    return timed(async () => {
      client = await rawClient(endpoint, signal);
    });
  });
}
