// How every connection of a client behaves, and the one place its defaults are applied. A host
// sets these once (on McpRegistry, or buildRuntime's `registry`) and every client gets the
// resolved object whole.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import {
  type CreateTransportOptions,
  createTransport,
  type McpTransportFactory,
} from '../transport/create.js';
import { DEFAULT_RECONNECT_DELAYS_MS } from './watchdog.js';

export interface McpConnectionOptions extends Pick<CreateTransportOptions, 'reap'> {
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Default: the real transports (createTransport). Tests of higher layers may inject their own. */
  readonly createTransport?: McpTransportFactory;
  /** The wait before each attempt of a reconnect series; one attempt per entry. Default 1 s, 2 s, 4 s. */
  readonly reconnectDelaysMs?: readonly number[];
}

/** McpConnectionOptions with every default applied. */
export type ConnectionSettings = {
  readonly [K in keyof McpConnectionOptions]-?: NonNullable<McpConnectionOptions[K]>;
};

export function connectionSettings(options: McpConnectionOptions): ConnectionSettings {
  return {
    logger: options.logger ?? silentLogger,
    createTransport: options.createTransport ?? createTransport,
    reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
    reap: options.reap ?? {},
  };
}
