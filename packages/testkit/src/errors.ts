// The testkit's one error class. Callers (the example, a benchmark) decide on `code` — say, to tell
// a person which port to free — never on the message text.

export type TestkitErrorCode =
  /** Something already listens on the port a server was asked to use. */
  | 'port_in_use'
  /** The server was started but never listened on its port (it exited, or took too long). */
  | 'not_listening';

export class TestkitError extends Error {
  override readonly name = 'TestkitError';
  readonly code: TestkitErrorCode;
  /** The 127.0.0.1 port the failed server was meant to listen on. */
  readonly port: number;

  constructor(code: TestkitErrorCode, message: string, data: { readonly port: number }) {
    super(message);
    this.code = code;
    this.port = data.port;
  }
}

export function isTestkitError(error: unknown, code?: TestkitErrorCode): error is TestkitError {
  return error instanceof TestkitError && (code === undefined || error.code === code);
}
