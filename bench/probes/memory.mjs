// Run in a fresh process with --expose-gc: the client-side memory of idle stdio connections.
// Connects one server and closes it (so that code loaded on first use is not counted), takes a
// reading, connects `count` servers and lets them idle, takes another. Prints the difference per
// connection in bytes, as JSON: JS heap plus external memory (Buffers), process.memoryUsage().
//   argv: ours|raw, count, then the server's command and arguments
const [side, countText, command, ...args] = process.argv.slice(2);
const count = Number(countText);
const IDLE_MS = 300;

const connect = side === 'ours' ? await ourSide() : await rawSide();
await (await connect(1))();
const before = reading();
const close = await connect(count);
await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
const after = reading();
await close();
console.log(JSON.stringify({ bytesPerConnection: (after - before) / count }));

function reading() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** connect(n): n servers connected; resolves with the function that closes them. */
async function ourSide() {
  const { McpRegistry, parseMcpConfig } = await import('@epoch-agent/plugin-mcp');
  let made = 0;
  return async (n) => {
    const servers = {};
    for (let i = 0; i < n; i++) servers[`probe-${made++}`] = { command, args };
    const { servers: configs } = parseMcpConfig(JSON.stringify({ servers }), 'probe');
    const registry = new McpRegistry({ schemaCache: null });
    const statuses = await registry.connectAll(configs, 'user');
    if (statuses.some((status) => status.state !== 'connected')) throw new Error('not connected');
    return () => registry.disconnectAll();
  };
}

async function rawSide() {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  return async (n) => {
    const clients = await Promise.all(
      Array.from({ length: n }, async () => {
        const client = new Client({ name: 'probe', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
        await client.listTools();
        return client;
      }),
    );
    return () => Promise.all(clients.map((client) => client.close()));
  };
}
