// Which protocol era a connection speaks, and what one connection learns that lets the next one to
// the same config start faster. A 2025-era server is met with `initialize`; a 2026-07-28 server
// needs no handshake at all: its `server/discover` answer, remembered, is all a connect needs. So
// the first connect to a server probes (`server/discover`, falling back to `initialize` on the same
// pipe or connection: never a second process), and every later one starts from the verdict the
// schema cache kept. A verdict that no longer holds (the server was upgraded or downgraded) costs
// one failed attempt, then a probe.
import type { DiscoverResult } from '@modelcontextprotocol/client';

/** `legacy`: the 2025 revisions (`initialize`); `modern`: 2026-07-28 and later (`server/discover`). */
export type McpProtocolEra = 'legacy' | 'modern';

/** What a connected server speaks: shown in statuses, `epoch mcp get` and the connectors page. */
export interface McpProtocol {
  readonly era: McpProtocolEra;
  /** The negotiated revision, e.g. `2025-11-25` or `2026-07-28`. */
  readonly version: string;
}

/** How the last connection met the server: what it spoke, and for 2026-07-28 its discover answer. */
export type McpEraVerdict =
  | (McpProtocol & { readonly era: 'legacy' })
  | (McpProtocol & { readonly era: 'modern'; readonly discover: DiscoverResult });

/** What a connection leaves for the next one to the same config (kept in the schema cache). */
export interface McpConnectMemory {
  readonly verdict: McpEraVerdict;
  /**
   * Until when (Date.now() milliseconds) the tool list may be used without asking tools/list
   * again: the server's `ttlMs` on that list, counted from when it answered. Absent: ask again.
   */
  readonly toolsFreshUntil?: number;
  /**
   * The server's `cacheScope` on that list: `private` lists belong to the authorization context
   * they were listed in (the schema cache keeps them accordingly). Absent: the server gave none.
   */
  readonly toolsScope?: 'public' | 'private';
}
