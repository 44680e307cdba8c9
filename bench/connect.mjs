// connectAll's wall time for many servers that are slow to answer initialize, against one such
// server: with the servers started side by side it stays near one server's time; one after another
// it would grow twenty-fold. The servers are shell scripts (see fixtures/slow-init-server.sh) so
// that what is measured is the client, not the cost of starting twenty Node processes.
import { alternate, median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';
import { connectRegistry, newRegistry, rawClient, serverConfigs } from './sides.mjs';

const MANY = 20;
const INIT_DELAY_S = 0.5;
const REPS = 5;

const SLOW_INIT_SERVER = {
  transport: 'stdio',
  command: 'sh',
  args: [new URL('./fixtures/slow-init-server.sh', import.meta.url).pathname, `${INIT_DELAY_S}`],
};

/**
 * Two goal rows: 20 servers against 1, and ours against the raw SDK's best case for the same 20
 * (twenty Clients connected with Promise.all): what any single-threaded client pays for spawning
 * and answering twenty servers, which ours must not add to.
 */
export async function connectAllWallTime(signal) {
  // Pays the one-time costs (lazily loaded SDK code, JIT) outside the timed runs.
  await connectOurs(1);
  const [one, many, raw] = await alternate(
    [() => connectOurs(1), () => connectOurs(MANY), () => connectRaw(MANY, signal)],
    REPS,
    signal,
  );
  return [
    {
      metric: `connectAll ${MANY} slow-init stdio servers vs 1`,
      ours: median(many),
      base: median(one),
      goal: { kind: 'ratio', max: 1.5 },
    },
    {
      metric: `connectAll ${MANY} slow-init stdio servers (connect + list) vs raw SDK x${MANY} in parallel`,
      ours: median(many),
      base: median(raw),
      goal: { kind: 'ratio', max: 1.0 },
    },
  ];
}

function connectOurs(count) {
  return scoped(async (defer) => {
    const registry = newRegistry();
    defer(() => registry.disconnectAll());
    return timed(() => connectRegistry(registry, serverConfigs(named(count))));
  });
}

/** Every raw SDK Client connected (initialize + tools/list) at once. */
function connectRaw(count, signal) {
  return scoped(async (defer) => {
    let failure;
    const ms = await timed(() =>
      Promise.all(
        Array.from({ length: count }, () =>
          rawClient(SLOW_INIT_SERVER, signal).then(
            (client) => defer(() => client.close()),
            (error) => {
              failure ??= error;
            },
          ),
        ),
      ),
    );
    if (failure !== undefined) throw failure;
    return ms;
  });
}

function named(count) {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `slow-${String(i + 1).padStart(2, '0')}`,
      SLOW_INIT_SERVER,
    ]),
  );
}
