// Who we are to every server, and which protocol revision we speak: one definition for the SDK
// Client of an agent's connection (connection.ts) and of a login's checks (oauth/login-checks.ts),
// so a login meets the server exactly as the agent will afterwards.
import type { ClientOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../types.js';

export const CLIENT_INFO = { name: 'epoch-agent', version: '0.1.0' };

/** The SDK Client's options for a server reached by `transport`. */
export function clientOptions(
  transport: McpServerConfig['transport'],
): Pick<ClientOptions, 'capabilities' | 'versionNegotiation'> {
  return {
    // Only what every server may know about us. No sampling / elicitation / roots capabilities: a
    // server asking things of us needs a permission story first, and there is none yet.
    capabilities: {},
    // 2026-07-28 (server/discover) with a server that offers it, a 2025 revision (initialize) with
    // one that does not. SSE is a transport of the 2025 revisions only: no 2026-07-28 server is
    // reached by it.
    versionNegotiation: { mode: transport === 'sse' ? 'legacy' : 'auto' },
  };
}
