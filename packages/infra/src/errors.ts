// Infra's one error class: callers branch on `code`, never on the message.

export type InfraErrorCode =
  /** EPOCH_PROFILE is not a usable directory name. */
  | 'invalid_profile'
  /** Another process held a file's lock for longer than the caller would wait. */
  | 'lock_timeout'
  /** A path to read or write names a directory, FIFO, device or socket, not a regular file. */
  | 'not_a_file'
  /** A file to read is larger than the caller's bound. */
  | 'too_large'
  /** A file to write is write-protected (no write bit in its mode), or its place is not writable. */
  | 'not_writable';

export class InfraError extends Error {
  override readonly name = 'InfraError';
  readonly code: InfraErrorCode;

  constructor(code: InfraErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function isInfraError(error: unknown, code?: InfraErrorCode): error is InfraError {
  return error instanceof InfraError && (code === undefined || error.code === code);
}
