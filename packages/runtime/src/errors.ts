// The runtime's one error class, for mistakes of the code that assembles it (an embedding host's
// options, a tool group it registers) and for requests a front end makes of it (a server it
// names). Callers decide on `code`, never on message text. Problems in files a user edits are
// diagnostics, not errors: they never stop the runtime from starting.
import type { McpServerSource } from '@epoch-agent/plugin-mcp';

/** Every code, with the data that comes with it. */
export interface RuntimeErrorData {
  /** `hostCapabilities.namespace` is not a valid namespace; nothing was started. */
  readonly invalid_host_namespace: { readonly namespace: string };
  /** A key of `hostCapabilities.mcpServers` is not a valid server name; nothing was started. */
  readonly invalid_host_server_name: { readonly namespace: string; readonly server: string };
  /** A tool given to `ToolRegistry.setGroup` has a name a model provider would refuse. */
  readonly invalid_tool_name: { readonly group: string; readonly tool: string };
  /** No server of that name is known, from any source. */
  readonly unknown_server: { readonly server: string };
  /**
   * The server comes from the host or a plugin, not the user's or the project's mcp.json, so it
   * is not edited.
   */
  readonly not_user_server: { readonly server: string; readonly source: McpServerSource };
  /** An OAuth login or logout was asked of a stdio server. */
  readonly not_remote_server: { readonly server: string };
}

export type RuntimeErrorCode = keyof RuntimeErrorData;

export class RuntimeError<C extends RuntimeErrorCode = RuntimeErrorCode> extends Error {
  override readonly name = 'RuntimeError';
  readonly code: C;
  readonly data: RuntimeErrorData[C];

  constructor(code: C, message: string, data: RuntimeErrorData[C]) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export function isRuntimeError<C extends RuntimeErrorCode>(
  error: unknown,
  code?: C,
): error is RuntimeError<C> {
  return error instanceof RuntimeError && (code === undefined || error.code === code);
}
