// Which values of a server's config are secrets, field by field: the rules both printers of
// config (redact.ts) and the text redaction policy (redactor.ts) follow, so that what `epoch mcp
// list` hides and what is blanked out of a server's stderr can never drift apart.

/**
 * How sure we are that a value is a credential, which decides how short a value is still looked
 * for in free text (MIN_SECRET_LENGTH in redactor.ts).
 * - `credential`: its field says so: a header or variable named like a credential, the value of a
 *   `--token` option, `Bearer ...`, a URL's password, an OAuth client secret, key or token.
 * - `setting`: a value under a neutral name (LOG_LEVEL, a query parameter) that may still be a
 *   key: environment and headers carry both.
 */
export type SecretKind = 'credential' | 'setting';

export interface Secret {
  readonly value: string;
  readonly kind: SecretKind;
}

const CREDENTIAL_NAME = new RegExp(
  [
    'token|secret|passw(?:or)?d|pwd|authorization|bearer|api[-_]?key|private[-_]?key|credential',
    'cookie',
    // Whole words only, since they are common parts of names: OPENAI_KEY, DB_PASS, GITHUB_PAT,
    // X-Auth (not "monkey", "passthrough" or "oauth").
    '(?:^|[-_.])(?:key|pass|pat|auth)(?:$|[-_.])',
  ].join('|'),
  'i',
);

/** A field, variable, header or option name that says its value is a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** Values a field holds as credentials by nature (OAuth secrets, keys, tokens); absent ones skipped. */
export function credentials(values: Iterable<string | undefined>): Secret[] {
  const out: Secret[] = [];
  for (const value of values) if (value !== undefined) out.push({ value, kind: 'credential' });
  return out;
}

/**
 * Header values: a credential-named header's value is a credential, and so is its part after
 * the auth scheme (`Bearer sk-1` also hides a bare `sk-1`); other headers' values are settings.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): Secret[] {
  return Object.entries(headers).flatMap(([name, value]): Secret[] =>
    isCredentialName(name) ? withScheme(value) : [{ value, kind: 'setting' }],
  );
}

/** A credential, and its part after an auth scheme (`Bearer sk-1` also hides a bare `sk-1`). */
function withScheme(value: string): Secret[] {
  // RFC 7235: the scheme, spaces, then the credential, exactly as it follows them.
  return credentials([value, /^[A-Za-z][\w.-]*[ \t]+(.+)$/s.exec(value)?.[1]]);
}

/**
 * Environment values. A URL is an address: only its credential parts are secrets. An absolute
 * path names a place, not a credential, and blanking it would hide the file names of every error
 * a server prints. Anything else under a neutral name (LOG_LEVEL=warn) is a setting.
 */
export function envSecrets(env: Readonly<Record<string, string>>): Secret[] {
  return Object.entries(env).flatMap(([name, value]): Secret[] => {
    if (isCredentialName(name)) return [{ value, kind: 'credential' }, ...urlSecrets(value)];
    if (URL_START.test(value)) return urlSecrets(value);
    if (ABSOLUTE_PATH.test(value)) return [];
    return [{ value, kind: 'setting' }];
  });
}

const URL_START = /^[a-z][a-z\d+.-]*:\/\//i;
const ABSOLUTE_PATH = /^(?:~?\/|[A-Za-z]:[\\/])/;

/**
 * A URL's credential parts, the same ones redactUrl() blanks: the password of its userinfo (the
 * user name when there is no password), every query value, the fragment. Each as written and
 * percent-decoded, since a server may print either. A query value is a credential when its key
 * names one (`?api_key=`), else a setting. Text that is not a URL has none.
 */
export function urlSecrets(url: string): Secret[] {
  return urlParts(url).flatMap(({ start, end, kind }) => {
    const raw = url.slice(start, end);
    return [{ value: raw, kind }, ...decoded(raw).map((value) => ({ value, kind }))];
  });
}

interface Part {
  readonly start: number;
  readonly end: number;
  readonly kind: SecretKind;
}

