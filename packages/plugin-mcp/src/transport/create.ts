// The transport for one server config: our process-group stdio transport, or the SDK's SSE and
// Streamable HTTP transports. Each comes back with the two things the client needs beyond the SDK
// Transport: how to end it for good, and what the server last wrote to stderr.
import type { Logger } from '@epoch-agent/infra';
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { secretScrubber } from '../secrets.js';
import {
  assertNever,
  type McpServerConfig,
  type RemoteServerConfig,
  type StdioServerConfig,
} from '../types.js';
import { closeTransportAndReap } from './reap.js';
import { StdioTransport } from './stdio.js';

export interface McpTransportHandle {
  readonly transport: Transport;
  /** The server's last stderr lines (stdio); always empty for remote servers. */
  stderrTail(): string;
  /**
   * Ends the connection for good. stdio: closeTransportAndReap (stdin EOF, grace, SIGTERM to the
   * group, grace, SIGKILL of whatever of the tree is left); a second call skips the grace periods.
   * Remote: closes the transport (its SSE stream and requests in flight).
   */
  close(): Promise<void>;
}

export interface CreateTransportOptions {
  /** Receives the server's stderr lines (debug level, secrets blanked). */
  readonly logger: Logger;
}

export type McpTransportFactory = (
  config: McpServerConfig,
  options: CreateTransportOptions,
) => McpTransportHandle;

export const createTransport: McpTransportFactory = (config, options) => {
  switch (config.transport) {
    case 'stdio':
      return stdioHandle(config, options);
    case 'sse':
      return remoteHandle(new SSEClientTransport(new URL(config.url), remoteOptions(config)));
    case 'http':
      return remoteHandle(
        new StreamableHTTPClientTransport(new URL(config.url), remoteOptions(config)),
      );
    default:
      return assertNever(config, 'transport');
  }
};

function stdioHandle(
  config: StdioServerConfig,
  { logger }: CreateTransportOptions,
): McpTransportHandle {
  const scrub = secretScrubber(config);
  const transport = new StdioTransport({
    server: config,
    onStderrLine: (line) =>
      logger.debug(`MCP server "${config.name}" stderr: ${scrub(line)}`, { server: config.name }),
  });
  return {
    transport,
    stderrTail: () => transport.stderrTail(),
    close: () => closeTransportAndReap(transport),
  };
}

// `requestInit.headers` is what both SDK transports put on every request they make: the SSE GET
// stream and its POSTs, and Streamable HTTP's POST, GET and DELETE alike.
function remoteOptions(config: RemoteServerConfig<'sse' | 'http'>): { requestInit: RequestInit } {
  return { requestInit: { headers: { ...config.headers } } };
}

function remoteHandle(transport: Transport): McpTransportHandle {
  return { transport, stderrTail: () => '', close: () => transport.close() };
}
