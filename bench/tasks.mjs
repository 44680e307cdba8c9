// What running a call as a task costs over the same work as a plain call: testkit's task-server.mjs
// (the 2026-07-28 tasks extension on the official server SDK) offers `work`, which the server runs
// as a task, and `plain`, which does the same wait as an ordinary call. Both through the host's
// path (EpochTool.execute from McpRegistry.tools()), on one server process, taking turns. The task
// pays its answer, its polls at the server's pollIntervalMs (100 ms here, the most often epoch
// polls) and the last tasks/get; the goal is that it costs no more than one poll interval and a
// round trip over the plain call. `node bench/tasks.mjs` runs it alone.
import { fileURLToPath } from 'node:url';
import { McpRegistry } from '@epoch-agent/plugin-mcp';
import { TASK_SERVER } from '@epoch-agent/testkit';
import { alternate, median } from './measure.mjs';
import { formatTable } from './report.mjs';
import { scoped } from './scoped.mjs';
import { connectRegistry, serverConfigs } from './sides.mjs';

const ROUNDS = 30;
const WORK = { steps: 1, stepMs: 300 };
const POLL_MS = 100;

export async function taskOverhead(signal) {
  return scoped(async (defer) => {
    const configs = serverConfigs({
      tasks: {
        transport: 'stdio',
        command: process.execPath,
        args: [TASK_SERVER, `--poll-ms=${POLL_MS}`],
      },
    });
    const registry = new McpRegistry({ schemaCache: null });
    defer(() => registry.disconnectAll());
    await connectRegistry(registry, configs);
    const tool = (name) => {
      const found = registry
        .tools()
        .find(({ target }) => target.kind === 'tool' && target.name === name);
      if (found === undefined) throw new Error(`task-server.mjs offers no tool "${name}"`);
      return async () => {
        const start = performance.now();
        const result = await found.execute(WORK, { signal });
        const ms = performance.now() - start;
        const text = result.content[0]?.text;
        if (text !== `done ${WORK.steps}`)
          throw new Error(`${name} answered ${JSON.stringify(text)}`);
        return ms;
      };
    };
    const [task, plain] = [tool('work'), tool('plain')];
    // One of each first: code loaded on first use is not the task's cost.
    await task();
    await plain();
    const [tasks, plains] = await alternate([task, plain], ROUNDS, signal);
    return [
      {
        metric: `a call run as a task against the same ${WORK.stepMs} ms of work as a plain call (task-server.mjs over stdio, pollIntervalMs ${POLL_MS}), EpochTool.execute, median`,
        ours: median(tasks),
        base: median(plains),
        goal: { kind: 'affine', factor: 1, plusMs: POLL_MS + 50 },
      },
    ];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await taskOverhead(AbortSignal.timeout(600_000));
  console.log(formatTable(rows));
}
