// Why a connect failed, in words that name the server, say what happened and what to do. Also
// which transport failures mean "log in again" (HTTP 401) and "the server forgot our session"
// (HTTP 404 on a Streamable HTTP session), decided on the SDK's typed errors, never on message
// text. What a request reads while a server is down is unavailable.ts's.
import { basename } from 'node:path';
import { messageOf, redactUrl } from '@epoch-agent/infra';
import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { Scrubber } from '../secrets.js';
import { seconds, sentence } from '../text.js';
import { MessageTooLongError } from '../transport/message-lines.js';
import type { Redirect } from '../transport/redirects.js';
import type { McpServerConfig, RemoteServerConfig, StdioServerConfig } from '../types.js';
import { httpAnswer, networkFailure, oneLine } from './http.js';
import { isMcpError, McpError } from './mcp-error.js';
import { notValidMcp } from './request.js';
import { needsLogin } from './unavailable.js';

export interface FailedConnect {
  readonly config: McpServerConfig;
  /** The connect deadline passed (the attempt was aborted for it). */
  readonly timedOut: boolean;
  /** What the server wrote to stderr, secrets blanked; always empty for a remote server. */
  readonly stderrTail: string;
  /** A remote server's last answer, when it was a redirect (the SDK's error has only its status). */
  readonly redirect?: Redirect | undefined;
  readonly scrub: Scrubber;
}

export function connectFailure(failed: unknown, attempt: FailedConnect): McpError {
  const error = withoutProbe(failed);
  const { config } = attempt;
  const server = config.name;
  // The OAuth layer's own verdict first: its message has the real reason (no login stored, a
  // refresh token the authorization server refused), which the generic 401 text would hide.
  if (isMcpError(error, 'needs_login')) return error;
  if (isAuthFailure(error)) return needsLogin(server, error);
  if (attempt.timedOut) {
    return new McpError(
      'connect_timeout',
      `MCP server "${server}" did not finish connecting within ${seconds(config.connectTimeoutMs)} (the connect timeout covers start, initialize and the first tools/list). ${afterTimeout(attempt)}`,
      { server, cause: error },
    );
  }
  const what = notValidMcp(error)
    ? `the server's answer is not valid MCP: ${error.data.issue}. Ask the server's maintainers to fix it.`
    : config.transport === 'stdio'
      ? stdioFailure(error, attempt)
      : remoteFailure(error, config, attempt);
  if (what instanceof McpError) return what;
  return new McpError('connect_failed', `MCP server "${server}" failed to connect: ${what}`, {
    server,
    cause: error,
  });
}

/**
 * What the server did to the first request of a connect. When that was the era probe
 * (server/discover), the SDK wraps what went wrong in an EraNegotiationFailed error whose cause is
 * the server's answer, which means the same as it would have to initialize.
 */
function withoutProbe(error: unknown): unknown {
  const probe =
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause !== undefined;
  return probe ? error.cause : error;
}

/** What to do about a connect that timed out: remote servers have no stderr to look at. */
function afterTimeout({ config, stderrTail }: FailedConnect): string {
  // Which option sets the timeout is the front end's to say (a host's server is in no file).
  const raise = 'give it a longer connect timeout';
  if (config.transport !== 'stdio') {
    return `If it is just slow, ${raise}; otherwise check that ${redactUrl(config.url)} is the server's MCP endpoint and that it answers.`;
  }
  if (stderrTail.trim() !== '') {
    return `If it is just slow to start, ${raise}; otherwise check its stderr.`;
  }
  const runner = packageRunner(config);
  if (runner !== undefined) {
    // A package runner is silent while it fetches: the usual reason for a first start that hangs.
    return `It wrote nothing to stderr: "${runner}" may still be downloading the package, or this machine may be offline. Run the command once in a terminal to see, or ${raise}.`;
  }
  return `It wrote nothing to stderr. If it is just slow to start, ${raise}; otherwise run its command in a terminal to see what it does.`;
}

// Commands that download the package they run on first use, printing nothing meanwhile.
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);

function packageRunner(config: StdioServerConfig): string | undefined {
  const name = basename(config.command).replace(/\.(cmd|exe)$/i, '');
  return PACKAGE_RUNNERS.has(name) ? name : undefined;
}

/** A stdio server's connect failure in words, or its own McpError (spawn errors keep their code). */
function stdioFailure(error: unknown, { stderrTail, scrub }: FailedConnect): string | McpError {
  // A timed-out tools/list keeps its own code; a closed connection is the server's failure to
  // connect (a send that hit a dead pipe says the same thing less clearly).
  if (error instanceof McpError && error.code !== 'connection_closed') return error;
  if (error instanceof MessageTooLongError) {
    return `${sentence(error.message)} Check that it writes only JSON-RPC messages to stdout (logs go to stderr).`;
  }
  const what = isClosed(error)
    ? 'the server closed the connection while connecting (the process exited, or closed its stdout)'
    : scrub(oneLine(messageOf(error)));
  const stderr =
    stderrTail.trim() === '' ? 'it wrote nothing to stderr' : 'see what it wrote to stderr';
  return `${sentence(what)} Check its "command" and "args"; ${stderr}.`;
}

/** A remote server's connect failure in words: the answer it gave, or why it gave none. */
function remoteFailure(
  error: unknown,
  config: RemoteServerConfig<'sse' | 'http'>,
  { scrub, redirect }: FailedConnect,
): string | McpError {
  // The preflight's verdict and a timed-out tools/list keep their own code and words.
  if (error instanceof McpError && error.code !== 'connection_closed') return error;
  const url = redactUrl(config.url);
  const answer = httpAnswer(error, config.url, scrub, redirect);
  if (answer !== undefined) return answer;
  const network = networkFailure(error);
  if (network !== undefined) {
    return `the server could not be reached: ${scrub(network.text)}. Check that it is running and that "url" (${url}) names the right host and port.`;
  }
  const what = isClosed(error)
    ? 'the server closed the connection while connecting'
    : scrub(oneLine(messageOf(error)));
  return `${sentence(what)} Check "url" (${url}).`;
}

function isClosed(error: unknown): boolean {
  return (
    error instanceof McpError ||
    (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) ||
    closedInProbe(error)
  );
}

/**
 * The connection closed during the era probe, before the server answered it: on stdio, where the
 * probe runs on the connection itself, the SDK says so with an EraNegotiationFailed that wraps
 * nothing (what a server answered is always its cause, and an HTTP status is an SdkHttpError).
 */
function closedInProbe(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    !(error instanceof SdkHttpError) &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause === undefined
  );
}

/**
 * HTTP 401 from either remote transport: the SDK's UnauthorizedError (an OAuth provider gave up),
 * a Streamable HTTP status, or the SSE stream's refused GET. Looks through `cause` too, because
 * our own errors wrap the SDK's.
 */
export function isAuthFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof UnauthorizedError) return true;
    if (e instanceof SdkHttpError && e.status === 401) return true;
    if (e instanceof SseError && e.code === 401) return true;
  }
  return false;
}

/**
 * The Streamable HTTP server answered 404 to a request that carried our session id: it no longer
 * knows the session (restarted, expired it). The spec's answer is a new initialize.
 */
export function isSessionExpired(error: unknown, transport: Transport): boolean {
  return error instanceof SdkHttpError && error.status === 404 && transport.sessionId !== undefined;
}
