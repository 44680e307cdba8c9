// A CommonJS host: require() of the ES module package (Node 20.19+ and 22.12+ load an ES module
// graph without top-level await synchronously), then the same connect and call as esm.mjs.
const { loadMcpConfig, McpRegistry } = require('@epoch-agent/plugin-mcp');

async function main() {
  const { servers } = await loadMcpConfig(process.argv[2]);
  const registry = new McpRegistry();
  try {
    const statuses = await registry.connectAll(servers, 'user');
    const sum = registry.tools().find((tool) => tool.name === 'mcp__everything__get-sum');
    const result = await sum?.execute({ a: 19, b: 23 }, { signal: AbortSignal.timeout(20_000) });
    const from = require.resolve('@epoch-agent/plugin-mcp');
    console.log(JSON.stringify({ states: statuses.map((status) => status.state), result, from }));
  } finally {
    await registry.disconnectAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
