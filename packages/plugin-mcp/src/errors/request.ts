// What a failed request means to the caller: an McpError whose code decides what happens next and
// whose message names the server, the method or tool, and what to do.
//
// Both ways a request can end early reach the server as a cancellation — notifications/cancelled
// with the request's id, or on a 2026-era Streamable HTTP connection the close of the request's
// stream, which that revision makes the signal: the SDK cancels when the caller's signal aborts
// (a user stop) and when `timeout` passes. A call that ran as a task is cancelled by tasks/cancel
// instead (tasks/task-run.ts), which marks the error it rejects with (TaskCancelSent). A stop and a
// timeout reject with the same REQUEST_TIMEOUT code, though, so which one happened is read off the
// caller's signal, and the caller gets `aborted` or `request_timeout` accordingly.
import { messageOf } from '@epoch-agent/infra';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import type { Scrubber } from '../secrets.js';
import { TaskCancelSent } from '../tasks/task-run.js';
import { seconds } from '../text.js';
import { NotValidMcp } from '../transport/answer-check.js';
import { STREAM_ENDED_CODE } from '../transport/request-streams.js';
import { httpAnswer, networkFailure, oneLine } from './http.js';
import { capabilitiesMissing } from './input-required.js';
import { invalidResultText } from './invalid-result.js';
import { McpError, type McpErrorCode } from './mcp-error.js';
import { type ConnectionLoss, lostHow } from './unavailable.js';

/**
 * How a request that ended early was cancelled on the server: the task it ran as, by tasks/cancel;
 * otherwise the request itself, in the era and transport it used.
 */
function toldToCancel(error: unknown): string {
  if (error instanceof SdkError && error.data instanceof TaskCancelSent) {
    return `the server was sent tasks/cancel for its task "${error.data.taskId}"`;
  }
  return 'the server was told to cancel it (notifications/cancelled; on a 2026-era HTTP connection, the close of its request stream)';
}

/** Which request failed, for the message and the error's data. */
export interface FailedRequest {
  readonly server: string;
  /** The MCP method: `tools/call`, `resources/read`, ... */
  readonly method: string;
  /** The raw tool name, for tools/call. */
  readonly tool?: string | undefined;
  readonly timeoutMs: number;
  /** Set when the call's total limit (`max_total_timeout`) ended it: that, not the caller, stopped it. */
  readonly totalLimitMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** False when the request was still waiting in the server's call queue: nothing was sent. */
  readonly sent: boolean;
  readonly scrub: Scrubber;
  /** A remote server's URL (remoteUrl()); undefined for stdio. */
  readonly url?: string | undefined;
  /** The host gave roots, so the request declared the roots capability. */
  readonly rootsDeclared?: boolean | undefined;
  /** Someone can be asked (the host gave `elicit`), so the request declared elicitation. */
  readonly elicitationDeclared?: boolean | undefined;
  /** The server asked questions during the request: its time went to a person, not to progress. */
  readonly questionsAsked?: boolean | undefined;
  /** How the connection it was sent on ended, when it ended without close(). */
  readonly lost?: ConnectionLoss | undefined;
}

