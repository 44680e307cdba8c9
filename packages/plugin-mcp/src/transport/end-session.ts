// Leaving a Streamable HTTP session: the MCP spec (Streamable HTTP, "Session Management") has a
// client that is done with a session send HTTP DELETE with its Mcp-Session-Id, so the server can
// free what the session holds. A gateway keeps a child process per session (supergateway: 30
// minutes each), so a client that only drops the connection leaks one per run. Every close of a
// connection comes here: disconnect, an idle close, a lifetime recycle, a dead connection, the
// close of the whole runtime.
//
// A courtesy, so bounded: a server that does not answer within END_SESSION_TIMEOUT_MS is left to
// expire the session on its own, and a close never fails because of it. 405 (the server does not
// let clients end sessions) is an answer like 200.

import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { oneLine } from '../errors/http.js';
import type { Scrubber } from '../secrets.js';

/** A live server answers a DELETE in milliseconds; a close must not wait on one that does not. */
export const END_SESSION_TIMEOUT_MS = 1_000;

export interface EndSessionSite {
  readonly server: string;
  readonly logger: Logger;
  readonly scrub: Scrubber;
}

/**
 * Sends the DELETE for `transport`'s session, if it has one, and waits for the answer at most
 * END_SESSION_TIMEOUT_MS. Never rejects. The transport's close() that follows aborts a DELETE
 * still in flight.
 */
export async function endSession(
  transport: StreamableHTTPClientTransport,
  { server, logger, scrub }: EndSessionSite,
): Promise<void> {
  if (transport.sessionId === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), END_SESSION_TIMEOUT_MS);
  });
  try {
    const ended = transport.terminateSession().then(() => 'ended' as const);
    if ((await Promise.race([ended, late])) === 'late') {
      ended.catch(() => {});
      logger.debug(
        `MCP server "${server}" did not answer the DELETE that ends our session within ${END_SESSION_TIMEOUT_MS} ms; closing without it (the server expires the session on its own).`,
        { server },
      );
    }
  } catch (error) {
    logger.debug(
      `MCP server "${server}": ending our session (HTTP DELETE) failed: ${scrub(oneLine(messageOf(error)))}. The server expires it on its own.`,
      { server },
    );
  } finally {
    clearTimeout(timer);
  }
}
