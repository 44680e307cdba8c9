// The checks of step 1 (the raw shape of a server entry), written by hand: a handful of kinds of
// value, each reporting every problem at its own path with a message made for the key as written.
// Reading mcp.json is what `epoch mcp list` does on every run, and loading a schema library costs
// more than the rest of that command together; these few shapes do not need one.
//
// A check's result has the shape of zod's safeParse (parseLenient takes either), and its issues
// carry the codes zod would give: `invalid_type`, `invalid_value`, `too_small`, `too_big`.
import type { LenientIssue, LenientSchema, PathSegment } from '@epoch-agent/infra';

type IssueCode = 'invalid_type' | 'invalid_value' | 'too_small' | 'too_big';

/** A message for the value that failed (never the value itself: it may be a secret). */
type Message = string | ((input: unknown) => string);

export interface Issues {
  readonly list: LenientIssue[];
  add(code: IssueCode, path: readonly PathSegment[], message: Message, input: unknown): void;
}

/** Checks `value` at `path`; the value to keep, or INVALID after adding its issues. */
export type Check<T> = (
  value: unknown,
  path: readonly PathSegment[],
  issues: Issues,
) => T | Invalid;

const INVALID: unique symbol = Symbol('invalid');
export type Invalid = typeof INVALID;

/** The type a check yields. */
export type Checked<C> = C extends Check<infer T> ? T : never;

/** `check` with zod's safeParse result, for parseLenient. */
export function lenient<T>(check: Check<T>): LenientSchema<T> {
  return {
    safeParse(value) {
      const list: LenientIssue[] = [];
      const issues: Issues = {
        list,
        add: (code, path, message, input) =>
          list.push({
            code,
            path: [...path],
            message: typeof message === 'string' ? message : message(input),
          }),
      };
      const result = check(value, [], issues);
      return result === INVALID || list.length > 0
        ? { success: false, error: { issues: list } }
        : { success: true, data: result };
    },
  };
}

export function text(message: Message, options: { readonly empty?: string } = {}): Check<string> {
  return (value, path, issues) => {
    if (typeof value !== 'string') return invalid(issues, 'invalid_type', path, message, value);
    if (options.empty !== undefined && value === '') {
      return invalid(issues, 'too_small', path, options.empty, value);
    }
    return value;
  };
}

export function flag(message: Message): Check<boolean> {
  return (value, path, issues) =>
    typeof value === 'boolean' ? value : invalid(issues, 'invalid_type', path, message, value);
}

/** `true`, `false` or `"auto"`: the three answers of a server's `defer`. */
export function deferral(message: Message): Check<boolean | 'auto'> {
  return (value, path, issues) =>
    typeof value === 'boolean' || value === 'auto'
      ? value
      : invalid(issues, 'invalid_type', path, message, value);
}

export function oneOf<const V extends readonly string[]>(
  values: V,
  message: Message,
): Check<V[number]> {
  return (value, path, issues) =>
    typeof value === 'string' && values.includes(value)
      ? (value as V[number])
      : invalid(issues, 'invalid_value', path, message, value);
}

export interface NumberRules {
  /** Whole numbers only. */
  readonly int?: string;
  /** More than this. */
  readonly gt?: readonly [number, string];
  /** At least this. */
  readonly min?: readonly [number, string];
  /** At most this. */
  readonly max?: readonly [number, string];
}

/** A finite number (NaN and the infinities are not a value anyone meant), checked by every rule. */
export function number(message: Message, rules: NumberRules = {}): Check<number> {
  return (value, path, issues) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return invalid(issues, 'invalid_type', path, message, value);
    }
    const before = issues.list.length;
    if (rules.int !== undefined && !Number.isSafeInteger(value)) {
      // A fraction ends the checks; a whole number too large to hold exactly goes on to `max`.
      if (!Number.isInteger(value)) return invalid(issues, 'invalid_type', path, rules.int, value);
      issues.add('too_big', path, rules.int, value);
    }
    if (rules.gt !== undefined && !(value > rules.gt[0])) {
      issues.add('too_small', path, rules.gt[1], value);
    }
    if (rules.min !== undefined && value < rules.min[0]) {
      issues.add('too_small', path, rules.min[1], value);
    }
    if (rules.max !== undefined && value > rules.max[0]) {
      issues.add('too_big', path, rules.max[1], value);
    }
    return issues.list.length > before ? INVALID : value;
  };
}

/** A list whose every entry passes `entry`; each bad entry is reported at its index. */
export function list<T>(entry: Check<T>, message: Message): Check<T[]> {
  return (value, path, issues) => {
    if (!Array.isArray(value)) return invalid(issues, 'invalid_type', path, message, value);
    const out: T[] = [];
    let ok = true;
    value.forEach((item, index) => {
      const checked = entry(item, [...path, index], issues);
      if (checked === INVALID) ok = false;
      else out.push(checked);
    });
    return ok ? out : INVALID;
  };
}

/** An object of string keys whose every value passes `entry`; each bad one reported at its key. */
export function stringMap<T>(entry: Check<T>, message: Message): Check<Record<string, T>> {
  return (value, path, issues) => {
    if (!isPlainObject(value)) return invalid(issues, 'invalid_type', path, message, value);
    const out: Record<string, T> = {};
    let ok = true;
    for (const [key, item] of Object.entries(value)) {
      const checked = entry(item, [...path, key], issues);
      if (checked === INVALID) ok = false;
      else out[key] = checked;
    }
    return ok ? out : INVALID;
  };
}

/**
 * An object with these optional fields, checked in the order given (so its problems are reported
 * in that order). Other keys are dropped, or kept as they are with `keepOthers`; a field whose
 * value is undefined counts as absent.
 */
export function shape<F extends { readonly [key: string]: Check<unknown> }>(
  fields: F,
  options: { readonly message?: Message; readonly keepOthers?: boolean } = {},
): Check<{ -readonly [K in keyof F]?: Checked<F[K]> }> {
  const message = options.message ?? 'expected an object';
  return (value, path, issues) => {
    if (!isPlainObject(value)) return invalid(issues, 'invalid_type', path, message, value);
    const out: Record<string, unknown> = options.keepOthers ? { ...value } : {};
    let ok = true;
    for (const [key, check] of Object.entries(fields)) {
      const item = value[key];
      if (item === undefined) continue;
      const checked = check(item, [...path, key], issues);
      if (checked === INVALID) ok = false;
      else out[key] = checked;
    }
    return ok ? (out as { [K in keyof F]?: Checked<F[K]> }) : INVALID;
  };
}

function invalid(
  issues: Issues,
  code: IssueCode,
  path: readonly PathSegment[],
  message: Message,
  input: unknown,
): Invalid {
  issues.add(code, path, message, input);
  return INVALID;
}

// JSON only makes plain objects; an embedding host's entries might hold a Date or a class instance,
// which is not a map of fields.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
