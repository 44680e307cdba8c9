// The plugin's one error class. Callers decide on `code`, never on message text; the message is for
// the person or model reading it and always names the server (and tool, when there is one).

export type McpErrorCode =
  /** stdio command not found on PATH (ENOENT at spawn). */
  | 'command_not_found'
  /** The process could not be started for another reason (EACCES, bad cwd, ...). */
  | 'spawn_failed'
  /** The process is out of file descriptors (EMFILE at spawn), or holds as many stdio servers as its
   * open-files limit (`ulimit -n`) allows, so this one was not started. */
  | 'too_many_open_files'
  /** A check before spawning or connecting failed: the command is not executable, `cwd` is not a
   * directory, the URL does not parse, or nothing accepts TCP connections at its host:port. */
  | 'preflight_failed'
  /** A `${VAR}` without a default in the server's entry names a variable the environment does not
   * set at start (or a `cwd` made with one is not absolute): nothing was started. */
  | 'env_unset'
  /** The server's `env_file` could not be read at start (missing, unreadable, not a regular file,
   * too large): nothing was started. */
  | 'env_file_unreadable'
  /** A value a `${VAR}` or the `env_file` gave holds a character its field cannot carry (a NUL; a
   * line break in a header): nothing was started. */
  | 'env_value_invalid'
  /** The server's headers helper (`headers_helper`, or the host's function) gave no headers: the
   * program was not found, failed, ran past its time or printed too much or not a JSON object of
   * headers. Nothing was sent to the server. */
  | 'headers_helper_failed'
  /** connect() (spawn/connect + initialize + first tools/list) did not finish within connect_timeout. */
  | 'connect_timeout'
  /** A request did not answer within `timeout`; the server was told to cancel it. */
  | 'request_timeout'
  /** A tools/call kept its request timeout alive with progress past its total limit
   * (`max_total_timeout`); the server was told to cancel it. */
  | 'request_total_timeout'
  /** The caller's signal aborted the request; the server was told to cancel it. */
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
  /** The server refused our credentials (HTTP 401 that no OAuth layer fixed). Not retried: only
   * `epoch mcp login <name>` (or fixed `headers`) and a reconnect help. */
  | 'needs_login'
  /** The server refused a request for a scope the login did not grant (403 insufficient_scope);
   * the scope is remembered and the next `epoch mcp login <name>` asks for it. */
  | 'insufficient_scope'
  /** An OAuth step failed for a reason a retry may fix (the authorization server could not be
   * reached or answered 5xx). Stored credentials are kept. */
  | 'oauth_failed'
  /** An OAuth request (it carries credentials) was redirected to another origin and not sent
   * there: the server or its authorization server is misconfigured or hostile. */
  | 'redirect_refused'
  /** `epoch mcp login` did not complete: the user or the authorization server refused, or the
   * callback could not be received. */
  | 'login_failed'
  /** `epoch mcp login` was not finished in the browser in time. */
  | 'login_timeout'
  /** A login was asked of a server that answers without one (its tools listed with no token, only
   * the headers every connection sends: the configured ones and its headers helper's) and whose
   * entry has no `oauth`: there is nothing to log in to. */
  | 'login_not_needed'
  /** The server did not declare the capability the request needs; nothing was sent. */
  | 'not_supported'
  /** A 2026-era server wanted input before it would answer that epoch does not give (sampling,
   * elicitation or roots again after one answer, or any of them as a capability epoch does not
   * declare); the request was ended, not retried. */
  | 'input_required'
  /** No server of that name is registered. */
  | 'unknown_server'
  /** A held tool was called after its server stopped offering it (a new list, a new config). */
  | 'unknown_tool'
  /** The server is turned off (`"enabled": false`): it is not started, so nothing can be asked of it. */
  | 'server_disabled'
  /** The server waits for a person's approval of what it would run (its status is
   * `needsApproval`): it is not started, so nothing can be asked of it. */
  | 'needs_approval'
  /** connectAll() was given a server whose name is already registered (disconnect it first). */
  | 'duplicate_server'
  /** A call to a tool that is withheld: new, or its definition changed since a person approved
   * it (README, "Pinned tools"); nothing was sent. */
  | 'tool_withheld'
  /** approveTools named a tool of the server that is not withheld now. */
  | 'tool_not_withheld'
  /** approveTools was given a withheld tool whose definition is not the one now withheld: it
   * changed again after it was shown; nothing was approved. */
  | 'tools_changed'
  /** A cancel of a task that had already completed, failed or been cancelled, as its server says:
   * nothing was cancelled. */
  | 'task_ended'
  /** The server no longer knows a task asked for by its id (tasks/get answered -32602): past the
   * time the server keeps it, or the server restarted since; its record is removed. */
  | 'task_gone';

export interface McpErrorOptions {
  readonly server: string;
  /** The tool (raw MCP name) the failed request was for, when it was a tools/call. */
  readonly tool?: string | undefined;
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

/**
 * The McpError (of `code`, when given) that `error` is or wraps. The SDK wraps what our transport's
 * fetch and auth provider throw (a connect's version negotiation, for one), keeping it as `cause`.
 */
export function mcpErrorIn(error: unknown, code?: McpErrorCode): McpError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (isMcpError(e, code)) return e;
  }
  return undefined;
}
