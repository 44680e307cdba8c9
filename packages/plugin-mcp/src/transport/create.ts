// The transport for one server config: our process-group stdio transport, or the SDK's SSE and
// Streamable HTTP transports. Each comes back with the two things the client needs beyond the SDK
// Transport: how to end it for good, and what the server last wrote to stderr.
//
// Each kind is loaded the first time a server of that kind connects: the stdio transport from the
// Node-only `./stdio` entry (child processes, the reaper), the remote ones with the SDK's HTTP
// transports and OAuth (remote.ts). A program that never connects loads neither.
import { assertNever, type McpServerConfig, type StdioServerConfig } from '../types.js';
import type { CreateTransportOptions, McpTransportHandle } from './handle.js';

/** Makes the transport of one server; an injected factory may answer at once or asynchronously. */
export type McpTransportFactory = (
  config: McpServerConfig,
  options: CreateTransportOptions,
) => McpTransportHandle | Promise<McpTransportHandle>;

// Each kind's module, once asked for: import() of a module already loaded still costs a trip
// through the module loader, about a tenth of a millisecond before every spawn.
let stdioModule: Promise<typeof import('../stdio.js')> | undefined;
let remoteModule: Promise<typeof import('./remote.js')> | undefined;
let swept = false;

export const createTransport: McpTransportFactory = async (config, options) => {
  switch (config.transport) {
    case 'stdio':
      return stdioHandle(config, options);
    case 'sse':
    case 'http': {
      remoteModule ??= import('./remote.js');
      const { remoteTransport } = await remoteModule;
      return remoteTransport(config, options);
    }
    default:
      return assertNever(config, 'transport');
  }
};

async function stdioHandle(
  config: StdioServerConfig,
  { logger, scrub, reap = {}, onStderrLine }: CreateTransportOptions,
): Promise<McpTransportHandle> {
  stdioModule ??= import('../stdio.js');
  const { StdioTransport, closeTransportAndReap, sweepLeftovers } = await stdioModule;
  // Once per process, at its first stdio server, behind it: what a process of ours that died
  // without closing its servers left running is reaped (leftovers.ts).
  if (!swept) {
    swept = true;
    void sweepLeftovers({ logger, reap });
  }
  const transport = new StdioTransport({
    server: config,
    scrub,
    reap,
    logger,
    onStderrLine: (line) => {
      logger.debug(`MCP server "${config.name}" stderr: ${line}`, { server: config.name });
      onStderrLine?.(line);
    },
  });
  return {
    transport,
    startAhead: () => transport.startAhead(),
    stderrTail: () => transport.stderrTail(),
    exit: () => transport.exit(),
    close: () => closeTransportAndReap(transport),
  };
}
