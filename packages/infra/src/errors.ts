// Infra's one error class: callers branch on `code`, never on the message.

export type InfraErrorCode =
  /** EPOCH_PROFILE is not a usable directory name. */
  | 'invalid_profile'
  /** Another process held a file's lock for longer than the caller would wait. */
  | 'lock_timeout';

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
