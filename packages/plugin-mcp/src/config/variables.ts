// `${VAR}` and `${VAR:-default}` in the values of a file's server entry: reading them (a malformed
// one is the loader's error), the variables an entry uses, and expanding them from an environment.
//
// Written in `command`, `args`, `env`, `cwd`, `url` and `headers` values. `$$` is a `$`; any other
// `$` is itself, so `$HOME` (no braces) stays as written, as it always has. Expansion happens when
// the server starts (connection/start-config.ts), never when the file is read: `epoch mcp list`
// and `get` need none of the variables.
import { assertNever, type McpServerConfig, type McpVariableUse } from '../types.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'variable'; readonly name: string; readonly default?: string };

export type Template =
  | { readonly ok: true; readonly parts: readonly Part[] }
  /** `offset`: where the bad `${` starts in the value. */
  | { readonly ok: false; readonly offset: number; readonly problem: string };

/** `text` read as a template. */
export function parseTemplate(text: string): Template {
  const parts: Part[] = [];
  let literal = '';
  let at = 0;
  while (at < text.length) {
    const dollar = text.indexOf('$', at);
    if (dollar === -1) break;
    literal += text.slice(at, dollar);
    const next = text[dollar + 1];
    if (next === '$') {
      literal += '$';
      at = dollar + 2;
      continue;
    }
    if (next !== '{') {
      literal += '$';
      at = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close === -1) {
      return { ok: false, offset: dollar, problem: `has a "\${" that no "}" closes` };
    }
    const inside = text.slice(dollar + 2, close);
    const split = inside.indexOf(':-');
    const name = split === -1 ? inside : inside.slice(0, split);
    if (!NAME.test(name)) {
      return {
        ok: false,
        offset: dollar,
        problem: `has "\${${inside}}", which is not a variable: write \${NAME} or \${NAME:-default}, NAME being letters, digits and _ (not starting with a digit)`,
      };
    }
    const fallback = split === -1 ? undefined : inside.slice(split + 2);
    if (fallback?.includes('${') === true) {
      // `${A:-${B}}`: a shell would expand B; read as written, the default would be the text
      // "${B" and a stray "}". Refused whole rather than passed on half-read.
      const whole = text.slice(dollar, closingBrace(text, dollar) + 1);
      return {
        ok: false,
        offset: dollar,
        problem: `has "${whole}", a default that holds another variable, which is not supported: write a plain default (\${${name}:-value}), or set ${name}`,
      };
    }
    if (literal !== '') parts.push({ kind: 'text', text: literal });
    literal = '';
    parts.push(
      fallback === undefined
        ? { kind: 'variable', name }
        : { kind: 'variable', name, default: fallback },
    );
    at = close + 1;
  }
  literal += text.slice(at);
  if (literal !== '') parts.push({ kind: 'text', text: literal });
  return { ok: true, parts };
}

/** Where the `}` that closes the `${` at `dollar` is, nested ones counted; the text's end if none. */
function closingBrace(text: string, dollar: number): number {
  let depth = 0;
  for (let at = dollar + 1; at < text.length; at++) {
    if (text[at] === '{') depth += 1;
    else if (text[at] === '}' && --depth === 0) return at;
  }
  return text.length - 1;
}

/** One value of an entry that may hold variables, and its path in the entry (`env.API_KEY`). */
export interface TemplatedValue {
  readonly path: readonly (string | number)[];
  readonly text: string;
}

/** The values of an entry (or config) where `${VAR}` is read, by transport. */
export function templatedValues(
  fields: {
    readonly command?: string | undefined;
    readonly args?: readonly string[] | undefined;
    readonly env?: Readonly<Record<string, string>> | undefined;
    readonly cwd?: string | undefined;
    readonly url?: string | undefined;
    readonly headers?: Readonly<Record<string, string>> | undefined;
  },
  transport: McpServerConfig['transport'],
): TemplatedValue[] {
  const one = (key: string, text: string | undefined): TemplatedValue[] =>
    text === undefined ? [] : [{ path: [key], text }];
  const map = (key: string, values: Readonly<Record<string, string>> | undefined) =>
    Object.entries(values ?? {}).map(([name, text]) => ({ path: [key, name], text }));
  switch (transport) {
    case 'stdio':
      return [
        ...one('command', fields.command),
        ...(fields.args ?? []).map((text, i) => ({ path: ['args', i], text })),
        ...map('env', fields.env),
        ...one('cwd', fields.cwd),
      ];
    case 'sse':
    case 'http':
      return [...one('url', fields.url), ...map('headers', fields.headers)];
    default:
      return assertNever(transport, 'transport');
  }
}

/** `env.API_KEY`, `args[2]`: a value's path as messages and `McpVariableUse.field` write it. */
export function fieldPath(path: readonly (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Every variable the values use, in the order written (a variable used twice is listed twice). */
export function variableUses(values: readonly TemplatedValue[]): McpVariableUse[] {
  return values.flatMap(({ path, text }) => {
    const template = parseTemplate(text);
    if (!template.ok) return [];
    return template.parts.flatMap((part): McpVariableUse[] =>
      part.kind === 'variable'
        ? [
            {
              name: part.name,
              field: fieldPath(path),
              ...(part.default === undefined ? {} : { default: part.default }),
            },
          ]
        : [],
    );
  });
}

/** The environment variables are read from: `process.env`, or a test's. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * A variable's value as `${NAME:-default}` takes it: an empty value counts as unset when there is
 * a default (as in a shell), and is the value itself when there is none.
 */
export function variableValue(use: Pick<McpVariableUse, 'name' | 'default'>, env: Environment) {
  const value = env[use.name];
  if (use.default !== undefined && (value === undefined || value === '')) return use.default;
  return value;
}

/** Whether the environment gives the variable a value of its own (not its default). */
export function isVariableSet(use: Pick<McpVariableUse, 'name' | 'default'>, env: Environment) {
  const value = env[use.name];
  return value !== undefined && (use.default === undefined || value !== '');
}

export type Expanded =
  | {
      readonly ok: true;
      readonly text: string;
      /** The values the environment gave: secrets from now on (a default is written in the file). */
      readonly values: readonly string[];
    }
  | { readonly ok: false; readonly unset: string };

/** `text` with its variables replaced and `$$` unescaped; the first variable unset without a default. */
export function expandText(text: string, env: Environment): Expanded {
  const template = parseTemplate(text);
  // The loader refused malformed values, so only a config built in code could get here with one.
  if (!template.ok) return { ok: true, text, values: [] };
  let out = '';
  const values: string[] = [];
  for (const part of template.parts) {
    if (part.kind === 'text') {
      out += part.text;
      continue;
    }
    const value = variableValue(part, env);
    if (value === undefined) return { ok: false, unset: part.name };
    out += value;
    if (value !== part.default) values.push(value);
  }
  return { ok: true, text: out, values };
}
