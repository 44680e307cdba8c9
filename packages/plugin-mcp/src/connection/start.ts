// A connection's start: what runs before the SDK is needed. The connection's code (connection.ts,
// and with it the SDK) loaded once per process, the config of this start (`${VAR}`s, env_file), the
// bound on stdio starts at once, and a first stdio server spawned while the SDK loads.
//
// The SDK takes longer to load than a typical stdio server takes to start (about 120 ms against
// 40 to 60 ms for a Node server on this project's machines), and a process's first connect paid
// both, one after the other. So the first connects of a process spawn their servers ahead: each
// server starts while the SDK loads, its output held in the pipe until its connection starts the
// transport (StdioTransport.startAhead), and the handshake begins as soon as both are ready.
import { closedWhileConnecting } from '../errors/unavailable.js';
import { type AttemptOutcome, type AttemptParts, transportOf } from './attempt.js';
import { SerialQueue } from './serial-queue.js';
import { startConfig, startsAsWritten } from './start-config.js';

export type ConnectionCode = typeof import('./connection.js');

/** connection.ts once loaded: every client after the first uses it without waiting. */
let connectionCode: ConnectionCode | undefined;
let loadingCode: Promise<ConnectionCode> | undefined;

/** Loads the connection's code (and the SDK) for every client of this process. */
function loadConnectionCode(): Promise<ConnectionCode> {
  loadingCode ??= import('./connection.js').then((code) => {
    connectionCode = code;
    return code;
  });
  return loadingCode;
}

/**
 * `run` with the connection's code; the first time any client of this process needs it, after it
 * (and the SDK) has loaded, and `waiting` is called while it loads.
 */
export function withConnectionCode<T>(
  run: (code: ConnectionCode) => Promise<T>,
  waiting?: () => void,
): Promise<T> {
  if (connectionCode !== undefined) return run(connectionCode);
  waiting?.();
  return loadConnectionCode().then(run);
}

/** The connection's code where it must have loaded: a request or a live connection needed it. */
export function loadedConnectionCode(): ConnectionCode {
  if (connectionCode === undefined) {
    throw new Error("the MCP connection's code was used before it loaded");
  }
  return connectionCode;
}

/**
 * Stdio servers whose start (spawn, initialize, first tools/list) runs at once, across the process.
 * Enough to hide each server's start-up latency; few enough that, with thousands configured, the
 * event loop still reads the answers of the ones already started within their connect_timeout
 * instead of spending it spawning the rest.
 */
const STDIO_STARTS = 32;
const stdioStarts = new SerialQueue({ concurrency: STDIO_STARTS });

/**
 * Starts one attempt at a connection, within connect_timeout. Never rejects: a failure is an
 * outcome. Its config is the one of this start: `${VAR}`s expanded, env_file read
 * (start-config.ts). A stdio server waits for its turn among the starts first; its
 * connect_timeout runs from its own start.
 */
export function startConnection(parts: AttemptParts): Promise<AttemptOutcome> {
  if (startsAsWritten(parts.config)) return startExpanded(parts);
  return startConfig(parts.config, parts.scrub).then(
    (started): Promise<AttemptOutcome> | AttemptOutcome =>
      started.ok
        ? startExpanded({ ...parts, config: started.config })
        : { ok: false, error: started.error, stderrTail: '' },
  );
}

function startExpanded(parts: AttemptParts): Promise<AttemptOutcome> {
  if (parts.config.transport !== 'stdio') {
    return connectionCode !== undefined
      ? connectionCode.openConnection(parts)
      : loadConnectionCode().then((code) => code.openConnection(parts));
  }
  return stdioStarts
    .run(() => startStdio(parts), parts.signal)
    .catch(
      (error: unknown): AttemptOutcome => ({
        ok: false,
        error: closedWhileConnecting(parts.config.name, error),
        stderrTail: '',
      }),
    );
}

async function startStdio(parts: AttemptParts): Promise<AttemptOutcome> {
  if (connectionCode !== undefined) return connectionCode.openConnection(parts);
  const at = Date.now();
  const handle = await transportOf(parts);
  // A start that fails (command not found, no descriptor) fails the transport's own start(),
  // which the connection calls: the attempt meets the failure there.
  handle.startAhead?.().catch(() => {});
  let code: ConnectionCode;
  try {
    code = await loadConnectionCode();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return code.openConnection(parts, { handle, at });
}