export function requestError(error: unknown, request: FailedRequest): McpError {
  if (error instanceof McpError) return error;
  const what = request.tool === undefined ? request.method : `${request.method} "${request.tool}"`;
  const prefix = `MCP server "${request.server}": ${what}`;
  const make = (code: McpError['code'], message: string): McpError =>
    new McpError(code, message, { server: request.server, tool: request.tool, cause: error });
  if (request.signal?.aborted) {
    return make(
      'aborted',
      request.sent
        ? `${prefix} was stopped by the user; ${toldToCancel(error)}.`
        : `${prefix} was stopped by the user while it waited for an earlier call to this server; it was never sent.`,
    );
  }
  if (request.totalLimitMs !== undefined) {
    // The setting named and what to do in any front end's words, not where it is written: a host's
    // server is in no file (the front ends add the file and line: cli render/advice.ts, web
    // page/advice.ts), as for the other timeouts (EMBEDDING "Messages a host shows").
    const limit = `its total limit of ${seconds(request.totalLimitMs)} ("max_total_timeout")`;
    const ran = request.questionsAsked
      ? `did not finish within ${limit}, the time a person took to answer its questions included,`
      : `kept reporting progress but did not finish within ${limit}`;
    return make(
      'request_total_timeout',
      `${prefix} ${ran} and was cancelled: ${toldToCancel(error)}. If its work takes longer, give the server a longer total limit.`,
    );
  }
  const remote =
    request.url === undefined ? undefined : remoteFailure(error, request.url, request.scrub);
  if (remote !== undefined) return make(remote.code, `${prefix} failed: ${remote.message}`);
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return make(
          'request_timeout',
          `${prefix} got no answer within ${seconds(request.timeoutMs)} and was cancelled: ${toldToCancel(error)}. If it needs longer, give the server a longer request timeout.`,
        );
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return make(
          'connection_closed',
          request.lost === undefined
            ? `${prefix} failed: the connection to the server is closed. Check the server's status; it may have exited.`
            : `${prefix} failed before its answer came: the server ${lostHow(request.lost)}. It reconnects in the background; its status says when it is back.`,
        );
      case SdkErrorCode.InvalidResult:
        return make(
          'server_error',
          `${prefix} failed: the server's answer is not valid MCP: ${request.scrub(invalidResultText(error.message))}. Ask the server's maintainers to fix it.`,
        );
      default:
        return make('request_failed', `${prefix} failed: ${request.scrub(error.message)}`);
    }
  }
  if (error instanceof ProtocolError && error.code === STREAM_ENDED_CODE) {
    return make(
      'request_failed',
      `${prefix} failed: the HTTP stream that carried the answer broke off before the server answered (the server may have restarted, or a proxy cut the connection). The call may or may not have run on the server; check before repeating it.`,
    );
  }
  // The issue is in our words, with nothing of the server's in it.
  if (notValidMcp(error)) {
    return make(
      'server_error',
      `${prefix} failed: the server's answer is not valid MCP: ${error.data.issue}. Ask the server's maintainers to fix it.`,
    );
  }
  if (error instanceof MissingRequiredClientCapabilityError) {
    const { server, method, tool } = request;
    const missing = Object.keys(error.requiredCapabilities);
    const declared = {
      roots: request.rootsDeclared === true,
      elicitation: request.elicitationDeclared === true,
    };
    return capabilitiesMissing({ server, method, name: tool }, missing, declared, error);
  }
  if (error instanceof ProtocolError) {
    return make(
      'server_error',
      `${prefix} failed: the server answered with error ${error.code}: ${request.scrub(withoutCode(error))}`,
    );
  }
  return make('request_failed', `${prefix} failed: ${request.scrub(oneLine(messageOf(error)))}`);
}

/**
 * What went wrong on the way to a remote server: its connection refused or cut (the connection has
 * seen the same error and the watchdog took over), or an HTTP answer that is not MCP.
 */
function remoteFailure(
  error: unknown,
  url: string,
  scrub: Scrubber,
): { code: McpErrorCode; message: string } | undefined {
  const answer = httpAnswer(error, url, scrub);
  if (answer !== undefined) return { code: 'request_failed', message: answer };
  const network = networkFailure(error);
  if (network === undefined) return undefined;
  const ran = network.afterSending
    ? ' before the server answered; it may or may not have run on the server'
    : '; the server never received it';
  return {
    code: 'connection_closed',
    message: `${scrub(network.text)}${ran}. The connection counts as dead and reconnects in the background; try again in a few seconds.`,
  };
}

/**
 * A ProtocolError's message without the "MCP error <code>: " that servers built on the older SDK
 * put in front of their own text, so the code is printed once.
 */
function withoutCode(error: ProtocolError): string {
  const prefix = `MCP error ${error.code}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/**
 * An answer the transport found not valid MCP, put in its place as an error answer
 * (transport/answer-check.ts); a server's own error answer is never one.
 */
export function notValidMcp(error: unknown): error is ProtocolError & { data: NotValidMcp } {
  return error instanceof ProtocolError && error.data instanceof NotValidMcp;
}

export function isMethodNotFound(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound;
}
