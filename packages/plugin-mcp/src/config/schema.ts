// What one server entry of mcp.json may say: the field table (both spellings), and step 1 of
// reading an entry, the raw shape (check.ts).
//
// Step 1 checks every field where it is written (`connectTimeout` is reported as `connectTimeout`),
// warns about keys that are not fields, then folds the two spellings of a field into one. Step 2,
// the transport and the config it becomes, is server.ts.
import { type Diagnostic, groupedNumber, parseLenient } from '@epoch-agent/infra';
import {
  MCP_LOG_LEVELS,
  type McpElicitationSetting,
  type McpTaskCalls,
  type McpTransportKind,
} from '../types.js';
import {
  type Check,
  type Checked,
  deferral,
  flag,
  lenient,
  list,
  number,
  oneOf,
  shape,
  stringMap,
  text,
} from './check.js';
import { oauthSchema } from './oauth.js';
import { MAX_OUTPUT_TOKENS_LIMIT } from './output-tokens.js';
import { type EntryScope, type McpConfigDiagnosticCode, reporter, type Where } from './report.js';
import type { McpStartMode } from './start.js';
import { suggest } from './suggest.js';

const ALL: readonly McpTransportKind[] = ['stdio', 'sse', 'http'];
const STDIO: readonly McpTransportKind[] = ['stdio'];
const REMOTE: readonly McpTransportKind[] = ['sse', 'http'];

// setTimeout waits at most 2^31-1 ms; a longer delay fires at once, so longer times are refused.
const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export const TRANSPORT_VALUES = ['stdio', 'sse', 'http', 'streamable', 'streamable-http'] as const;
export type TransportValue = (typeof TRANSPORT_VALUES)[number];

const ELICITATION_VALUES = ['ask', 'decline'] as const satisfies readonly McpElicitationSetting[];
const START_VALUES = ['at_start', 'on_demand'] as const satisfies readonly McpStartMode[];
const TASK_CALLS_VALUES = ['required', 'offered'] as const satisfies readonly McpTaskCalls[];

