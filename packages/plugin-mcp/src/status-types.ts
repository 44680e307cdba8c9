// A server's status as a UI, a command or a host sees it: one union discriminated by `state`, each
// state with what it knows (made in one place, status.ts).
import type { McpServerCapabilities } from './connection/capabilities.js';
import type { McpProtocol } from './connection/protocol.js';
import type { McpErrorCode } from './errors/mcp-error.js';
import type {
  McpApprovalReason,
  McpIcon,
  McpLaunch,
  McpServerExit,
  McpServerStatusCommon,
} from './types.js';

export type McpServerStatus =
  | (McpServerStatusCommon & {
      readonly state: 'connecting';
      /**
       * When this connect began (milliseconds since the epoch): a UI shows how long it has taken
       * without asking again.
       */
      readonly since: number;
    })
  | (McpServerStatusCommon & {
      readonly state: 'connected';
      /** As the server named itself (its initialize answer, or its server/discover `_meta`). */
      readonly serverInfo: {
        readonly name: string;
        readonly version: string;
        readonly icons?: readonly McpIcon[];
      };
      /**
       * What the server asks an agent to tell the model about it (MCP's `instructions`), secrets
       * blanked, cleaned (tools/model-text.ts), cut past MAX_INSTRUCTIONS_CHARS; absent when it
       * gave none (or nothing visible).
       */
      readonly instructions?: string;
      /** The protocol era and revision the connection speaks. */
      readonly protocol: McpProtocol;
      /** What it declared it can do (tools, resources, prompts, logging, completions). */
      readonly capabilities: McpServerCapabilities;
    })
  | (McpServerStatusCommon & {
      /** The connection died; the watchdog is retrying in the background (1 s, 2 s, 4 s). */
      readonly state: 'reconnecting';
      readonly reconnect: {
        /** The attempt that runs now or next (1-based), of `attempts` in this series. */
        readonly attempt: number;
        readonly attempts: number;
        /** When that attempt starts (milliseconds since the epoch); once past, it is running. */
        readonly nextAttemptAt: number;
      };
      /** What took the connection down, or what the last attempt failed with. */
      readonly error: { readonly code: McpErrorCode; readonly message: string };
      /** The server's last stderr lines, secrets blanked; empty for remote servers. */
      readonly stderrTail: string;
      /** The process of that connection or attempt exited by itself (stdio): how. */
      readonly exit?: McpServerExit;
    })
  | (McpServerStatusCommon & {
      /**
       * Started on demand (`"start": "on_demand"`) and not started yet: its tools are offered from
       * the schema cache, with no process and no socket; its first request starts it and waits.
       */
      readonly state: 'notStarted';
    })
  | (McpServerStatusCommon & {
      /** Closed after idle_timeout; the next call connects again. */
      readonly state: 'idle';
      /** When it was closed (milliseconds since the epoch). */
      readonly since: number;
    })
  | (McpServerStatusCommon & {
      /** The server refused the credentials (HTTP 401); only `epoch mcp login <name>` fixes it. */
      readonly state: 'needsLogin';
      readonly error: { readonly code: 'needs_login'; readonly message: string };
    })
  | (McpServerStatusCommon & {
      readonly state: 'failed';
      readonly error: { readonly code: McpErrorCode; readonly message: string };
      /** The server's last stderr lines, secrets blanked; empty for remote servers. */
      readonly stderrTail: string;
      /** The last attempt's process exited by itself (stdio): how. */
      readonly exit?: McpServerExit;
    })
  /** Closed by disconnect(); the last status a removed server reports. */
  | (McpServerStatusCommon & { readonly state: 'disconnected' })
  /**
   * Waits for a person's yes before it starts (see the README's trust section): never started,
   * no tools, not even cached ones. `launch` is what it would run.
   */
  | (McpServerStatusCommon & {
      readonly state: 'needsApproval';
      readonly launch: McpLaunch;
      readonly reason: McpApprovalReason;
    })
  /** Turned off by the user (`"enabled": false`): never started, no tools. */
  | (McpServerStatusCommon & { readonly state: 'disabled' });

export type McpServerState = McpServerStatus['state'];
