// The runtime's one error class, for mistakes of the code that assembles it (an embedding host's
// options, a tool group it registers). Callers decide on `code`, never on message text. Problems in
// files a user edits are diagnostics, not errors: they never stop the runtime from starting.

/** Every code, with the data that comes with it. */
export interface RuntimeErrorData {
  /** `hostCapabilities.namespace` is not a valid namespace; nothing was started. */
  readonly invalid_host_namespace: { readonly namespace: string };
  /** A key of `hostCapabilities.mcpServers` is not a valid server name; nothing was started. */
  readonly invalid_host_server_name: { readonly namespace: string; readonly server: string };
  /** A tool given to `ToolRegistry.setGroup` has a name a model provider would refuse. */
  readonly invalid_tool_name: { readonly group: string; readonly tool: string };
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
