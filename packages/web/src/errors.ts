// The web package's one error class: what startWeb throws. Callers decide on `code`.

export type WebErrorCode =
  /** Something else listens on the port asked for. */
  | 'port_in_use'
  /** The port could not be listened on for another reason (no permission, not a port). */
  | 'listen_failed';

export class WebError extends Error {
  override readonly name = 'WebError';
  readonly code: WebErrorCode;
  readonly port: number;

  constructor(code: WebErrorCode, message: string, options: { port: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.port = options.port;
  }
}

export function isWebError(error: unknown, code?: WebErrorCode): error is WebError {
  return error instanceof WebError && (code === undefined || error.code === code);
}
