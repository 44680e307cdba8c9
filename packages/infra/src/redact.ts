// One place decides what counts as a secret, so every printer of config (CLI, web, logs, statuses)
// hides the same things.

export const REDACTED = '<redacted>';

// Whole maps whose values are secrets by nature: request headers carry auth, env carries API keys.
const SECRET_MAPS = new Set(['headers', 'env']);
const SECRET_KEY = /token|secret|password|passwd|authorization|api[-_]?key|credential|cookie/i;

/**
 * A deep copy of `value` with secret values replaced by `<redacted>`: every value inside a
 * `headers` or `env` map (the keys stay, they help debugging), and every value whose key looks like
 * a credential. Never mutates its input.
 */
export function redact<T>(value: T): T {
  return redactAt(value, false) as T;
}

function redactAt(value: unknown, secret: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => redactAt(item, secret));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        secret && (inner === null || typeof inner !== 'object')
          ? REDACTED
          : redactAt(inner, secret || SECRET_MAPS.has(key) || SECRET_KEY.test(key));
    }
    return out;
  }
  return secret && value !== undefined ? REDACTED : value;
}

/**
 * A URL safe to print: the password of its userinfo and the values of its query parameters are
 * replaced by `***` (`?key=***`: unlike `<redacted>` it survives URL encoding readably), since both
 * are common places for API keys. Text that is not a URL is returned as `<redacted>`.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  if (url.password) url.password = '***';
  for (const key of new Set(url.searchParams.keys())) url.searchParams.set(key, '***');
  return url.toString();
}
