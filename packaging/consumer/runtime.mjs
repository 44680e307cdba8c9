// A host on @epoch-agent/runtime: buildRuntime over the mcp.json named by argv[2], and one call of
// the reference server's get-sum from the runtime's tools. Prints what it got as JSON.
import { buildRuntime } from '@epoch-agent/runtime';

const runtime = await buildRuntime({ configFile: process.argv[2] });
try {
  const sum = runtime.tools.tools().find((tool) => tool.name === 'mcp__everything__get-sum');
  const result = await sum?.execute({ a: 19, b: 23 }, { signal: AbortSignal.timeout(20_000) });
  const states = runtime.mcp.statuses().map((status) => status.state);
  console.log(
    JSON.stringify({ states, result, from: import.meta.resolve('@epoch-agent/runtime') }),
  );
} finally {
  await runtime.close();
}