// One factory per kind of field: given the key as written, a check whose messages name that key.
// No message repeats the value it rejects: env and header values (and URLs) carry secrets.
const kind = {
  transport: (key: string) =>
    oneOf(
      TRANSPORT_VALUES,
      `${key} must be "stdio", "sse" or "http" ("streamable" and "streamable-http" also mean http)`,
    ),
  flag: (key: string) =>
    flag((input) => `${key} must be true or false, without quotes (got ${describe(input)})`),
  text: (key: string) => text((input) => `${key} must be a string (got ${describe(input)})`),
  textList: (key: string) =>
    list(
      text((input) => `every entry of ${key} must be a string; quote it (got ${describe(input)})`),
      (input) =>
        `${key} must be a list of strings, e.g. "${key}": ["-y", "some-package"] (got ${describe(input)})`,
    ),
  secretMap: (key: string) =>
    stringMap(
      text((input) => `every value in ${key} must be a string; quote it (got ${describe(input)})`),
      (input) =>
        `${key} must be an object of string values, e.g. "${key}": { "NAME": "value" } (got ${describe(input)})`,
    ),
  positiveSeconds: (key: string) =>
    number(
      (input) => `${key} must be a number of seconds, e.g. "${key}": 30 (got ${describe(input)})`,
      {
        gt: [0, `${key} must be more than 0 seconds (fractions such as 0.5 are fine)`],
        max: [MAX_SECONDS, `${key} must be at most ${MAX_SECONDS} seconds (about 24 days)`],
      },
    ),
  helper: (key: string) =>
    list(
      text(
        (input) =>
          `every entry of ${key} must be a string: one word of the command; quote it (got ${describe(input)})`,
      ),
      (input) =>
        `${key} must be a command as a list of words, run without a shell, e.g. "${key}": ["gcloud", "auth", "print-access-token", "--format=json"] (got ${describe(input)})`,
    ),
  toolList: (key: string) =>
    list(
      text(
        (input) =>
          `every entry of ${key} must be a tool name as a string; quote it (got ${describe(input)})`,
      ),
      (input) =>
        `${key} must be a list of tool names, e.g. "${key}": ["delete_*", "write_file"] (got ${describe(input)})`,
    ),
  tokens: (key: string) =>
    number(
      (input) =>
        `${key} must be a whole number of tokens, e.g. "${key}": 25000 (got ${describe(input)})`,
      {
        int: `${key} must be a whole number of tokens, without a fraction`,
        min: [1, `${key} must be at least 1 token`],
        max: [
          MAX_OUTPUT_TOKENS_LIMIT,
          `${key} must be at most ${groupedNumber(MAX_OUTPUT_TOKENS_LIMIT)} tokens`,
        ],
      },
    ),
  defer: (key: string) =>
    deferral(
      (input) =>
        `${key} must be true, false or "auto": whether the server's tools are found on demand instead of offered one by one (got ${describe(input)})`,
    ),
  elicitation: (key: string) =>
    oneOf(
      ELICITATION_VALUES,
      `${key} must be "ask" (a server's questions go to you) or "decline" (they are declined unasked)`,
    ),
  taskCalls: (key: string) =>
    oneOf(
      TASK_CALLS_VALUES,
      `${key} must be "required" (a tool is called as a task when it requires it) or "offered" (also when it only offers it)`,
    ),
  start: (key: string) =>
    oneOf(
      START_VALUES,
      `${key} must be "at_start" (started with the others) or "on_demand" (started at its first tool call, its tools offered from the last time it ran until then)`,
    ),
  logLevel: (key: string) =>
    oneOf(
      MCP_LOG_LEVELS,
      `${key} must be one of ${MCP_LOG_LEVELS.map((level) => `"${level}"`).join(', ')}: the least severe of the server's log messages to ask for`,
    ),
  seconds: (key: string) =>
    number(
      (input) => `${key} must be a number of seconds, e.g. "${key}": 30 (got ${describe(input)})`,
      {
        min: [0, `${key} cannot be negative; 0 turns it off`],
        max: [
          MAX_SECONDS,
          `${key} must be at most ${MAX_SECONDS} seconds (about 24 days); 0 turns it off`,
        ],
      },
    ),
};

/**
 * The fields of a server entry, by their snake_case name (as the README's table under "mcp.json"
 * writes them), and who reads them.
 */
export const FIELDS = {
  transport: { kind: kind.transport, transports: ALL },
  type: { kind: kind.transport, transports: ALL },
  command: { kind: kind.text, transports: STDIO },
  args: { kind: kind.textList, transports: STDIO },
  env: { kind: kind.secretMap, transports: STDIO },
  cwd: { kind: kind.text, transports: STDIO },
  env_file: { kind: kind.text, transports: STDIO },
  url: { kind: kind.text, transports: REMOTE },
  streamable: { kind: kind.flag, transports: REMOTE },
  headers: { kind: kind.secretMap, transports: REMOTE },
  headers_helper: { kind: kind.helper, transports: REMOTE },
  oauth: { kind: oauthSchema, transports: REMOTE },
  timeout: { kind: kind.positiveSeconds, transports: ALL },
  max_total_timeout: { kind: kind.positiveSeconds, transports: ALL },
  connect_timeout: { kind: kind.positiveSeconds, transports: ALL },
  keepalive_interval: { kind: kind.seconds, transports: ALL },
  idle_timeout_seconds: { kind: kind.seconds, transports: ALL },
  max_lifetime_seconds: { kind: kind.seconds, transports: ALL },
  supports_parallel: { kind: kind.flag, transports: ALL },
  skip_preflight: { kind: kind.flag, transports: ALL },
  enabled: { kind: kind.flag, transports: ALL },
  disabled: { kind: kind.flag, transports: ALL },
  include_tools: { kind: kind.toolList, transports: ALL },
  exclude_tools: { kind: kind.toolList, transports: ALL },
  max_output_tokens: { kind: kind.tokens, transports: ALL },
  defer: { kind: kind.defer, transports: ALL },
  pin_tools: { kind: kind.flag, transports: ALL },
  elicitation: { kind: kind.elicitation, transports: ALL },
  start: { kind: kind.start, transports: ALL },
  log_level: { kind: kind.logLevel, transports: ALL },
  task_calls: { kind: kind.taskCalls, transports: ALL },
} as const;

