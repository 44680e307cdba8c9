// How long closing one server takes: registry.disconnect(name), which also reaps the server's whole
// process tree, against the raw SDK's client.close(), which signals only the direct child. Each
// sample connects a fresh server (not timed) and times only the close.
//
// Two servers: a polite one that exits when its stdin ends (the close a user meets every day), and
// a hostile one behind `/bin/sh -c` (what `npx` puts in front of a server) that ignores the end of
// stdin and SIGTERM and has two helpers, one in its process group and one that left it with
// setsid. For the hostile one the bench also counts the processes each close left running, and
// times our close a second time with the reaper reading the process table from `ps` (the macOS
// path, EPOCH_PROCESS_TABLE=ps) next to the platform's own (/proc on Linux).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, median, timed } from './measure.mjs';
import { isRunning, killSurvivors, recordedPids, untilRecorded } from './processes.mjs';
import { scoped } from './scoped.mjs';
import { ourRegistry, rawClient } from './sides.mjs';

const SAMPLES = 12;
const HOSTILE_SAMPLES = 3;
/**
 * A polite stdio server's close is over once the server exits (reap.ts), which the raw SDK's close
 * waits for too: ours may add at most this to the raw SDK's time.
 */
const POLITE_MARGIN_MS = 1;
/** Over HTTP ours also ends the session with DELETE, which the raw SDK's close does not send. */
const HTTP_GOAL_MS = 100;
/** The whole escalation (stdin EOF, SIGTERM, SIGKILL of the tree) of a server that ignores both. */
const HOSTILE_GOAL_MS = 1500;
const SERVER = 'bench';
const ECHO_SERVER = new URL('./fixtures/echo-server.mjs', import.meta.url).pathname;
/** The shell, the server and its two helpers. */
const HOSTILE_TREE = 4;

/** A polite server's close: one row, goal raw + POLITE_MARGIN_MS (stdio) or HTTP_GOAL_MS. */
export async function disconnectTime(transportLabel, endpoint, signal) {
  const [ours, raw] = await alternate(
    [() => disconnectOurs(endpoint), () => closeRaw(endpoint, signal)],
    SAMPLES,
    signal,
  );
  return {
    metric: `${transportLabel} close, polite server, median`,
    ours: median(ours.map(({ ms }) => ms)),
    base: median(raw.map(({ ms }) => ms)),
    goal:
      endpoint.transport === 'stdio'
        ? { kind: 'affine', factor: 1, plusMs: POLITE_MARGIN_MS }
        : { kind: 'absolute', max: HTTP_GOAL_MS },
  };
}

/** The hostile server's close: its time, and the most processes any close left running. */
export async function hostileCloseTime(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-hostile-'));
  try {
    let sample = 0;
    const hostile = () => hostileEndpoint(join(dir, `pids-${sample++}`));
    const [ours, raw, fromPs] = await alternate(
      [
        () => afterHostileClose(hostile(), disconnectOurs, signal),
        () =>
          afterHostileClose(
            hostile(),
            (endpoint, ready) => closeRaw(endpoint, signal, ready),
            signal,
          ),
        () => underPsTable(() => afterHostileClose(hostile(), disconnectOurs, signal)),
      ],
      HOSTILE_SAMPLES,
      signal,
    );
    const label = 'stdio close, server ignoring EOF and SIGTERM (sh launcher, 2 helpers)';
    return [
      {
        metric: `${label}, median`,
        ours: median(ours.map(({ ms }) => ms)),
        base: median(raw.map(({ ms }) => ms)),
        goal: { kind: 'absolute', max: HOSTILE_GOAL_MS },
      },
      {
        metric: `${label}, processes left (worst of ${HOSTILE_SAMPLES})`,
        ours: Math.max(...ours.map(({ left }) => left)),
        base: Math.max(...raw.map(({ left }) => left)),
        unit: 'processes',
        goal: { kind: 'absolute', max: 0 },
      },
      {
        metric: `${label}, process table from ps, median`,
        ours: median(fromPs.map(({ ms }) => ms)),
        base: median(ours.map(({ ms }) => ms)),
        goal: { kind: 'absolute', max: HOSTILE_GOAL_MS },
      },
      {
        metric: `${label}, process table from ps, processes left (worst of ${HOSTILE_SAMPLES})`,
        ours: Math.max(...fromPs.map(({ left }) => left)),
        base: Math.max(...ours.map(({ left }) => left)),
        unit: 'processes',
        goal: { kind: 'absolute', max: 0 },
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `task` with the reaper reading the process table from `ps` (read at each spawn and close). */
async function underPsTable(task) {
  const before = process.env.EPOCH_PROCESS_TABLE;
  process.env.EPOCH_PROCESS_TABLE = 'ps';
  try {
    return await task();
  } finally {
    if (before === undefined) delete process.env.EPOCH_PROCESS_TABLE;
    else process.env.EPOCH_PROCESS_TABLE = before;
  }
}

/** `{ transport: 'stdio', ... }` for the hostile server behind a shell that stays (`; :`). */
function hostileEndpoint(pidFile) {
  const line = `echo $$ >> "$PID_FILE"; '${process.execPath}' '${ECHO_SERVER}' --hostile; :`;
  return { transport: 'stdio', command: '/bin/sh', args: ['-c', line], env: { PID_FILE: pidFile } };
}

/** Runs `close` (which connects, then times its close) and counts the tree's survivors after it. */
async function afterHostileClose(endpoint, close, signal) {
  const pidFile = endpoint.env.PID_FILE;
  try {
    const { ms } = await close(endpoint, () => untilRecorded(pidFile, HOSTILE_TREE, signal));
    const left = recordedPids(pidFile).filter(isRunning).length;
    return { ms, left };
  } finally {
    await killSurvivors(pidFile);
  }
}

/** Connects our registry to `endpoint`, waits for `ready`, then times registry.disconnect. */
function disconnectOurs(endpoint, ready = async () => {}) {
  return scoped(async (defer) => {
    const registry = await ourRegistry(SERVER, endpoint);
    // A no-op once the timed disconnect has run; stops the server if something before it threw.
    defer(() => registry.disconnectAll());
    await ready();
    return { ms: await timed(() => registry.disconnect(SERVER)) };
  });
}

function closeRaw(endpoint, signal, ready = async () => {}) {
  return scoped(async (defer) => {
    const client = await rawClient(endpoint, signal);
    let closed = false;
    defer(() => (closed ? undefined : client.close()));
    await ready();
    const ms = await timed(() => client.close());
    closed = true;
    return { ms };
  });
}
