// The logging contract. Packages log through this interface and never pick a sink themselves; the
// host decides where lines go. Fields must already be free of secrets (see redact()), or go
// through redactingLogger().

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that drops everything: the default for library code nobody asked to log. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * `logger` with `redact` applied to every message and to every string in its fields: how a
 * component that handles one server's text makes sure its lines carry none of that server's
 * secrets, whoever wrote the message.
 */
export function redactingLogger(logger: Logger, redact: (text: string) => string): Logger {
  const line =
    (write: Logger['info']) =>
    (message: string, fields?: LogFields): void =>
      fields === undefined
        ? write.call(logger, redact(message))
        : write.call(logger, redact(message), redactStrings(fields, redact) as LogFields);
  return {
    debug: line(logger.debug),
    info: line(logger.info),
    warn: line(logger.warn),
    error: line(logger.error),
  };
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, redactStrings(inner, redact)]),
    );
  }
  return value;
}
