// The options of every request an McpClient sends, and what its failures mean to the caller.
//
// Both ways a request can end early reach the server as notifications/cancelled with the
// request's id: the SDK sends it when the caller's signal aborts (a user stop) and when `timeout`
// passes. The SDK rejects both with the same REQUEST_TIMEOUT code, though, so which one happened is
// read off the caller's signal, and the caller gets `aborted` or `request_timeout` accordingly.
import {
  ProtocolError,
  ProtocolErrorCode,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { McpError } from './errors.js';
import type { Scrubber } from './secrets.js';
import { STREAM_ENDED_CODE } from './transport/request-streams.js';

export function buildRequestOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  return signal === undefined ? { timeout: timeoutMs } : { timeout: timeoutMs, signal };
}

/** Which request failed, for the message and the error's data. */
export interface RequestSite {
  readonly server: string;
  /** The MCP method: `tools/call`, `resources/read`, ... */
  readonly method: string;
  /** The raw tool name, for tools/call. */
  readonly tool?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** False when the request was still waiting in the server's call queue: nothing was sent. */
  readonly sent: boolean;
  readonly scrub: Scrubber;
}

export function requestError(error: unknown, site: RequestSite): McpError {
  if (error instanceof McpError) return error;
  const what = site.tool === undefined ? site.method : `${site.method} "${site.tool}"`;
  const prefix = `MCP server "${site.server}": ${what}`;
  const make = (code: McpError['code'], message: string): McpError =>
    new McpError(code, message, {
      server: site.server,
      ...(site.tool === undefined ? {} : { tool: site.tool }),
      cause: error,
    });
  if (site.signal?.aborted) {
    return make(
      'aborted',
      site.sent
        ? `${prefix} was stopped by the user; the server was sent notifications/cancelled.`
        : `${prefix} was stopped by the user while it waited for an earlier call to this server; it was never sent.`,
    );
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return make(
          'request_timeout',
          `${prefix} got no answer within ${seconds(site.timeoutMs)} and was cancelled (the server was sent notifications/cancelled). If it needs longer, raise "timeout" for this server in mcp.json.`,
        );
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return make(
          'connection_closed',
          `${prefix} failed: the connection to the server is closed. Check the server's status; it may have exited.`,
        );
      case SdkErrorCode.InvalidResult:
        return make(
          'server_error',
          `${prefix} failed: the server's answer is not valid MCP: ${site.scrub(error.message)}`,
        );
      default:
        return make('request_failed', `${prefix} failed: ${site.scrub(error.message)}`);
    }
  }
  if (error instanceof ProtocolError && error.code === STREAM_ENDED_CODE) {
    return make(
      'request_failed',
      `${prefix} failed: the HTTP stream that carried the answer broke off before the server answered (the server may have restarted, or a proxy cut the connection). The call may or may not have run on the server; check before repeating it.`,
    );
  }
  if (error instanceof ProtocolError) {
    return make(
      'server_error',
      `${prefix} failed: the server answered with error ${error.code}: ${site.scrub(error.message)}`,
    );
  }
  return make('request_failed', `${prefix} failed: ${site.scrub(messageOf(error))}`);
}

export function isMethodNotFound(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
