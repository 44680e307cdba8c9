// The plugin's one error class. Callers decide on `code`, never on message text; the message is for
// the person or model reading it and always names the server (and tool, when there is one).

export type McpErrorCode =
  /** stdio command not found on PATH (ENOENT at spawn). */
  | 'command_not_found'
  /** The process could not be started for another reason (EACCES, bad cwd, ...). */
  | 'spawn_failed'
  /** connect() (spawn/connect + initialize + first tools/list) did not finish within connect_timeout. */
  | 'connect_timeout'
  /** A request did not answer within `timeout`; the server was sent notifications/cancelled. */
  | 'request_timeout'
  /** The caller's signal aborted the request; the server was sent notifications/cancelled. */
  | 'aborted'
  /** The connection closed (or was closed) while the request was pending or before it was sent. */
  | 'connection_closed'
  /** The server answered with a JSON-RPC error (or an answer that is not valid MCP). */
  | 'server_error'
  /** A request failed for another reason (a network error on a remote server). */
  | 'request_failed'
  /** connect() failed for a reason other than spawn or timeout: the server closed the connection,
   * refused initialize, or could not be reached. */
  | 'connect_failed'
  /** The server did not declare the capability the request needs; nothing was sent. */
  | 'not_supported'
  /** No server of that name is registered. */
  | 'unknown_server'
  /** connectAll() was given a server whose name is already registered (disconnect it first). */
  | 'duplicate_server';

export interface McpErrorOptions {
  readonly server: string;
  /** The tool (raw MCP name) the failed request was for, when it was a tools/call. */
  readonly tool?: string;
  readonly cause?: unknown;
}

export class McpError extends Error {
  override readonly name = 'McpError';
  readonly code: McpErrorCode;
  readonly server: string;
  readonly tool: string | undefined;

  constructor(code: McpErrorCode, message: string, options: McpErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.server = options.server;
    this.tool = options.tool;
  }
}

export function isMcpError(error: unknown, code?: McpErrorCode): error is McpError {
  return error instanceof McpError && (code === undefined || error.code === code);
}
