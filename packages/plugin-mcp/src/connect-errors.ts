// What a person or model reads when a server cannot be used: it did not connect, or a request came
// while it was not connected. Each message names the server, says what happened and what to do.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { McpConnectionState } from './connection-state.js';
import { McpError } from './errors.js';
import { messageOf, seconds } from './request-options.js';
import type { Scrubber } from './secrets.js';
import { assertNever } from './types.js';

export interface ConnectFailureSite {
  readonly server: string;
  readonly connectTimeoutMs: number;
  /** The connect deadline passed (the attempt was aborted for it). */
  readonly timedOut: boolean;
  readonly scrub: Scrubber;
}

export function connectFailure(error: unknown, site: ConnectFailureSite): McpError {
  const { server } = site;
  if (site.timedOut) {
    return new McpError(
      'connect_timeout',
      `MCP server "${server}" did not finish connecting within ${seconds(site.connectTimeoutMs)} (connect_timeout covers start, initialize and the first tools/list). If it is just slow to start, raise "connect_timeout" for it in mcp.json; otherwise check its stderr.`,
      { server, cause: error },
    );
  }
  // Spawn errors and a timed-out tools/list keep their own code; a closed connection is the
  // server's failure to connect (a send that hit a dead pipe says the same thing less clearly).
  if (error instanceof McpError && error.code !== 'connection_closed') return error;
  const closed =
    error instanceof McpError ||
    (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed);
  const what = closed
    ? 'the server closed the connection while connecting (for a stdio server: the process exited)'
    : site.scrub(messageOf(error));
  return new McpError(
    'connect_failed',
    `MCP server "${server}" failed to connect: ${what}. Check the server's command or URL and its stderr.`,
    { server, cause: error },
  );
}

export interface UnavailableSite {
  readonly server: string;
  readonly method: string;
  readonly tool?: string | undefined;
}

/** A request on a server that is not connected: fails at once, never waits. */
export function unavailable(state: McpConnectionState, site: UnavailableSite): McpError {
  const what = site.tool === undefined ? site.method : `${site.method} "${site.tool}"`;
  const why = reason(state);
  return new McpError(
    'connection_closed',
    `MCP server "${site.server}": ${what} cannot be sent because ${why}.`,
    { server: site.server, ...(site.tool === undefined ? {} : { tool: site.tool }) },
  );
}

function reason(state: McpConnectionState): string {
  switch (state.kind) {
    case 'connecting':
      return 'it is still connecting; try again shortly';
    case 'failed':
      return `it failed: ${state.message}`;
    case 'disconnected':
    case 'connected':
      return 'it is not connected';
    default:
      return assertNever(state, 'connection state');
  }
}
