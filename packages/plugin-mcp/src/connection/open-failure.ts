// What a failed open of a link means: the failure a person reads (connect-failure words, why a
// stdio server did not start, a Streamable HTTP server behind an SSE url), whether it was close()
// that ended it, and what it says about the era the server was met with (open.ts tries once more
// when a remembered verdict was refused, or a probed stdio server exited).
import { messageOf } from '@epoch-agent/infra';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { connectFailure, isAuthFailure } from '../errors/connect.js';
import { networkFailure } from '../errors/http.js';
import { isMcpError, mcpErrorIn } from '../errors/mcp-error.js';
import { closedWhileConnecting } from '../errors/unavailable.js';
import type { McpTransportHandle } from '../transport/handle.js';
import type { MessageTooLongError } from '../transport/message-lines.js';
import { streamableInstead } from '../transport/probe.js';
import { commandNotFoundForHosts } from '../transport/resolve-command.js';
import type { HttpServerConfig } from '../types.js';
import type { AttemptOutcome, AttemptParts } from './attempt.js';
import { explainStdioFailure } from './preflight.js';

/** Why an open was aborted: its signal's reason. */
export const TIMED_OUT = 'connect_timeout';
export const CLOSED = 'closed';

/** One open of a link: its outcome, and what it says about the era the server was met with. */
export interface Opened {
  readonly outcome: AttemptOutcome;
  /** A stdio server exited before the connect's first answer, which was the era probe's. */
  readonly exitedWhileProbing: boolean;
  /**
   * Connecting from a remembered verdict failed while the server was there to answer: no
   * timeout, no close(), no process that exited or stdin found closed, no unreachable host, no
   * refused login.
   */
  readonly verdictRefused: boolean;
}

/** What an open knew when it failed. */
export interface FailedOpen {
  readonly parts: AttemptParts;
  /** What it threw. */
  readonly thrown: unknown;
  /** The open's own, aborted with TIMED_OUT or CLOSED when it was. */
  readonly signal: AbortSignal;
  /** It met the server with a remembered era verdict, not a probe. */
  readonly fromVerdict: boolean;
  /** Its transport, if it got that far: closed here. */
  readonly handle: McpTransportHandle | undefined;
  /** The transport closed (for stdio: the process ended) before it failed. */
  readonly exited: boolean;
  /** The server had answered the handshake. */
  readonly handshaken: boolean;
  /** A line over the transport's bound made it stop the server. */
  readonly tooLong: MessageTooLongError | undefined;
  /** Opens `http` within the open's deadline; true when it opened (it is closed at once). */
  readonly tryStreamable: (http: HttpServerConfig) => Promise<boolean>;
}

/** The outcome of an open that failed, its transport closed. */
export async function failedOpen(failed: FailedOpen): Promise<Opened> {
  const { parts, signal, handle } = failed;
  const { config, scrub } = parts;
  const { logger } = parts.settings;
  const error = probeCause(failed.thrown);
  // Before the close below, which ends the process too; a timeout is not a server that exited.
  const answered = !signal.aborted && !gone(failed, error);
  // A spawn that failed (our transport's McpError: command not found, no descriptor) ran nothing.
  const exitedWhileProbing =
    config.transport === 'stdio' &&
    !failed.fromVerdict &&
    failed.exited &&
    !failed.handshaken &&
    !signal.aborted &&
    !isMcpError(error);
  const verdictRefused = failed.fromVerdict && answered && !isAuthFailure(error);
  await handle
    ?.close()
    .catch((closeError: unknown) =>
      logger.warn(
        `MCP server "${config.name}": closing the connection failed: ${scrub(messageOf(closeError))}`,
        { server: config.name },
      ),
    );
  const stderrTail = handle?.stderrTail() ?? '';
  const exit = handle?.exit?.();
  const ended = exit === undefined ? {} : { exit };
  if (signal.reason === CLOSED) {
    const closed = closedWhileConnecting(config.name, error);
    const outcome: AttemptOutcome = { ok: false, error: closed, stderrTail };
    return { outcome, exitedWhileProbing: false, verdictRefused: false };
  }
  const failure = connectFailure(
    failed.tooLong ?? (await explainStdioFailure(config, error, signal)),
    {
      config,
      timedOut: signal.reason === TIMED_OUT,
      stderrTail,
      redirect: handle?.lastRedirect?.(),
      scrub,
    },
  );
  if (failure.code === 'command_not_found') {
    // The user's message says what is missing; why it may be missing is the host's business.
    logger.warn(commandNotFoundForHosts(config.name), { server: config.name });
  }
  // Within this open's deadline: the probe ends with it (timeout or close()).
  const probed = await streamableInstead(config, error, failed.tryStreamable);
  return {
    outcome: { ok: false, error: probed ?? failure, stderrTail, ...ended },
    exitedWhileProbing,
    verdictRefused,
  };
}

/**
 * The open failed because the server was not there to answer, not because it refused what it was
 * met with. Over stdio: its process ended, or our write found its stdin closed (the transport's
 * connection_closed). A server that exits may be seen by its closed pipe before its exit is: the
 * write that follows its last answer (or an initialize sent a moment after it crashed) fails at
 * once, the exit comes on a later turn. Remote: the host could not be reached.
 */
function gone(failed: FailedOpen, error: unknown): boolean {
  if (failed.parts.config.transport !== 'stdio') return networkFailure(error) !== undefined;
  return failed.exited || mcpErrorIn(error, 'connection_closed') !== undefined;
}

/**
 * What failed under the SDK's "version negotiation probe failed": the probe is only the first
 * request a server gets, so why it failed (a refused port, a web page, a 404) is told as for any
 * connect.
 */
function probeCause(error: unknown): unknown {
  return error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause !== undefined
    ? error.cause
    : error;
}
