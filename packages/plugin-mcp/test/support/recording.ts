// Test helpers around fixtures/recording-server.mjs: a stdio config that starts it with a given
// behavior, clients on it that are closed after each test, the messages it recorded, and a logger
// that keeps what it was told.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogFields, Logger } from '@epoch-agent/infra';
import { stdioConfig, waitUntil } from '@epoch-agent/testkit';
import { afterEach, beforeEach } from 'vitest';
import { McpClient } from '../../src/connection/client.js';
import type { McpConnectionState } from '../../src/connection/state.js';
import type { StdioServerConfig } from '../../src/types.js';

const FIXTURE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'recording-server.mjs',
);

export interface Behavior {
  readonly capabilities?: Record<string, object>;
  readonly hang?: readonly string[];
  readonly hangAfter?: Readonly<Record<string, number>>;
  readonly forever?: readonly string[];
  readonly notFound?: readonly string[];
  readonly delayMs?: Readonly<Record<string, number>>;
  /** Answer initialize only once `count` servers have started (each adds a line to `file`). */
  readonly barrier?: { readonly file: string; readonly count: number };
  readonly stderr?: string;
  readonly exitAtStart?: number;
  readonly exitAtStartIf?: string;
  readonly echoEnv?: string;
  /** A `sleep` call answers only once this file exists too. */
  readonly release?: string;
  /** Speak the 2026-07-28 revision (server/discover, resultType), not the 2025 one. */
  readonly modern?: boolean;
}

export interface RecordEntry {
  readonly t: number;
  readonly in?: {
    readonly id?: number;
    readonly method?: string;
    readonly params?: Record<string, unknown>;
  };
  readonly event?: string;
  readonly id?: number;
  readonly active?: number;
  /** The process that wrote the record. */
  readonly pid?: number;
}

/** A temp dir for record files; remove() in afterEach. */
export function recordDir(): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'epoch-mcp-rec-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function recordingConfig(
  name: string,
  recordFile: string,
  behavior: Behavior = {},
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return stdioConfig(name, process.execPath, [FIXTURE, recordFile, JSON.stringify(behavior)], {
    timeoutMs: 300_000,
    connectTimeoutMs: 20_000,
    ...overrides,
  });
}

export interface StartOptions {
  /** Server name, and the record file's name. Default `rec`. */
  readonly name?: string;
  readonly config?: Partial<StdioServerConfig>;
  readonly reconnectDelaysMs?: readonly number[];
  readonly logger?: Logger;
}

export interface RecordingClient {
  readonly client: McpClient;
  /** The server's record file. */
  readonly file: string;
  /** Every state the client went through, in order. */
  readonly states: McpConnectionState[];
  /** The pid of every process the client started, in order. */
  starts(): number[];
}

/**
 * Registers beforeEach/afterEach hooks for a test file: each test gets a fresh record directory,
 * and every client started through `start` is closed (its processes reaped) after the test.
 */
export function useRecordingClients(): {
  start(behavior: Behavior, options?: StartOptions): RecordingClient;
  /** This test's record directory. */
  dir(): string;
} {
  let dir: ReturnType<typeof recordDir> | undefined;
  let clients: McpClient[] = [];
  beforeEach(() => {
    dir = recordDir();
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
    clients = [];
    dir?.remove();
  });
  const current = (): string => {
    if (dir === undefined) throw new Error('useRecordingClients: start() outside a test');
    return dir.path;
  };
  return {
    dir: current,
    start(behavior, options = {}) {
      const name = options.name ?? 'rec';
      const file = join(current(), `${name}.jsonl`);
      const client = new McpClient({
        config: recordingConfig(name, file, behavior, options.config),
        ...(options.reconnectDelaysMs === undefined
          ? {}
          : { reconnectDelaysMs: options.reconnectDelaysMs }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      clients.push(client);
      const states: McpConnectionState[] = [];
      client.onStateChange((state) => states.push(state));
      const starts = (): number[] =>
        records(file)
          .filter((r) => r.event === 'start')
          .map((r) => r.pid ?? 0);
      return { client, file, states, starts };
    },
  };
}

export function records(file: string): RecordEntry[] {
  return jsonLines<RecordEntry>(file);
}

/** A file a server appends one JSON value per line to; none yet when it does not exist. */
export function jsonLines<T>(file: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The requests (with ids) the server received for `method`. */
export function requests(file: string, method: string): RecordEntry[] {
  return records(file).filter((r) => r.in?.method === method && r.in.id !== undefined);
}

/**
 * Polls the record file until `predicate` holds: another process writes it, so there is no event
 * to wait on (a notification, say, is recorded when the server reads it).
 */
export function waitForRecords(
  file: string,
  predicate: (entries: RecordEntry[]) => boolean,
): Promise<RecordEntry[]> {
  return waitUntil(
    () => {
      const entries = records(file);
      return predicate(entries) ? entries : undefined;
    },
    () =>
      `the record file to match; it holds:\n${records(file)
        .map((e) => JSON.stringify(e))
        .join('\n')}`,
  );
}

/** The notifications/cancelled the server received, by request id. */
export function cancelledIds(entries: RecordEntry[]): unknown[] {
  return entries
    .filter((r) => r.in?.method === 'notifications/cancelled')
    .map((r) => r.in?.params?.requestId);
}

/** Whether `pid` still runs. A zombie (exited, not yet waited for by its parent) does not. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: LogFields | undefined;
}

export function memoryLogger(): Logger & { readonly lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
