// What tracing costs (EMBEDDING.md "Tracing"): a stdio tool call of McpClient with an
// OpenTelemetry SDK registered against the same call with none (the API's no-ops: what every host
// that traces nothing runs), each sample a fresh process (probes/traced-calls.mjs: the API keeps
// one SDK per process), the two taking turns; and the import of `@opentelemetry/api` as bundled,
// loaded with the connection's code, against the MCP SDK's import that it is loaded beside.
import { fileURLToPath } from 'node:url';
import { importMs } from './fresh.mjs';
import { alternate, freshNode, median } from './measure.mjs';

const ROUNDS = 5;
const IMPORT_ROUNDS = 11;
const WARMUP_CALLS = 300;
const CALLS = 3_000;
const PROBE = fileURLToPath(new URL('./probes/traced-calls.mjs', import.meta.url));
const ECHO_SERVER = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
const API_CHUNK = fileURLToPath(
  new URL('../packages/plugin-mcp/bundle/chunks/opentelemetry-api.js', import.meta.url),
);

export async function tracingCost(signal) {
  const run = async (mode) => {
    const args = [PROBE, mode, ECHO_SERVER, String(WARMUP_CALLS), String(CALLS)];
    return JSON.parse((await freshNode(args, signal)).stdout);
  };
  const [on, off] = await alternate([() => run('on'), () => run('off')], ROUNDS, signal);
  const [api, sdk] = await alternate(
    [() => importMs(API_CHUNK, signal), () => importMs('@modelcontextprotocol/client', signal)],
    IMPORT_ROUNDS,
    signal,
  );
  const call = (stat) =>
    `stdio tool call ${stat}, McpClient.callTool: an OpenTelemetry SDK registered (ours) against none (base), ${ROUNDS} processes x ${CALLS} calls, median of theirs`;
  return [
    {
      metric: call('median'),
      ours: median(on.map(({ median: ms }) => ms)),
      base: median(off.map(({ median: ms }) => ms)),
      goal: { kind: 'info' },
    },
    {
      metric: call('p99'),
      ours: median(on.map(({ p99 }) => p99)),
      base: median(off.map(({ p99 }) => p99)),
      goal: { kind: 'info' },
    },
    {
      metric: `import of @opentelemetry/api as bundled (with the connection's code, never the root entry) against the MCP SDK client's, fresh process (x${IMPORT_ROUNDS})`,
      ours: median(api),
      base: median(sdk),
      goal: { kind: 'info' },
    },
  ];
}
