// How every connection of a client behaves, and the one place its defaults are applied. A host
// sets these once (on McpRegistry, or buildRuntime's `registry`) and every client gets the
// resolved object whole.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import { createTransport, type McpTransportFactory } from '../transport/create.js';
import type { CreateTransportOptions } from '../transport/handle.js';
import type { McpHeadersHelper } from '../transport/headers-helper-rules.js';
import type { McpRoots } from './roots.js';
import { DEFAULT_RECONNECT_DELAYS_MS } from './watchdog.js';

export interface McpConnectionOptions extends Pick<CreateTransportOptions, 'reap'> {
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Default: the real transports (createTransport). Tests of higher layers may inject their own. */
  readonly createTransport?: McpTransportFactory;
  /** The wait before each attempt of a reconnect series; one attempt per entry. Default 1 s, 2 s, 4 s. */
  readonly reconnectDelaysMs?: readonly number[];
  /**
   * The directories servers may work in (MCP roots). Given, every server is told it may ask for
   * them (the `roots` capability, with `listChanged`); absent, it is told nothing. Default: none.
   */
  readonly roots?: McpRoots;
  /**
   * Headers for remote servers from the host's code, asked as a `headers_helper` command is
   * (README "Headers from a command"). A server whose entry has `headers_helper` runs that instead.
   */
  readonly headersHelper?: McpHeadersHelper;
}

/** McpConnectionOptions with every default applied; `roots` and `headersHelper` absent unless given. */
export type ConnectionSettings = {
  readonly [K in Exclude<keyof McpConnectionOptions, 'roots' | 'headersHelper'>]-?: NonNullable<
    McpConnectionOptions[K]
  >;
} & Pick<McpConnectionOptions, 'roots' | 'headersHelper'>;

export function connectionSettings(options: McpConnectionOptions): ConnectionSettings {
  return {
    logger: options.logger ?? silentLogger,
    createTransport: options.createTransport ?? createTransport,
    reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
    reap: options.reap ?? {},
    ...(options.roots === undefined ? {} : { roots: options.roots }),
    ...(options.headersHelper === undefined ? {} : { headersHelper: options.headersHelper }),
  };
}
