// @epoch-agent/plugin-mcp/stdio: the Node-only part of the plugin (child processes), kept off the
// root entry as the SDK keeps its own stdio transport at `@modelcontextprotocol/client/stdio`. The
// default transport factory loads it when the first stdio server connects. A host that builds its
// own transports can use ours: a server's whole process tree is reaped on close, and the trees a
// process of ours left running when it died are reaped by sweepLeftovers().
export {
  type LeftoverSweep,
  type SweepOptions,
  sweepLeftovers,
} from './transport/leftovers.js';
export { closeTransportAndReap, type ReapOptions } from './transport/reap.js';
export {
  type StdioLaunch,
  StdioTransport,
  type StdioTransportOptions,
} from './transport/stdio.js';
