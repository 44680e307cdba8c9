// What to do about a server's error, in the page's words. The plugin's messages say what happened
// and name no front end (a host's server is in no file); the page adds the field to change and the
// line of mcp.json it is written on, by the error's code. A Record, so a new error code without an
// answer (even "none") fails to compile. What a state alone says (log in, turn it on) is the
// state's hint (states.ts), not repeated here.
import type { McpErrorCode } from '@epoch-agent/runtime';
import type { ServerView } from '../src/api-types.js';
import type { TaskErrorCode } from '../src/task-types.js';

type Advice = (server: ServerView) => string | undefined;

const none: Advice = () => undefined;

const ADVICE: Record<McpErrorCode, Advice> = {
  connect_timeout: (server) => raise(server, 'connect_timeout', 'If it is just slow'),
  request_timeout: (server) => raise(server, 'timeout', 'If it needs longer'),
  request_total_timeout: (server) =>
    raise(server, 'max_total_timeout', 'If its work takes longer still'),
  insufficient_scope: () => 'Log in again: the login will ask for it.',
  headers_helper_failed: (server) => {
    if (server.origin.source === 'host' || server.at === undefined) return undefined;
    const from = server.fields.find((written) => written.field === 'headers_helper')?.from;
    const line = from?.kind === 'file' ? from.line : server.at.line;
    return `Run its headers helper ("headers_helper" at ${server.at.file}:${line}) yourself to see what it prints, fix it, then reconnect it.`;
  },
  // The state's hint says what to do, or the message names the field or program to fix.
  needs_login: none,
  login_failed: none,
  login_timeout: none,
  server_disabled: none,
  needs_approval: none,
  // The server's card shows the withheld tools, their diff and the approve button.
  tool_withheld: none,
  tool_not_withheld: none,
  tools_changed: none,
  command_not_found: none,
  spawn_failed: none,
  too_many_open_files: none,
  preflight_failed: none,
  connect_failed: none,
  connection_closed: none,
  request_failed: none,
  oauth_failed: none,
  server_error: none,
  redirect_refused: none,
  not_supported: none,
  input_required: none,
  unknown_server: none,
  duplicate_server: none,
  login_not_needed: none,
  unknown_tool: none,
  // The message names the variable or the file, and what to do.
  env_unset: none,
  env_file_unreadable: none,
  env_value_invalid: none,
  aborted: none,
  // The list of tasks, read again, shows the status the server gave, or no longer the task.
  task_ended: none,
  task_gone: none,
};

/** What to do about an error of `code` from `server`, when the page has something to add. */
export function adviceFor(code: McpErrorCode, server: ServerView): string | undefined {
  return ADVICE[code](server);
}

/** The same for an API answer's error code (a tool's "Try"), which is an McpErrorCode or the API's own. */
export function adviceForAnswer(code: string, server: ServerView): string | undefined {
  return Object.hasOwn(ADVICE, code) ? adviceFor(code as McpErrorCode, server) : undefined;
}

// The task routes' own refusals. A Record too: a new code without its words fails to compile.
const TASK_ADVICE: Record<TaskErrorCode, string> = {
  unknown_task:
    'The list of tasks has been read again: its record is gone (its file in $EPOCH_HOME/tasks was removed), so epoch no longer knows this task.',
};

/**
 * What to do about a refusal of a recorded task's Show result or Cancel: the task routes' own code,
 * or the server's (when the page shows that server).
 */
export function adviceForTask(code: string, server: ServerView | undefined): string | undefined {
  if (Object.hasOwn(TASK_ADVICE, code)) return TASK_ADVICE[code as TaskErrorCode];
  return server === undefined ? undefined : adviceForAnswer(code, server);
}

/** "raise <field> at file:line": where it is written, else its entry; nothing for a host's server. */
function raise(server: ServerView, field: string, when: string): string | undefined {
  if (server.origin.source === 'host' || server.at === undefined) return undefined;
  const from = server.fields.find((written) => written.field === field)?.from;
  const line = from?.kind === 'file' ? from.line : server.at.line;
  return `${when}, raise "${field}" for it at ${server.at.file}:${line}.`;
}
