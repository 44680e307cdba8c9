// Problems found in a user's input, reported instead of thrown: every one names the file, the field
// and the place in the text, so a person can go straight to it.

export type Severity = 'error' | 'warning';

/** 1-based, as editors show them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export type PathSegment = string | number;

export interface Diagnostic extends Position {
  readonly severity: Severity;
  /** Stable identifier of the kind of problem; decide on this, never on `message`. */
  readonly code: string;
  readonly file: string;
  /**
   * Field path as a person reads it: `servers.github.connect_timeout`, `servers.fs.args[1]`,
   * `servers["my.server"].url`.
   */
  readonly path: string;
  readonly message: string;
}

// A key that is not a plain word (a server named `my.server`) is quoted, so the path stays
// unambiguous: `servers["my.server"].timeout`, not `servers.my.server.timeout`.
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (!PLAIN_KEY.test(segment)) out += `[${JSON.stringify(segment)}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** `file:line:column: severity: path: message`, the shape compilers print and editors link. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path ? `${d.path}: ` : '';
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${where}${d.message}`;
}

/** Where a value came from: its file, its path there, and how to find a path's text position. */
export interface Site {
  readonly file: string;
  readonly path: readonly PathSegment[];
  readonly locate: (path: readonly PathSegment[]) => Position;
}

export type LenientResult<T> =
  | { readonly ok: true; readonly value: T; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** One problem a schema found: what kind (its `code`), at which path inside the value, and why. */
export interface LenientIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * What parseLenient validates with: a zod schema, or anything with the same `safeParse` (a
 * hand-written check that need not load a schema library).
 */
export interface LenientSchema<T> {
  safeParse(
    value: unknown,
  ):
    | { readonly success: true; readonly data: T }
    | { readonly success: false; readonly error: { readonly issues: readonly LenientIssue[] } };
}

/**
 * Validates `value` with `schema` and turns every issue into an error diagnostic at its own field,
 * instead of throwing on the first. Callers decide what a failed value means (usually: leave that
 * one item out and keep the rest).
 */
export function parseLenient<T>(
  schema: LenientSchema<T>,
  value: unknown,
  where: Site,
): LenientResult<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data, diagnostics: [] };
  const diagnostics = result.error.issues.map((issue): Diagnostic => {
    const path = [...where.path, ...issue.path.map(toSegment)];
    return {
      severity: 'error',
      code: issue.code,
      file: where.file,
      path: formatPath(path),
      message: issue.message,
      ...where.locate(path),
    };
  });
  return { ok: false, diagnostics };
}

function toSegment(key: PropertyKey): PathSegment {
  return typeof key === 'number' ? key : String(key);
}
