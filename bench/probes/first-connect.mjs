// Run in a fresh process: the first connect a program makes right after it starts. Prints
// { importMs, connectMs } as JSON: the library's import, then initialize + tools/list of one stdio
// server (ours: McpRegistry.connectAll, whose first connect loads what the root import left out;
// raw: the SDK Client over its StdioClientTransport), the server closed afterwards, not timed.
//   argv: ours|raw, then the server's command and arguments
const [side, command, ...args] = process.argv.slice(2);
const start = performance.now();
if (side === 'ours') {
  const { McpRegistry, parseMcpConfig } = await import('@epoch-agent/plugin-mcp');
  const imported = performance.now();
  const text = JSON.stringify({ servers: { probe: { command, args } } });
  const registry = new McpRegistry({ schemaCache: null });
  const [status] = await registry.connectAll(parseMcpConfig(text, 'probe').servers, 'user');
  const connected = performance.now();
  await registry.disconnectAll();
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
  report(imported, connected);
} else {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const imported = performance.now();
  const client = new Client({ name: 'probe', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  await client.listTools();
  const connected = performance.now();
  await client.close();
  report(imported, connected);
}

function report(imported, connected) {
  console.log(JSON.stringify({ importMs: imported - start, connectMs: connected - imported }));
}
