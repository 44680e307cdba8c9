// How long closing one server takes: registry.disconnect(name), which also reaps the server's whole
// process tree, against the raw SDK's client.close(), which signals only the direct child. Each
// sample connects a fresh server (not timed) and times only the close.
import { alternate, median, timed } from './measure.mjs';
import { scoped } from './scoped.mjs';
import { ourRegistry, rawClient } from './sides.mjs';

const SAMPLES = 12;
/** reap.ts: "a well-behaved server must be closed well under 100 ms". */
const DISCONNECT_GOAL_MS = 100;
const SERVER = 'bench';

export async function disconnectTime(transportLabel, endpoint, signal) {
  const [ours, raw] = await alternate(
    [() => disconnectOurs(endpoint), () => closeRaw(endpoint, signal)],
    SAMPLES,
    signal,
  );
  return {
    metric: `${transportLabel} disconnect median`,
    ours: median(ours),
    base: median(raw),
    goal: { kind: 'absolute', maxMs: DISCONNECT_GOAL_MS },
  };
}

function disconnectOurs(endpoint) {
  return scoped(async (defer) => {
    const registry = await ourRegistry(SERVER, endpoint);
    // A no-op once the timed disconnect has run; stops the server if something before it threw.
    defer(() => registry.disconnectAll());
    return timed(() => registry.disconnect(SERVER));
  });
}

function closeRaw(endpoint, signal) {
  return scoped(async (defer) => {
    const client = await rawClient(endpoint, signal);
    let closed = false;
    defer(() => (closed ? undefined : client.close()));
    const ms = await timed(() => client.close());
    closed = true;
    return ms;
  });
}
