// What to do about a server's error, in the `epoch` command's words. The plugin's messages say what
// happened and name no front end (a host's server is in no file, and a host has no `epoch`
// command); this adds the command to run or the line of mcp.json to edit, by the error's code and
// where the server's entry is written. A Record, so a new error code without an answer (even "none")
// fails to compile.
import type { ConfiguredServer, McpErrorCode } from '@epoch-agent/runtime';

type Advice = (server: ConfiguredServer) => string | undefined;

const login: Advice = ({ config }) => `Run "epoch mcp login ${config.name}" to log in again.`;
const none: Advice = () => undefined;

const ADVICE: Record<McpErrorCode, Advice> = {
  needs_login: (server) => {
    const helper = server.config.transport !== 'stdio' && server.config.headersHelper !== undefined;
    const field = helper ? 'headers_helper' : 'headers';
    const headers = fieldPlace(server, field);
    const fix = headers === undefined ? '' : ` (or fix its "${field}" at ${headers})`;
    return `Run "epoch mcp login ${server.config.name}" to sign in again${fix}, then reconnect it.`;
  },
  insufficient_scope: ({ config }) =>
    `Run "epoch mcp login ${config.name}" to grant it; the login will ask for it.`,
  login_failed: login,
  login_timeout: login,
  connect_timeout: (server) => raise(server, 'connect_timeout', 'If it is just slow'),
  request_timeout: (server) => raise(server, 'timeout', 'If it needs longer'),
  request_total_timeout: (server) =>
    raise(server, 'max_total_timeout', 'If its work takes longer still'),
  server_disabled: ({ config }) => `Turn it on with "epoch mcp enable ${config.name}".`,
  needs_approval: ({ config }) =>
    `See what it would run and approve it with "epoch mcp approve ${config.name}".`,
  tool_withheld: ({ config }) =>
    `See what changed with "epoch mcp diff ${config.name}", then approve it with "epoch mcp approve ${config.name}".`,
  tool_not_withheld: ({ config }) =>
    `See which tools are withheld with "epoch mcp diff ${config.name}".`,
  tools_changed: ({ config }) =>
    `See them as they are now with "epoch mcp diff ${config.name}", then run "epoch mcp approve ${config.name}" again.`,
  // The message names the field or the program to fix, or the error is not the user's to fix.
  headers_helper_failed: (server) => {
    const place = fieldPlace(server, 'headers_helper');
    const where = place === undefined ? '' : ` (its "headers_helper" at ${place})`;
    return `Run its headers helper${where} yourself to see what it prints, fix it, then run "epoch mcp reconnect ${server.config.name}".`;
  },
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
  // "epoch mcp tasks" shows the status the server gave; a removed record is no longer listed.
  task_ended: none,
  task_gone: none,
};

/**
 * `message`, then on a line of its own what to do about `code`; the message alone for a server the
 * runtime does not know (nothing says where it is written) or a code with nothing to add.
 */
export function withAdvice(
  code: McpErrorCode,
  message: string,
  server: ConfiguredServer | undefined,
): string {
  const advice = server === undefined ? undefined : ADVICE[code](server);
  return advice === undefined ? message : `${message}\n${advice}`;
}

function raise(server: ConfiguredServer, field: string, when: string): string | undefined {
  const place = fieldPlace(server, field);
  return place === undefined ? undefined : `${when}, raise "${field}" for it at ${place}.`;
}

/**
 * file:line where the server's `field` is written (either spelling), or its entry when the field
 * is not; undefined for a host's server, which is in the host's code, not in any file.
 */
function fieldPlace({ origin, positions }: ConfiguredServer, field: string): string | undefined {
  if (origin.source === 'host') return undefined;
  const camel = field.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase());
  const at = positions?.fields.get(field) ?? positions?.fields.get(camel) ?? positions?.key;
  return at === undefined ? origin.file : `${origin.file}:${at.line}`;
}
