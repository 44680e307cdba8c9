// The exit code of a command about one server: what its state, or the error of a request to it,
// means for a script. A Record, so a new error code or state without an answer fails to compile.
import type { McpConfigWriteErrorCode, McpErrorCode, McpServerState } from '@epoch-agent/runtime';
import { EXIT, type ExitCode } from '../io.js';

const BY_ERROR: Record<McpErrorCode, Exclude<ExitCode, typeof EXIT.ok>> = {
  needs_login: EXIT.needsLogin,
  insufficient_scope: EXIT.needsLogin,
  login_failed: EXIT.needsLogin,
  login_timeout: EXIT.needsLogin,
  command_not_found: EXIT.unreachable,
  spawn_failed: EXIT.unreachable,
  too_many_open_files: EXIT.unreachable,
  preflight_failed: EXIT.unreachable,
  connect_timeout: EXIT.unreachable,
  connect_failed: EXIT.unreachable,
  connection_closed: EXIT.unreachable,
  request_failed: EXIT.unreachable,
  oauth_failed: EXIT.unreachable,
  // The server answered: the request itself failed.
  server_error: EXIT.failed,
  redirect_refused: EXIT.failed,
  request_timeout: EXIT.failed,
  request_total_timeout: EXIT.failed,
  not_supported: EXIT.failed,
  input_required: EXIT.failed,
  unknown_server: EXIT.failed,
  unknown_tool: EXIT.failed,
  // Asked of a server the user turned off, or a login of one that needs none: the command, not
  // the server, needs changing.
  server_disabled: EXIT.usage,
  login_not_needed: EXIT.usage,
  // Nothing was started: a person must approve what it would run first.
  needs_approval: EXIT.usage,
  // Nothing was sent: a person must approve the tool's new definition first.
  tool_withheld: EXIT.usage,
  tool_not_withheld: EXIT.usage,
  // Nothing was approved: the tools changed again while a person looked at them.
  tools_changed: EXIT.failed,
  duplicate_server: EXIT.failed,
  aborted: EXIT.interrupted,
  // Nothing was started: the environment epoch runs in (a variable, an env_file) needs fixing.
  env_unset: EXIT.failed,
  env_file_unreadable: EXIT.failed,
  env_value_invalid: EXIT.failed,
  // Nothing was sent: the command that gives the server's headers needs fixing.
  headers_helper_failed: EXIT.failed,
  // The server answered: the task had already ended (nothing was cancelled), or it no longer
  // knows the task.
  task_ended: EXIT.failed,
  task_gone: EXIT.failed,
};

export function exitOfError(code: McpErrorCode): Exclude<ExitCode, typeof EXIT.ok> {
  return BY_ERROR[code];
}

const BY_STATE: Record<McpServerState, ExitCode> = {
  connected: EXIT.ok,
  // A call waits for these, reconnects an idle one and starts one not started yet.
  connecting: EXIT.ok,
  idle: EXIT.ok,
  notStarted: EXIT.ok,
  needsLogin: EXIT.needsLogin,
  reconnecting: EXIT.unreachable,
  failed: EXIT.unreachable,
  disconnected: EXIT.unreachable,
  disabled: EXIT.usage,
  needsApproval: EXIT.usage,
};

export function exitOfState(state: McpServerState): ExitCode {
  return BY_STATE[state];
}

// An edit of the user's mcp.json that was refused: what was asked (a name, a tool, a size) is
// wrong, or the file is, in a way only a hand edit or a retry fixes.
const BY_WRITE_ERROR: Record<McpConfigWriteErrorCode, Exclude<ExitCode, typeof EXIT.ok>> = {
  invalid_name: EXIT.usage,
  too_large: EXIT.usage,
  unknown_server: EXIT.usage,
  invalid_entry: EXIT.usage,
  renamed: EXIT.usage,
  secret_placeholder: EXIT.usage,
  // A name already taken, a field the loader refuses (a URL that is not http(s), a misspelt key):
  // bad values given on the command line.
  duplicate_server: EXIT.usage,
  invalid_server: EXIT.usage,
  syntax_error: EXIT.failed,
  invalid_shape: EXIT.failed,
  invalid_encoding: EXIT.failed,
  // The file holds what the edit will not guess at (`"enabled": "no"`, a `*` pattern that turns
  // the tool off): the command line is right, the file needs a hand edit.
  invalid_value: EXIT.failed,
  excluded_by_pattern: EXIT.failed,
  // Only a front end that showed the file says what it was based on; the command line never does.
  changed_since: EXIT.failed,
  lock_timeout: EXIT.failed,
  unusable_file: EXIT.failed,
};

export function exitOfWriteError(code: McpConfigWriteErrorCode): Exclude<ExitCode, typeof EXIT.ok> {
  return BY_WRITE_ERROR[code];
}
