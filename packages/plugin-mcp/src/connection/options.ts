// How every connection of a client behaves, and the one place its defaults are applied. A host
// sets these once (on McpRegistry, or buildRuntime's `registry`) and every client gets the
// resolved object whole.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import type { Elicit } from '@epoch-agent/protocol';
import type { McpStartMode } from '../config/start.js';
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
   * Asks a person a server's question (MCP elicitation; README "Servers that ask you"). Given,
   * every server is told it may ask (the `elicitation` capability, form and URL modes) and its
   * questions come here, each with the server and the request it belongs to; absent, no server is
   * told so, and one that asks anyway is answered `cancel`. Default: nobody is asked.
   */
  readonly elicit?: Elicit;
  /**
   * When a server whose entry says no `start` starts: `at_start` (the default), with the others,
   * or `on_demand`, at its first request, its cached tools offered until then (README "Started
   * when used"). It also sets that server's idle timeout when its entry sets none (idleTimeoutOf).
   */
  readonly start?: McpStartMode;
  /**
   * Headers for remote servers from the host's code, asked as a `headers_helper` command is
   * (README "Headers from a command"). A server whose entry has `headers_helper` runs that instead.
   */
  readonly headersHelper?: McpHeadersHelper;
  /**
   * How MCP operations are traced once the host registered an OpenTelemetry SDK (EMBEDDING.md
   * "Tracing"); without one nothing is recorded whatever this says. Default: every request its
   * own span, no content in any attribute.
   */
  readonly tracing?: McpTracingOptions;
}

export interface McpTracingOptions {
  /**
   * The host traces its tool calls itself (a GenAI `execute_tool` span, active when it calls
   * `execute`): a tools/call adds the MCP attributes to that span instead of starting its own.
   * Default false.
   */
  readonly outerToolSpan?: boolean;
  /**
   * The conventions' opt-in attributes: a tool call's arguments and result
   * (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`) and a resource's URI
   * (`mcp.resource.uri`), each with the server's secrets blanked. Default false: they may hold
   * what the person typed or read.
   */
  readonly content?: boolean;
}

/** The options that stay absent when not given: their absence means something. */
type Optional = 'roots' | 'elicit' | 'headersHelper';

/** McpConnectionOptions with every default applied; the Optional ones stay absent when not given. */
export type ConnectionSettings = {
  readonly [K in Exclude<keyof McpConnectionOptions, Optional>]-?: NonNullable<
    McpConnectionOptions[K]
  >;
} & Pick<McpConnectionOptions, Optional>;

export function connectionSettings(options: McpConnectionOptions): ConnectionSettings {
  return {
    logger: options.logger ?? silentLogger,
    createTransport: options.createTransport ?? createTransport,
    reconnectDelaysMs: options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS,
    reap: options.reap ?? {},
    start: options.start ?? 'at_start',
    tracing: options.tracing ?? {},
    ...(options.roots === undefined ? {} : { roots: options.roots }),
    ...(options.elicit === undefined ? {} : { elicit: options.elicit }),
    ...(options.headersHelper === undefined ? {} : { headersHelper: options.headersHelper }),
  };
}