/** A server entry's field by its snake_case name (`type` and `disabled` are fields of their own: aliases). */
export type FieldName = keyof typeof FIELDS;
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type FieldValue<F extends FieldName> = Checked<ReturnType<(typeof FIELDS)[F]['kind']>>;
/** A server entry after step 1: each field once, by its snake_case name. */
export type Fields = { readonly [F in FieldName]?: FieldValue<F> };

/**
 * One entry of `servers` as written, in either spelling (`connect_timeout` or `connectTimeout`):
 * what an embedding host passes in code. Typed so a host's mistakes fail to compile; still
 * validated when read, like a file's entries.
 */
export type McpServerEntry = {
  readonly [F in FieldName as F | CamelCase<F>]?: FieldValue<F>;
};

export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

export function camelCase<S extends string>(name: S): CamelCase<S> {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<S>;
}

export interface McpConfigField {
  /** In snake_case, as the README's table under "mcp.json" writes it. */
  readonly name: FieldName;
  /** The same field in camelCase; equal to `name` for one-word fields. */
  readonly camelCase: string;
  /** The transports it applies to; on any other it is ignored with a warning. */
  readonly transports: readonly McpTransportKind[];
}

/** Every field a server entry may have (for completion, help text and docs); `type` is `transport`'s alias. */
export const MCP_CONFIG_FIELDS: readonly McpConfigField[] = FIELD_NAMES.map((name) => ({
  name,
  camelCase: camelCase(name),
  transports: FIELDS[name].transports,
}));

/**
 * The fields of an `overrides` entry: what the model gets from a plugin's or host's server, and
 * how. The server keeps every other setting its entry gives it.
 */
export const OVERRIDE_FIELDS = [
  'enabled',
  'disabled',
  'include_tools',
  'exclude_tools',
  'defer',
  'pin_tools',
  'elicitation',
  'start',
] as const satisfies readonly FieldName[];

const SCOPE_FIELDS: Record<EntryScope, readonly FieldName[]> = {
  servers: FIELD_NAMES,
  overrides: OVERRIDE_FIELDS,
};

/** Every key an entry of the scope may have, in both spellings, and the field each one is. */
const SPELLINGS: Record<EntryScope, ReadonlyMap<string, FieldName>> = {
  servers: spellingsOf(SCOPE_FIELDS.servers),
  overrides: spellingsOf(SCOPE_FIELDS.overrides),
};

function spellingsOf(fields: readonly FieldName[]): ReadonlyMap<string, FieldName> {
  return new Map(
    fields.flatMap((name) => [
      [name, name],
      [camelCase(name), name],
    ]),
  );
}

// Step 1's shape: every spelling optional, unknown keys dropped (they were reported already).
const RAW: Record<EntryScope, ReturnType<typeof rawShape>> = {
  servers: rawShape(SPELLINGS.servers),
  overrides: rawShape(SPELLINGS.overrides),
};

function rawShape(spellings: ReadonlyMap<string, FieldName>) {
  return lenient(
    shape(
      Object.fromEntries(
        [...spellings].map(([key, name]): [string, Check<unknown>] => [
          key,
          FIELDS[name].kind(key),
        ]),
      ),
    ),
  );
}

// The checks' issue codes are a schema library's; ours are public and stable, so they are
// translated in one place.
const SCHEMA_CODES: Readonly<Record<string, McpConfigDiagnosticCode>> = {
  invalid_type: 'invalid_type',
  too_small: 'out_of_range',
  too_big: 'out_of_range',
};

/**
 * Step 1 for the entry `<scope>.<name>`: its fields, each once under its snake_case name, or
 * undefined when a field has the wrong type or range (then `into` has the errors).
 */
