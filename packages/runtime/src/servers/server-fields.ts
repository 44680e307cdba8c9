// Every field of one server as it takes effect — written, defaulted or inferred — and where in which
// file it was written (for a plugin's or host's server, the user's `overrides` of its choice too):
// what `epoch mcp get <name>` shows. Values are safe to print: env and header
// values, credential-looking arguments, URL credentials and OAuth secrets are redacted.
import type { Position } from '@epoch-agent/infra';
import { REDACTED, redact, redactArgs, redactUrl } from '@epoch-agent/infra';
import type { McpConfigFieldName, McpServerConfig, McpServerSource } from '@epoch-agent/plugin-mcp';
import {
  DEFAULT_LOG_LEVEL,
  DEFAULT_MAX_OUTPUT_TOKENS,
  elicitationOf,
  idleTimeoutOf,
  isVariableSet,
  MCP_CONFIG_FIELDS,
  OVERRIDE_FIELDS,
  startOf,
} from '@epoch-agent/plugin-mcp/config';
import type { ConfiguredServer } from './configured-server.js';
import { FRONT_END_START } from './start-default.js';

/** Where a field's value comes from. */
export type ServerFieldSource =
  /** Written in the file, at the key as written (`connectTimeout`, `type`). */
  | ({ readonly kind: 'file'; readonly key: string } & Position)
  /**
   * Written in the user's `overrides` of this plugin's or host's server, in the user's mcp.json:
   * `enabled` and `include_tools` there replace the entry's own, `exclude_tools` adds to it.
   */
  | ({ readonly kind: 'override'; readonly file: string; readonly key: string } & Position)
  /** Given in the host's code: there is no file to point into. */
  | { readonly kind: 'host' }
  /** Not written: the documented default. */
  | { readonly kind: 'default' }
  /** Not written: the transport, inferred from whether there is a `url`. */
  | { readonly kind: 'inferred' };

export interface ServerField {
  /** Snake_case, as the field table names it. */
  readonly field: McpConfigFieldName;
  /**
   * As it takes effect, safe to print; times in seconds, as the file writes them. A value holding
   * a `${VAR}` is shown as written (`Bearer ${TOKEN}`): its secret is in the environment.
   */
  readonly value: unknown;
  readonly from: ServerFieldSource;
  /** The `${VAR}`s written in the field, each with whether it is set now; absent when none. */
  readonly variables?: readonly ServerFieldVariable[];
}

/** One `${VAR}` of a field: never its value, only whether the environment sets it now. */
export interface ServerFieldVariable {
  readonly name: string;
  /** The value it is in: `args[1]`, `env.API_KEY`, `headers.Authorization`. */
  readonly in: string;
  /** Set (and not empty, when it has a default) in the environment of this process. */
  readonly set: boolean;
  /** Written in the file: what it expands to when the variable is not set. */
  readonly default?: string;
}

export interface ServerFields {
  /** The entry's key in its file; undefined for a host server. */
  readonly at: ({ readonly file: string } & Position) | undefined;
  /** The fields of its transport, in the field table's order. */
  readonly fields: readonly ServerField[];
}

const seconds = (ms: number) => ms / 1000;

type AliasedField = 'transport' | 'enabled';

// One row per field, or the field whose row it shares: `type` and `streamable` are ways of writing
// `transport`, `disabled` one of writing `enabled`. A Record, so a field added to the table without
// a row here fails to compile. `source`: a default that depends on who brought the server.
const ROWS: Record<
  McpConfigFieldName,
  | ((config: McpServerConfig, source: McpServerSource) => unknown)
  | { readonly sameAs: AliasedField }
> = {
  transport: (c) => c.transport,
  type: { sameAs: 'transport' },
  streamable: { sameAs: 'transport' },
  command: (c) => (c.transport === 'stdio' ? c.command : undefined),
  args: (c) =>
    c.transport === 'stdio'
      ? redactArgs(c.args).map((arg, i) => (written(c, `args[${i}]`) ? (c.args[i] ?? arg) : arg))
      : undefined,
  env: (c) => (c.transport === 'stdio' ? secretMap(c, 'env', c.env) : undefined),
  cwd: (c) => (c.transport === 'stdio' ? c.cwd : undefined),
  env_file: (c) => (c.transport === 'stdio' ? c.envFile : undefined),
  url: (c) => (c.transport === 'stdio' ? undefined : redactUrl(c.url)),
  headers: (c) => (c.transport === 'stdio' ? undefined : secretMap(c, 'headers', c.headers)),
  headers_helper: (c) =>
    c.transport === 'stdio' || c.headersHelper === undefined
      ? undefined
      : redactArgs(c.headersHelper),
  oauth: (c) => (c.transport === 'stdio' ? undefined : redact(c.oauth)),
  timeout: (c) => seconds(c.timeoutMs),
  max_total_timeout: (c) => seconds(c.maxTotalTimeoutMs),
  connect_timeout: (c) => seconds(c.connectTimeoutMs),
  keepalive_interval: (c) => seconds(c.keepaliveIntervalMs),
  // As the `epoch` command's runtime has it (servers start with it unless they say on_demand).
  idle_timeout_seconds: (c) => seconds(idleTimeoutOf(c, FRONT_END_START)),
  max_lifetime_seconds: (c) => seconds(c.maxLifetimeMs),
  supports_parallel: (c) => c.supportsParallel,
  skip_preflight: (c) => c.skipPreflight,
  enabled: (c) => c.choice.enabled,
  disabled: { sameAs: 'enabled' },
  include_tools: (c) => c.choice.includeTools?.map(({ pattern }) => pattern),
  exclude_tools: (c) => c.choice.excludeTools.map(({ pattern }) => pattern),
  // The default as this command's runtime has it; a host that sets another knows it set one.
  max_output_tokens: (c) => c.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
  defer: (c) => c.defer,
  pin_tools: (c) => c.pinTools ?? true,
  elicitation: (c, source) => elicitationOf(c, source),
  start: (c) => startOf(c, FRONT_END_START),
  log_level: (c) => c.logLevel ?? DEFAULT_LOG_LEVEL,
  task_calls: (c) => c.taskCalls ?? 'required',
};

