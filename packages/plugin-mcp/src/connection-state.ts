// The connection state of one McpClient: a union with what each state knows, so a reader can never
// ask a failed connection for its tools or a connected one for its error.
import type { Tool } from '@modelcontextprotocol/client';
import type { McpErrorCode } from './errors.js';

/** What the server said it is in its initialize answer. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

export type McpConnectionState =
  /** Not started yet, or closed by close(). */
  | { readonly kind: 'disconnected' }
  /** Spawning / connecting, initialize, first tools/list. */
  | { readonly kind: 'connecting' }
  | {
      readonly kind: 'connected';
      readonly serverInfo: McpServerInfo;
      readonly tools: readonly Tool[];
      /** The server declared these capabilities; only then are resources/* and prompts/* asked. */
      readonly resources: boolean;
      readonly prompts: boolean;
    }
  | {
      readonly kind: 'failed';
      readonly code: McpErrorCode;
      /** Names the server, what happened and what to do; free of secrets. */
      readonly message: string;
      /** The last lines the server wrote to stderr (stdio only; empty otherwise), secrets blanked. */
      readonly stderrTail: string;
    };

export type McpConnectionStateKind = McpConnectionState['kind'];
