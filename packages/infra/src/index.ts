// @epoch-agent/infra: the small shared services every package needs. The public surface, by hand.
export {
  type Diagnostic,
  formatDiagnostic,
  formatPath,
  type LenientIssue,
  type LenientResult,
  type LenientSchema,
  type PathSegment,
  type Position,
  parseLenient,
  type Severity,
  type Site,
} from './diagnostics.js';
export { messageOf } from './error-message.js';
export { InfraError, type InfraErrorCode, isInfraError } from './errors.js';
export { type FileLockOptions, withFileLock } from './file-lock.js';
export { groupedNumber } from './grouped-number.js';
export { type LogFields, type Logger, redactingLogger, silentLogger } from './logger.js';
export {
  type PaceClock,
  type PacedLatest,
  type PacedLatestOptions,
  pacedLatest,
  READING_PACE_MS,
  realPaceClock,
} from './paced-latest.js';
export { type Env, epochHome, mcpConfigPath, profileDir } from './paths.js';
export { processRuns } from './process-runs.js';
export { REDACTED, redact, redactArgs, redactUrl } from './redact.js';
export {
  MAX_LEARNED_SECRETS,
  MIN_SECRET_LENGTH,
  type RedactingStream,
  type Redactor,
  secretRedactor,
} from './redactor.js';
export { MAX_CONFIG_BYTES, readRegularFile } from './regular-file.js';
export {
  argSecrets,
  credentials,
  envSecrets,
  headerSecrets,
  isCredentialName,
  type Secret,
  type SecretKind,
  urlSecrets,
} from './secrets.js';
export { type AtomicWriteOptions, writeFileAtomic } from './secure-file.js';
export { CHARS_PER_TOKEN, estimateTokens } from './tokens.js';
export {
  bounded,
  MAX_VISIBLE_CHARS,
  terminalJson,
  type VisibleTextOptions,
  visibleText,
  withoutTerminalEscapes,
} from './visible-text.js';