export function readFields(
  name: string,
  value: unknown,
  where: Where,
  into: Diagnostic[],
  scope: EntryScope = 'servers',
): Fields | undefined {
  const report = reporter(where, name, into, scope);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    report(
      'error',
      'invalid_type',
      [],
      scope === 'servers'
        ? `server "${name}" must be an object of fields, e.g. { "command": "npx", "args": ["-y", "some-package"] } (got ${describe(value)})`
        : `"overrides" entry "${name}" must be an object, e.g. { "enabled": false } (got ${describe(value)})`,
    );
    return undefined;
  }

  const spellings = SPELLINGS[scope];
  for (const key of Object.keys(value)) {
    if (spellings.has(key)) continue;
    if (scope === 'overrides') {
      const guess = suggest(key, [...spellings.keys()]);
      report(
        'warning',
        'unknown_field',
        [key],
        SPELLINGS.servers.has(key)
          ? `"${key}" cannot be set in "overrides" and is ignored: the server "${name}" keeps the settings its plugin or host gives it. Here only ${OVERRIDE_FIELDS.join(', ')} can be set.`
          : `"${key}" is not a field of an "overrides" entry and is ignored. ${guess === undefined ? `The fields are: ${OVERRIDE_FIELDS.join(', ')}.` : `Did you mean "${guess}"?`}`,
        'key',
      );
      continue;
    }
    if (key === 'source') {
      // Where a server comes from is the caller's to say (connectAll(configs, source)): a file that
      // could set it could label its own server as injected by the host.
      report(
        'warning',
        'source_field',
        [key],
        '"source" is not a config field and has no effect: whether a server is user, host or plugin is set by the code that connects it, never by the file. Remove it.',
        'key',
      );
      continue;
    }
    const guess = suggest(key, [...spellings.keys()]);
    report(
      'warning',
      'unknown_field',
      [key],
      guess === undefined
        ? `"${key}" is not a server field and is ignored. The fields are: ${FIELD_NAMES.join(', ')} (camelCase spellings work too).`
        : `"${key}" is not a server field and is ignored. Did you mean "${guess}"?`,
      'key',
    );
  }

  const raw = parseLenient(RAW[scope], value, {
    file: where.file,
    path: [scope, name],
    locate: (path) => where.locator.value(path),
  });
  if (!raw.ok) {
    for (const d of raw.diagnostics) {
      into.push({ ...d, code: SCHEMA_CODES[d.code] ?? 'invalid_value' });
    }
    return undefined;
  }
  return foldSpellings(raw.value, SCOPE_FIELDS[scope], (field, camel) =>
    report(
      'warning',
      'duplicate_field',
      [camel],
      `"${camel}" and "${field}" are the same setting, given twice; "${field}" is used and "${camel}" is ignored. Remove one.`,
      'key',
    ),
  );
}

// Both spellings given: snake_case wins, the spelling the README's table under "mcp.json" uses.
/** camelCase of each field, made once: every entry of a file of 100,000 asks for all of them. */
const CAMEL = new Map<string, string>();

function camelOf(name: FieldName): string {
  let camel = CAMEL.get(name);
  if (camel === undefined) {
    camel = camelCase(name);
    CAMEL.set(name, camel);
  }
  return camel;
}

function foldSpellings(
  raw: Readonly<Record<string, unknown>>,
  names: readonly FieldName[],
  twice: (field: string, camel: string) => void,
): Fields {
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const camel = camelOf(name);
    const snakeValue = raw[name];
    const camelValue = camel === name ? undefined : raw[camel];
    if (snakeValue !== undefined && camelValue !== undefined) twice(name, camel);
    const chosen = snakeValue ?? camelValue;
    if (chosen !== undefined) fields[name] = chosen;
  }
  return fields as Fields;
}

/** What a value is, without saying what it holds. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number')
    return Number.isFinite(value) ? 'a number' : 'a number too large to use';
  if (typeof value === 'boolean') return 'true/false';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'object' ? 'an object' : typeof value;
}
