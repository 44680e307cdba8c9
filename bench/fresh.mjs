// What a program pays when it starts: each sample is a fresh Node process (see probes/), so nothing
// is loaded or compiled yet. The import of our root entry against the SDK client's, and the memory
// an idle stdio connection holds on the client side. (The first connect: start-to-exit.mjs.)
import { alternate, freshNode, median } from './measure.mjs';

const ROUNDS = 11;
const MEMORY_ROUNDS = 3;
const IDLE_CONNECTIONS = 20;
const IMPORT_PROBE = probe('import.mjs');
const MEMORY_PROBE = probe('memory.mjs');
/** A server that costs one shell, not one Node, each: twenty of them start in milliseconds. */
const SHELL_SERVER = ['sh', fixture('slow-init-server.sh'), '0'];
const MB = 1024 * 1024;

export async function importTime(signal) {
  const [ours, raw] = await alternate(
    [
      () => importMs('@epoch-agent/plugin-mcp', signal),
      () => importMs('@modelcontextprotocol/client', signal),
    ],
    ROUNDS,
    signal,
  );
  return {
    metric: `import of the root entry, fresh process (x${ROUNDS})`,
    ours: median(ours),
    base: median(raw),
    goal: { kind: 'ratio', max: 0.7 },
  };
}

export async function idleConnectionMemory(signal) {
  const [ours, raw] = await alternate(
    [() => memoryPerConnection('ours', signal), () => memoryPerConnection('raw', signal)],
    MEMORY_ROUNDS,
    signal,
  );
  return {
    metric: `memory per idle stdio connection, client side (${IDLE_CONNECTIONS} servers)`,
    ours: median(ours) / MB,
    base: median(raw) / MB,
    unit: 'MB',
    goal: { kind: 'absolute', max: 2 },
  };
}

export async function importMs(specifier, signal) {
  const { stdout } = await freshNode([IMPORT_PROBE, specifier], signal);
  return Number(stdout);
}

async function memoryPerConnection(side, signal) {
  const { stdout } = await freshNode(
    ['--expose-gc', MEMORY_PROBE, side, String(IDLE_CONNECTIONS), ...SHELL_SERVER],
    signal,
  );
  return JSON.parse(stdout).bytesPerConnection;
}

function probe(name) {
  return new URL(`./probes/${name}`, import.meta.url).pathname;
}

function fixture(name) {
  return new URL(`./fixtures/${name}`, import.meta.url).pathname;
}
