// Who we are to every server, and which protocol revision we speak: one definition for the SDK
// Client of an agent's connection (open.ts) and of a login's checks (oauth/login-checks.ts),
// so a login meets the server exactly as the agent will afterwards.
import type { ClientOptions, VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from '../tasks/task-wire.js';
import { assertNever, type McpServerConfig } from '../types.js';

export const CLIENT_INFO = { name: 'epoch-agent', version: '0.1.0' };

/**
 * How long a stdio server may take to answer the era probe before it counts as a 2025-era server
 * that ignores what it does not know (then initialize follows on the same pipe): a server that
 * answers at all does so within moments of starting. At most half of connect_timeout, so the
 * initialize has time too.
 */
const STDIO_PROBE_TIMEOUT_MS = 10_000;

/** What the host gave that a server may use: roots, and someone to ask. */
export interface ClientOffers {
  /** The host gave roots: the client answers roots/list with them (open.ts). */
  readonly roots?: boolean;
  /** Someone can be asked (an `elicit` was given): the client puts a server's questions to them. */
  readonly elicit?: boolean;
  /** The connection follows tasks (an agent's; a login's checks call no tool). */
  readonly tasks?: boolean;
}

/**
 * The SDK Client's options for a server. A login's checks offer nothing (no roots/list answered,
 * nobody asked), so they declare nothing.
 */
export function clientOptions(
  server: Pick<McpServerConfig, 'transport' | 'connectTimeoutMs'>,
  offers: ClientOffers = {},
): Pick<ClientOptions, 'capabilities' | 'versionNegotiation'> {
  return {
    // Only what the host gave. No sampling: a server asking for epoch's model spends the user's
    // money and writes into the model's context (README "Servers that ask you"). Roots are the
    // host's own choice of directories, and elicitation needs a person to ask: each is declared
    // exactly when the host gave it, and a 2026-era request carries the same in its _meta.
    capabilities: {
      ...(offers.roots === true ? { roots: { listChanged: true } } : {}),
      ...(offers.elicit === true ? { elicitation: { form: {}, url: {} } } : {}),
      // A 2026-era server answers a call with a task only to a request that declares the extension.
      ...(offers.tasks === true ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    },
    versionNegotiation: negotiation(server),
  };
}

/**
 * 2026-07-28 (server/discover) with a server that offers it, a 2025 revision (initialize) with one
 * that does not. SSE is a transport of the 2025 revisions only: no 2026-07-28 server is reached by
 * it. Over HTTP the probe's silence is an outage (the SDK's verdict); over stdio it is bounded.
 */
function negotiation({
  transport,
  connectTimeoutMs,
}: Pick<McpServerConfig, 'transport' | 'connectTimeoutMs'>): VersionNegotiationOptions {
  switch (transport) {
    case 'sse':
      return { mode: 'legacy' };
    case 'http':
      return { mode: 'auto' };
    case 'stdio':
      return {
        mode: 'auto',
        probe: { timeoutMs: Math.min(STDIO_PROBE_TIMEOUT_MS, connectTimeoutMs / 2) },
      };
    default:
      return assertNever(transport, 'transport');
  }
}
