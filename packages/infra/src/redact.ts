// Config made safe to print (CLI, web, logs, statuses): every value its field makes a secret
// (secrets.ts has the rules) is hidden, whatever its length. Secrets inside free text, such as a
// server's stderr, are the redaction policy's (redactor.ts).
import { isCredentialName, scanArgs } from './secrets.js';

export const REDACTED = '<redacted>';

// Whole maps whose values are secrets by nature: request headers carry auth, env carries API keys.
const SECRET_MAPS = new Set(['headers', 'env']);

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
      out[key] = redactAt(inner, secret || SECRET_MAPS.has(key) || isCredentialName(key));
    }
    return out;
  }
  // An absent value stays absent: `<redacted>` would claim a secret that was never set.
  return secret && value !== undefined ? REDACTED : value;
}

/**
 * Command-line arguments safe to print: what argSecrets() finds is replaced — the value of an
 * option whose name looks like a credential, attached (`--api-key=sk-1`) or the next argument
 * (`--token x`); a credential-named `NAME=value` or `Name: value`; the token after `Bearer`; a
 * URL's credential parts (as redactUrl prints them). Everything else (paths, package names,
 * flags) is kept, since that is what a person needs to recognise the command.
 */
export function redactArgs(args: readonly string[]): string[] {
  return scanArgs(args).map((parts, i) => {
    const arg = args[i] ?? '';
    let out = '';
    let at = 0;
    for (const { start, end, url } of parts) {
      out += arg.slice(at, start) + (url ? redactUrl(arg.slice(start, end)) : REDACTED);
      at = end;
    }
    return out + arg.slice(at);
  });
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
