// One server's connection state, and the one place it is kept and changed: a union with what each
// state knows (a reader can never ask a failed connection for its tools or a connected one for its
// error), and ServerState, through one function of which every transition passes. The transitions
// are drawn in ARCHITECTURE.md, "One server's life"; the server's life (life.ts) makes them.
import type { Tool } from '@modelcontextprotocol/client';
import type { McpErrorCode } from '../errors/mcp-error.js';
import { Listeners } from '../listeners.js';
import { assertNever, type McpIcon, type McpServerExit } from '../types.js';
import type { McpServerCapabilities } from './capabilities.js';
import type { McpProtocol } from './protocol.js';

/** What the server said it is (its initialize answer, or its server/discover `_meta`). */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly icons?: readonly McpIcon[];
}

/** Why a server cannot be used: names the server, what happened and what to do; free of secrets. */
export interface McpStateError {
  readonly code: McpErrorCode;
  readonly message: string;
}

export type McpConnectionState =
  /** Not started yet, or closed by close(). */
  | { readonly kind: 'disconnected' }
  /**
   * Started on demand and not started yet (standBy()): no process, no socket; its tools come from
   * the schema cache. A request starts it and waits for it, as for an idle server.
   */
  | { readonly kind: 'notStarted' }
  /** Spawning / connecting, initialize, first tools/list. A call made now waits for it. */
  | {
      readonly kind: 'connecting';
      /** When the connect was asked for (Date.now() milliseconds): a host's start, or connect(). */
      readonly since: number;
    }
  | {
      readonly kind: 'connected';
      readonly serverInfo: McpServerInfo;
      /** Its instructions for the model, clean and bounded (server-identity.ts); absent when none. */
      readonly instructions?: string;
      /** The protocol era and revision this connection speaks. */
      readonly protocol: McpProtocol;
      readonly tools: readonly Tool[];
      /** The server declared these capabilities; only then are resources/* and prompts/* asked. */
      readonly resources: boolean;
      readonly prompts: boolean;
      /** Everything it declared, as a person reads it. */
      readonly capabilities: McpServerCapabilities;
    }
  /**
   * The connection died and the watchdog is bringing it back in the background. A call made now
   * fails at once with this state's story; it never waits.
   */
  | {
      readonly kind: 'reconnecting';
      /** The attempt of this series that runs now, or runs next (1-based). */
      readonly attempt: number;
      /** How many attempts a series makes before the server is `failed`. */
      readonly attempts: number;
      /**
       * When `attempt` starts (Date.now() milliseconds); once that is past, it is running. One
       * state per attempt: a host that shows each state shows each attempt once.
       */
      readonly nextAttemptAt: number;
      /** What took the connection down, or what the last attempt failed with. */
      readonly error: McpStateError;
      /** The last lines the server wrote to stderr (stdio only; empty otherwise), secrets blanked. */
      readonly stderrTail: string;
      /** That connection's or attempt's process exited by itself (stdio only): how. */
      readonly exit?: McpServerExit;
    }
  /** Closed after idle_timeout without a request; the next call connects again and waits for it. */
  | {
      readonly kind: 'idle';
      /** When the connection was closed (Date.now() milliseconds). */
      readonly since: number;
    }
  /**
   * The server refused our credentials (HTTP 401). Reconnecting cannot fix that, so the watchdog
   * leaves it alone: `epoch mcp login <name>` (or fixed headers) and reconnect() do.
   */
  | { readonly kind: 'needsLogin'; readonly message: string }
  | {
      readonly kind: 'failed';
      readonly code: McpErrorCode;
      /** Names the server, what happened and what to do; free of secrets. */
      readonly message: string;
      /** The last lines the server wrote to stderr (stdio only; empty otherwise), secrets blanked. */
      readonly stderrTail: string;
      /** The last attempt's process exited by itself (stdio only): how. */
      readonly exit?: McpServerExit;
    };

export type McpConnectionStateKind = McpConnectionState['kind'];

/** `state` with `redact` applied to every text in it that may quote a server or the network. */
export function redactState(
  state: McpConnectionState,
  redact: (text: string) => string,
): McpConnectionState {
  switch (state.kind) {
    case 'disconnected':
    case 'notStarted':
    case 'connecting':
    case 'idle':
      return state;
    case 'connected':
      // A server may echo what it was started with (an env value) in its instructions.
      return state.instructions === undefined
        ? state
        : { ...state, instructions: redact(state.instructions) };
    case 'reconnecting':
      return {
        ...state,
        error: { ...state.error, message: redact(state.error.message) },
        stderrTail: redact(state.stderrTail),
      };
    case 'needsLogin':
      return { ...state, message: redact(state.message) };
    case 'failed':
      return { ...state, message: redact(state.message), stderrTail: redact(state.stderrTail) };
    default:
      return assertNever(state, 'connection state');
  }
}

/**
 * The state of one server, kept here and nowhere else: the client's parts read it, and the
 * registry reads it through McpClient.state.
 */
export class ServerState {
  readonly #redact: (text: string) => string;
  readonly #listeners: Listeners<McpConnectionState>;
  #state: McpConnectionState = { kind: 'disconnected' };

  constructor(options: {
    /** Applied to every state before anyone sees it (redactState). */
    readonly redact: (text: string) => string;
    /** A listener threw: it never reaches the transition that told it. */
    readonly onListenerError: (error: unknown) => void;
  }) {
    this.#redact = options.redact;
    this.#listeners = new Listeners(options.onListenerError);
  }

  get current(): McpConnectionState {
    return this.#state;
  }

  /** Calls `listener` on every state change; returns the function that stops it. */
  onChange(listener: (state: McpConnectionState) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Any state but `connecting`, whose instant connecting() and asked() decide. */
  set(next: Exclude<McpConnectionState, { readonly kind: 'connecting' }>): void {
    this.#enter(next, true);
  }

  /**
   * A connect begins: `connecting`, since the connect was asked for. A connect asked for while one
   * was (asked()) is the same connect: its instant does not move.
   */
  connecting(): void {
    this.#enter(this.#connectingState(), true);
  }

  /**
   * A connect is asked for but does not begin yet (a host reads what it remembers of the server
   * first; the connection's code loads): `connecting` from now, told when connecting() begins it,
   * so the listeners' first word of it carries what it starts from.
   */
  asked(): void {
    this.#enter(this.#connectingState(), false);
  }

  #connectingState(): McpConnectionState {
    const state = this.#state;
    return { kind: 'connecting', since: state.kind === 'connecting' ? state.since : Date.now() };
  }

  #enter(next: McpConnectionState, tell: boolean): void {
    // Every state passes here, so none can carry a secret, whatever text went into it: an
    // injected transport's stderr, a message made before a token was learned.
    const state = redactState(next, this.#redact);
    this.#state = state;
    if (tell) this.#listeners.emit(state);
  }
}
