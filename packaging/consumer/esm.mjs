// A host's ES module: the servers of the mcp.json named by argv[2] connected with McpRegistry, and
// one call of the reference server's get-sum. Prints what it got as JSON.
import { loadMcpConfig, McpRegistry } from '@epoch-agent/plugin-mcp';

const { servers } = await loadMcpConfig(process.argv[2]);
const registry = new McpRegistry();
try {
  const statuses = await registry.connectAll(servers, 'user');
  const sum = registry.tools().find((tool) => tool.name === 'mcp__everything__get-sum');
  const result = await sum?.execute({ a: 19, b: 23 }, { signal: AbortSignal.timeout(20_000) });
  const from = import.meta.resolve('@epoch-agent/plugin-mcp');
  console.log(JSON.stringify({ states: statuses.map((status) => status.state), result, from }));
} finally {
  await registry.disconnectAll();
}