function urlParts(url: string): Part[] {
  const scheme = URL_START.exec(url);
  if (scheme === null) return [];
  const parts: Part[] = [];
  const authorityStart = scheme[0].length;
  const authorityEnd = firstOf(url, '/?#', authorityStart);
  const at = url.lastIndexOf('@', authorityEnd - 1);
  if (at >= authorityStart) {
    const colon = url.indexOf(':', authorityStart);
    const hasPassword = colon >= 0 && colon + 1 < at;
    // A user name next to a password is a name; alone it is a token (https://<token>@host, or
    // https://<key>:@host).
    const end = colon >= 0 && colon < at ? colon : at;
    parts.push(
      hasPassword
        ? { start: colon + 1, end: at, kind: 'credential' }
        : { start: authorityStart, end, kind: 'credential' },
    );
  }
  const hash = url.indexOf('#', authorityEnd);
  const queryEnd = hash < 0 ? url.length : hash;
  const question = url.indexOf('?', authorityEnd);
  if (question >= 0 && question < queryEnd) {
    let start = question + 1;
    while (start <= queryEnd) {
      const end = firstOf(url, '&', start, queryEnd);
      const equals = url.indexOf('=', start);
      if (equals >= 0 && equals < end) {
        const key = url.slice(start, equals);
        const kind = isCredentialName(key) ? 'credential' : 'setting';
        parts.push({ start: equals + 1, end, kind });
      }
      start = end + 1;
    }
  }
  if (hash >= 0) parts.push({ start: hash + 1, end: url.length, kind: 'credential' });
  return parts.filter((part) => part.end > part.start);
}

/** The index of the first of `chars` in `text` from `from`, or `limit` (the text's end). */
function firstOf(text: string, chars: string, from: number, limit = text.length): number {
  for (let i = from; i < limit; i++) if (chars.includes(text[i] ?? '')) return i;
  return limit;
}

/** `raw` percent-decoded, and decoded as a form value (`+` is a space), where that differs. */
function decoded(raw: string): string[] {
  const forms = new Set([decode(raw), decode(raw.replaceAll('+', ' '))]);
  return [...forms].filter((form): form is string => form !== undefined && form !== raw);
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The credentials in a command line: the value of an option named like a credential, attached
 * (`--api-key=sk-1`) or the next argument (`--token sk-1`); a `NAME=value` or `Name: value`
 * argument (docker's `-e API_KEY=...`, mcp-remote's `--header "Authorization: Bearer ..."`)
 * whose name is one; the token after `Bearer` or `Basic`; the credential parts of a URL.
 */
export function argSecrets(args: readonly string[]): Secret[] {
  return scanArgs(args).flatMap((found, i) => {
    const arg = args[i] ?? '';
    return found.flatMap((part): Secret[] =>
      part.url ? urlSecrets(arg.slice(part.start)) : withScheme(arg.slice(part.start, part.end)),
    );
  });
}

/** What of one argument is a credential: a span of it, or the URL that starts there. */
export interface ArgPart {
  readonly start: number;
  readonly end: number;
  /** The rest of the argument from `start` is a URL with credential parts (see urlSecrets). */
  readonly url: boolean;
}

/** For each argument, its credential parts (see argSecrets), sorted and not overlapping. */
export function scanArgs(args: readonly string[]): ArgPart[][] {
  let nextIsSecret = false;
  return args.map((arg) => {
    if (nextIsSecret) {
      nextIsSecret = false;
      return arg === '' ? [] : [{ start: 0, end: arg.length, url: false }];
    }
    const option = /^(--?[^=\s]+)(=.*)?$/s.exec(arg);
    const name = option?.[1];
    if (name === undefined) return scanValue(arg, 0);
    if (option?.[2] === undefined) {
      nextIsSecret = isCredentialName(name);
      return [];
    }
    const start = name.length + 1;
    if (!isCredentialName(name)) return scanValue(arg, start);
    return start < arg.length ? [{ start, end: arg.length, url: false }] : [];
  });
}

function scanValue(arg: string, start: number): ArgPart[] {
  const value = arg.slice(start);
  if (URL_START.test(value)) {
    return urlParts(value).length > 0 ? [{ start, end: arg.length, url: true }] : [];
  }
  const named = /^([A-Za-z_][\w.-]*)(=|:[ \t]*)(.+)$/s.exec(value);
  if (named?.[1] !== undefined && named[2] !== undefined && isCredentialName(named[1])) {
    return [{ start: start + named[1].length + named[2].length, end: arg.length, url: false }];
  }
  const parts: ArgPart[] = [];
  for (const match of value.matchAll(/\b(?:Bearer|Basic)\s+([^\s"'`,;]+)/gi)) {
    const token = match[1] ?? '';
    const end = start + (match.index ?? 0) + match[0].length;
    parts.push({ start: end - token.length, end, url: false });
  }
  return parts;
}
