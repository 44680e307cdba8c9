// One place decides what counts as a secret, so every printer of config (CLI, web, logs, statuses)
// hides the same things.

export const REDACTED = '<redacted>';

// Whole maps whose values are secrets by nature: request headers carry auth, env carries API keys.
const SECRET_MAPS = new Set(['headers', 'env']);
const SECRET_KEY =
  /token|secret|password|passwd|pwd|authorization|bearer|api[-_]?key|private[-_]?key|credential|cookie/i;

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
      out[key] = redactAt(inner, secret || SECRET_MAPS.has(key) || SECRET_KEY.test(key));
    }
    return out;
  }
  // An absent value stays absent: `<redacted>` would claim a secret that was never set.
  return secret && value !== undefined ? REDACTED : value;
}

/**
 * Command-line arguments safe to print: the value of an option whose name looks like a credential
 * is replaced, whether it is attached (`--api-key=sk-1`, `--token=x`) or the next argument
 * (`--token x`). Everything else (paths, package names, flags) is kept, since that is what a
 * person needs to recognise the command.
 */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let nextIsSecret = false;
  for (const arg of args) {
    if (nextIsSecret) {
      out.push(REDACTED);
      nextIsSecret = false;
      continue;
    }
    const option = /^(--?[^=\s]+)(=.*)?$/s.exec(arg);
    if (option?.[1] !== undefined && SECRET_KEY.test(option[1])) {
      if (option[2] === undefined) nextIsSecret = true;
      out.push(option[2] === undefined ? arg : `${option[1]}=${REDACTED}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

/**
 * A URL safe to print: the places URLs carry API keys and tokens are replaced by `***` (unlike
 * `<redacted>` it survives URL encoding readably). Those are the password of the userinfo, the user
 * name when there is no password (`https://<token>@host`, `https://<key>:@host`), every query value
 * (`?key=***`, each repeated key kept) and the fragment (`#access_token=...`). A user name next to
 * a password is a name, kept for debugging. Text that is not a URL is returned as `<redacted>`.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  if (url.password) url.password = '***';
  else if (url.username) url.username = '***';
  const keys = [...url.searchParams.keys()];
  url.search = '';
  for (const key of keys) url.searchParams.append(key, '***');
  if (url.hash) url.hash = '***';
  return url.toString();
}