/** Whether the value at `field` (`args[1]`, `env.KEY`) holds a `${VAR}`: then it is shown as written. */
function written(config: McpServerConfig, field: string): boolean {
  let fields = templatedFields.get(config);
  if (fields === undefined) {
    fields = new Set(config.variables?.map((use) => use.field));
    templatedFields.set(config, fields);
  }
  return fields.has(field);
}

/** The fields holding a `${VAR}`, by config: asked once per env value, of thousands. */
const templatedFields = new WeakMap<McpServerConfig, ReadonlySet<string>>();

/** Env or header values: each hidden, but one holding a `${VAR}` shown as written. */
function secretMap(
  config: McpServerConfig,
  field: 'env' | 'headers',
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      written(config, `${field}.${key}`) ? value : REDACTED,
    ]),
  );
}

/** The variables written in `field`'s values, each with whether it is set in `env` now. */
function variablesOf(
  config: McpServerConfig,
  field: McpConfigFieldName,
  env: Readonly<Record<string, string | undefined>>,
): ServerFieldVariable[] {
  return (config.variables ?? [])
    .filter((use) => use.field.replace(/[.[].*$/, '') === field)
    .map((use) => ({
      name: use.name,
      in: use.field,
      set: isVariableSet(use, env),
      ...(use.default === undefined ? {} : { default: use.default }),
    }));
}

// The fields an override of a plugin's or host's server may write (`disabled` is `enabled`'s row).
const OVERRIDDEN: ReadonlySet<McpConfigFieldName> = new Set(OVERRIDE_FIELDS);

/** `userFile`: the user's mcp.json, where a plugin's or host's server may be overridden. */
export function serverFields(
  { config, origin, positions, overridePositions }: ConfiguredServer,
  userFile: string,
): ServerFields {
  const overridden = (field: McpConfigFieldName): ServerFieldSource | undefined => {
    if (overridePositions === undefined || !OVERRIDDEN.has(field)) return undefined;
    for (const key of spellings(field)) {
      const at = overridePositions.fields.get(key);
      if (at !== undefined) return { kind: 'override', file: userFile, key, ...at };
    }
    return undefined;
  };
  if (origin.source === 'host') {
    return {
      at: undefined,
      fields: rows(config, 'host', (field) => overridden(field) ?? { kind: 'host' }),
    };
  }
  const written = (field: McpConfigFieldName): ServerFieldSource | undefined => {
    for (const key of spellings(field)) {
      const at = positions?.fields.get(key);
      if (at !== undefined) return { kind: 'file', key, ...at };
    }
    return undefined;
  };
  return {
    at: positions === undefined ? undefined : { file: origin.file, ...positions.key },
    fields: rows(
      config,
      origin.source,
      (field) =>
        overridden(field) ??
        written(field) ??
        (field === 'transport' ? { kind: 'inferred' } : { kind: 'default' }),
    ),
  };
}

/** Every way of writing the field: its name, its aliases, and the camelCase of each. */
function spellings(field: McpConfigFieldName): string[] {
  return MCP_CONFIG_FIELDS.filter((f) => f.name === field || aliasOf(f.name) === field).flatMap(
    (f) => [f.name, f.camelCase],
  );
}

// The table lists a field before its aliases, the order the loader prefers them in when more than
// one is written: `transport` over `type`, `enabled` over `disabled`.
function aliasOf(field: McpConfigFieldName): AliasedField | undefined {
  const row = ROWS[field];
  return typeof row === 'function' ? undefined : row.sameAs;
}

function rows(
  config: McpServerConfig,
  source: McpServerSource,
  from: (field: McpConfigFieldName) => ServerFieldSource,
): ServerField[] {
  return MCP_CONFIG_FIELDS.flatMap(({ name, transports }) => {
    const row = ROWS[name];
    if (typeof row !== 'function' || !transports.includes(config.transport)) return [];
    const variables = variablesOf(config, name, process.env);
    return [
      {
        field: name,
        value: row(config, source),
        from: from(name),
        ...(variables.length === 0 ? {} : { variables }),
      },
    ];
  });
}
