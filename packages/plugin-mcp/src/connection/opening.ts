// Where a client's connection attempt begins, before the SDK is needed: loading connection.ts (and
// with it the SDK) once per process, and the stdio starts that run at once.
//
// The SDK takes longer to load than a typical stdio server takes to start (about 120 ms against
// 40 to 60 ms for a Node server on this project's machines), and a process's first connect paid
// both, one after the other. So the first connects of a process spawn their servers ahead: each
// server starts while the SDK loads, its output held in the pipe until its connection starts the
// transport (StdioTransport.startAhead), and the handshake begins as soon as both are ready.
import type { McpServerSchema } from '../cache.js';
import { closedWhileConnecting } from '../errors/unavailable.js';
import type { Scrubber } from '../secrets.js';
import type { McpTransportHandle } from '../transport/create.js';
import type { McpServerConfig } from '../types.js';
import type { Connection, OpenOutcome } from './connection.js';
import type { ConnectionSettings } from './options.js';
import { SerialQueue } from './serial-queue.js';
import { startConfig, startsAsWritten } from './start-config.js';

export type ConnectionCode = typeof import('./connection.js');

/** What one attempt needs to know (connection.ts's openConnection). */
export interface OpenConnectionParts {
  readonly config: McpServerConfig;
  /** The client's, its logger already passing the server's redaction policy. */
  readonly settings: ConnectionSettings;
  readonly scrub: Scrubber;
  /** Aborting it ends the attempt: close() was called. */
  readonly signal: AbortSignal;
  /** The server sent notifications/tools/list_changed on this connection (debounced). */
  readonly onToolsChanged: (connection: Connection) => void;
  /** What the schema cache holds for this config: its era verdict and, while fresh, its tools. */
  readonly remembered?: McpServerSchema | undefined;
}

/** A stdio server spawned while the SDK loaded: the attempt's first transport, and its start. */
export interface StartedAhead {
  readonly handle: McpTransportHandle;
  /** Date.now() when it began: connect_timeout counts from here. */
  readonly at: number;
}

/** connection.ts once loaded: every client after the first uses it without waiting. */
let connectionCode: ConnectionCode | undefined;
let loadingCode: Promise<ConnectionCode> | undefined;

/** Loads the connection's code (and the SDK) for every client of this process. */
export function loadConnectionModule(): Promise<ConnectionCode> {
  loadingCode ??= import('./connection.js').then((code) => {
    connectionCode = code;
    return code;
  });
  return loadingCode;
}

/** The connection's code if it has loaded: always, once any connection has been opened. */
export function loadedConnectionModule(): ConnectionCode | undefined {
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
 * One attempt at a connection, within connect_timeout. Never rejects: a failure is an outcome. Its
 * config is the one of this start: `${VAR}`s expanded, env_file read (start-config.ts). A stdio
 * server waits for its turn among the starts first; its connect_timeout runs from its own start.
 */
export function openAttempt(parts: OpenConnectionParts): Promise<OpenOutcome> {
  if (startsAsWritten(parts.config)) return openStarted(parts);
  return startConfig(parts.config, parts.scrub).then(
    (started): Promise<OpenOutcome> | OpenOutcome =>
      started.ok
        ? openStarted({ ...parts, config: started.config })
        : { ok: false, error: started.error, stderrTail: '' },
  );
}

function openStarted(parts: OpenConnectionParts): Promise<OpenOutcome> {
  if (parts.config.transport !== 'stdio') {
    return connectionCode !== undefined
      ? connectionCode.openConnection(parts)
      : loadConnectionModule().then((code) => code.openConnection(parts));
  }
  return stdioStarts
    .run(() => openStdio(parts), parts.signal)
    .catch(
      (error: unknown): OpenOutcome => ({
        ok: false,
        error: closedWhileConnecting(parts.config.name, error),
        stderrTail: '',
      }),
    );
}

async function openStdio(parts: OpenConnectionParts): Promise<OpenOutcome> {
  if (connectionCode !== undefined) return connectionCode.openConnection(parts);
  const at = Date.now();
  const handle = await transportOf(parts);
  // A start that fails (command not found, no descriptor) fails the transport's own start(),
  // which the connection calls: the attempt meets the failure there.
  handle.startAhead?.().catch(() => {});
  let code: ConnectionCode;
  try {
    code = await loadConnectionModule();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return code.openConnection(parts, { handle, at });
}

/** A new transport for one attempt of `parts` (not started). */
export function transportOf({
  config,
  settings,
  scrub,
}: OpenConnectionParts): McpTransportHandle | Promise<McpTransportHandle> {
  return settings.createTransport(config, { logger: settings.logger, scrub, reap: settings.reap });
}
