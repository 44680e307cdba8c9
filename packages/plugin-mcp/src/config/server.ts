// One entry of `servers`, read whole: step 1 (schema.ts), then step 2 here — decide the transport,
// check what that transport requires, and map every field by hand into the `McpServerConfig`
// union, so a field added to the config types that this mapping forgets does not compile.
import { dirname, resolve } from 'node:path';
import { type Diagnostic, groupedNumber } from '@epoch-agent/infra';
import {
  assertNever,
  type McpEntryPosition,
  type McpServerCommon,
  type McpServerConfig,
  type McpTransportKind,
  type McpVariableUse,
  type RemoteServerConfig,
  type StdioServerConfig,
} from '../types.js';
import { type ChoiceWritten, readChoice } from './choice.js';
import { checkControlCharacters } from './control-characters.js';
import { readHeadersHelper } from './headers-helper.js';
import { toOAuthConfig } from './oauth.js';
import { type Report, reporter, type Where } from './report.js';
import {
  camelCase,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  type Fields,
  readFields,
  TRANSPORT_VALUES,
  type TransportValue,
} from './schema.js';
import { EVERY_TOOL } from './tool-choice.js';
import {
  type Environment,
  fieldPath,
  parseTemplate,
  type TemplatedValue,
  templatedValues,
  variableUses,
  variableValue,
} from './variables.js';

export interface ServerResult {
  /** Absent when the entry has an error; `diagnostics` then says why. */
  readonly config?: McpServerConfig;
  readonly diagnostics: readonly Diagnostic[];
}

export function parseServer(
  name: string,
  value: unknown,
  where: Where,
  env: Environment = process.env,
): ServerResult {
  const diagnostics: Diagnostic[] = [];
  const fields = readFields(name, value, where, diagnostics);
  if (fields === undefined) return { diagnostics };
  const report = reporter(where, name, diagnostics);
  const entry: Entry = {
    name,
    fields,
    expands: where.givenInCode !== true,
    baseDir: where.baseDir ?? dirname(where.file),
    at: { file: where.file, ...where.locator.key(['servers', name]) },
    report,
    // Snake_case wins when both are written (schema.ts), so it is the key that was read.
    keyOf: (field) => (Object.hasOwn(value as object, field) ? field : camelCase(field)),
    // readFields returned fields, so the value is an object.
    choice: readChoice(fields, {
      scope: 'servers',
      name,
      file: where.file,
      locator: where.locator,
      raw: value as object,
      report,
    }),
  };
  // Both looked at before either drops the entry: one error must not hide the others of it.
  const clean = checkControlCharacters(name, fields, entry.report);
  const expandable = where.givenInCode === true || checkVariables(entry, env);
  if (!clean || !expandable) return { diagnostics };
  const config = toConfig(entry);
  return config === undefined ? { diagnostics } : { config, diagnostics };
}

interface Entry {
  readonly name: string;
  readonly fields: Fields;
  /** False for entries a host gives in code: their values are used as given. */
  readonly expands: boolean;
  /** What a relative `cwd` is relative to: the directory of the file it is in, by default. */
  readonly baseDir: string;
  /** Where the entry's name is written. */
  readonly at: McpEntryPosition;
  readonly report: Report;
  /** A field's key as the entry writes it (`maxTotalTimeout`), for a diagnostic about its value. */
  readonly keyOf: (field: FieldName) => string;
  readonly choice: ChoiceWritten;
}

/** Why a server got its transport; said in messages, because an inferred transport surprises. */
type Reason = 'transport' | 'type' | 'streamable' | 'url' | 'default';

const BECAUSE: Record<Reason, string> = {
  transport: 'its "transport" says so',
  type: 'its "type" says so',
  streamable: 'it has "streamable": true',
  url: 'it has a "url" and no "transport"',
  default: 'it has neither "transport" nor "url"',
};

const LABEL: Record<McpTransportKind, string> = {
  stdio: 'stdio',
  sse: 'SSE',
  http: 'Streamable HTTP',
};

function normalize(value: TransportValue): McpTransportKind {
  return value === 'streamable' || value === 'streamable-http' ? 'http' : value;
}

/**
 * A transport as a person may write it (`streamable-http` too), as the file reads it; undefined
 * for anything else. `epoch mcp add --transport` takes what the file takes.
 */
export function transportKind(value: string): McpTransportKind | undefined {
  const known = (TRANSPORT_VALUES as readonly string[]).includes(value);
  return known ? normalize(value as TransportValue) : undefined;
}

// `transport` beats its alias `type`, and both beat `streamable`; without any of them, a `url`
// means SSE and no `url` means stdio.
function resolveTransport({ name, fields, report }: Entry): {
  kind: McpTransportKind;
  reason: Reason;
} {
  const fromTransport = fields.transport === undefined ? undefined : normalize(fields.transport);
  const fromType = fields.type === undefined ? undefined : normalize(fields.type);
  if (fromTransport !== undefined && fromType !== undefined && fromTransport !== fromType) {
    report(
      'warning',
      'alias_conflict',
      ['type'],
      `"type" says "${fields.type}" but "transport" says "${fields.transport}"; "transport" wins, so server "${name}" uses ${LABEL[fromTransport]}. Remove one of them.`,
    );
  }
  const explicit = fromTransport ?? fromType;
  if (explicit !== undefined) {
    const reason = fromTransport !== undefined ? 'transport' : 'type';
    const { streamable } = fields;
    if (explicit !== 'stdio' && streamable !== undefined && streamable !== (explicit === 'http')) {
      report(
        'warning',
        'alias_conflict',
        ['streamable'],
        `"streamable": ${streamable} disagrees with "${reason}": "${fields[reason]}"; "${reason}" wins, so server "${name}" uses ${LABEL[explicit]}. Remove one of them.`,
      );
    }
    return { kind: explicit, reason };
  }
  // Reading `type` above is what keeps {"type":"http","url":…} from landing here as SSE.
  if (fields.streamable === true) return { kind: 'http', reason: 'streamable' };
  if (fields.url !== undefined) return { kind: 'sse', reason: 'url' };
  return { kind: 'stdio', reason: 'default' };
}

function toConfig(entry: Entry): McpServerConfig | undefined {
  const { kind, reason } = resolveTransport(entry);
  const why = `(It is a ${LABEL[kind]} server because ${BECAUSE[reason]}.)`;
  for (const field of FIELD_NAMES) {
    const { transports } = FIELDS[field];
    if (entry.fields[field] === undefined || transports.includes(kind)) continue;
    const key = entry.keyOf(field); // as written: `envFile`, `headersHelper`
    entry.report(
      'warning',
      'ignored_field',
      [key],
      `"${key}" has no effect on a ${LABEL[kind]} server (it is for ${transports.map((t) => LABEL[t]).join(' and ')} servers), so it is ignored. Remove it. ${why}`,
      'key',
    );
  }
  switch (kind) {
    case 'stdio':
      return toStdio(entry, why);
    case 'sse': {
      const config = toRemote(kind, entry, why);
      // Remembered, so a Streamable HTTP endpoint's failure can name this line. A url alone (not
      // `"streamable": false`, which chose SSE) is the likelier mistake, and is said so.
      const inferred = reason === 'url' && entry.fields.streamable === undefined;
      const by = inferred ? 'url' : 'written';
      return config === undefined ? config : { ...config, sseChosen: { at: entry.at, by } };
    }
    case 'http':
      return toRemote(kind, entry, why);
    default:
      return assertNever(kind, 'transport');
  }
}

function toStdio(entry: Entry, why: string): StdioServerConfig | undefined {
  const { name, fields, report } = entry;
  const { command, cwd, env_file: envFile } = fields;
  let ok = true;
  if (command === undefined) {
    ok = false;
    report(
      'error',
      'missing_field',
      ['command'],
      `server "${name}" needs "command", the program to start, e.g. "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]. For a remote server give "url" instead. ${why}`,
    );
  } else if (command.trim() === '') {
    ok = false;
    report(
      'error',
      'invalid_value',
      ['command'],
      `"command" of server "${name}" is empty; write the program to start, e.g. "npx".`,
    );
  }
  if (cwd !== undefined && cwd.trim() === '') {
    ok = false;
    report(
      'error',
      'invalid_value',
      ['cwd'],
      `"cwd" of server "${name}" is empty; give a directory or remove it.`,
    );
  }
  if (envFile !== undefined && envFile.trim() === '') {
    ok = false;
    report(
      'error',
      'invalid_value',
      ['env_file'],
      `"env_file" of server "${name}" is empty; give the path of a dotenv file or remove it.`,
    );
  }
  if (!ok || command === undefined) return undefined;
  return withoutUndefined<StdioServerConfig>({
    ...common(entry, 'stdio'),
    transport: 'stdio',
    command,
    args: fields.args ?? [],
    env: fields.env ?? {},
    // Relative to the file that says it, not to wherever the process happens to start. One with
    // a variable is kept as written: where it leads is known at start (it must lead somewhere absolute).
    cwd:
      cwd === undefined ? undefined : holdsVariable(entry, cwd) ? cwd : resolve(entry.baseDir, cwd),
    envFile: envFile === undefined ? undefined : resolve(entry.baseDir, envFile),
  });
}

function toRemote<T extends 'sse' | 'http'>(
  transport: T,
  entry: Entry,
  why: string,
): RemoteServerConfig<T> | undefined {
  const { name, fields, report } = entry;
  const { url } = fields;
  if (url === undefined) {
    report(
      'error',
      'missing_field',
      ['url'],
      `server "${name}" needs "url", the server's address, e.g. "url": "https://mcp.example.com/mcp". ${why}`,
    );
    return undefined;
  }
  // An address made of variables is checked when it is known, at start (preflight).
  const port = holdsVariable(entry, url) ? undefined : outOfRangePort(url);
  if (port !== undefined) {
    report(
      'error',
      'out_of_range',
      ['url'],
      `the port ${port} in "url" of server "${name}" is out of range: a port is 1 to 65535.`,
    );
    return undefined;
  }
  if (!holdsVariable(entry, url) && !isHttpUrl(url)) {
    // The url itself is not repeated: a query string can hold a token.
    report(
      'error',
      'invalid_value',
      ['url'],
      `"url" of server "${name}" is not an http:// or https:// address; write the whole address, e.g. "https://mcp.example.com/mcp".`,
    );
    return undefined;
  }
  const oauth = fields.oauth && toOAuthConfig(name, fields.oauth, report, entry.baseDir);
  if (fields.oauth !== undefined && oauth === undefined) return undefined;
  const helperKey = entry.keyOf('headers_helper');
  const helper = readHeadersHelper(name, fields.headers_helper, helperKey, entry.baseDir, report);
  if (helper === null) return undefined;
  return withoutUndefined<RemoteServerConfig<T>>({
    ...common(entry, transport),
    transport,
    url,
    headers: fields.headers ?? {},
    oauth,
    headersHelper: helper,
  });
}

function common(entry: Entry, kind: McpTransportKind): Explicit<McpServerCommon> {
  const { name, fields, choice } = entry;
  const timeoutMs = toMs(fields.timeout ?? DEFAULT_TIMEOUT_SECONDS);
  return {
    name,
    timeoutMs,
    maxTotalTimeoutMs: maxTotalTimeoutMs(entry, timeoutMs),
    connectTimeoutMs: toMs(fields.connect_timeout ?? 60),
    keepaliveIntervalMs: toMs(fields.keepalive_interval ?? 180),
    idleTimeoutMs: fields.idle_timeout_seconds && toMs(fields.idle_timeout_seconds),
    maxLifetimeMs: toMs(fields.max_lifetime_seconds ?? 0),
    supportsParallel: fields.supports_parallel ?? false,
    skipPreflight: fields.skip_preflight ?? false,
    // Not written: the runtime's default, which a host may set (McpRegistryOptions.maxOutputTokens).
    maxOutputTokens: fields.max_output_tokens,
    choice: {
      enabled: choice.enabled ?? EVERY_TOOL.enabled,
      ...(choice.includeTools === undefined ? {} : { includeTools: choice.includeTools }),
      excludeTools: choice.excludeTools ?? EVERY_TOOL.excludeTools,
    },
    defer: fields.defer ?? 'auto',
    // Absent: pinned, and the source's default; a project's `false` or "ask" the runtime drops.
    pinTools: fields.pin_tools,
    elicitation: fields.elicitation,
    start: fields.start,
    logLevel: fields.log_level,
    taskCalls: fields.task_calls,
    variables: entry.expands ? expansionOf(templatedValues(fields, kind)) : undefined,
  };
}

/** The variables of an entry's values; undefined when expanding would change none of them. */
function expansionOf(values: readonly TemplatedValue[]): McpVariableUse[] | undefined {
  const uses = variableUses(values);
  return uses.length > 0 || values.some(({ text }) => text.includes('$$')) ? uses : undefined;
}

/** Whether `text`, a value of the entry, holds a `${VAR}` that will be expanded at start. */
function holdsVariable({ expands }: Entry, text: string): boolean {
  const template = parseTemplate(text);
  return expands && template.ok && template.parts.some((part) => part.kind === 'variable');
}

/**
 * Every `${` of the entry's values is a variable (an error drops the entry), and each variable
 * without a default that `env` does not set is a warning: the server will fail to start until it
 * is set. The transport is not known yet, so every field that may hold one is looked at.
 */
function checkVariables({ name, fields, report }: Entry, env: Environment): boolean {
  const values = [...templatedValues(fields, 'stdio'), ...templatedValues(fields, 'http')];
  let ok = true;
  for (const { path, text } of values) {
    const template = parseTemplate(text);
    if (template.ok) continue;
    ok = false;
    // The value itself is not repeated: it may be a secret.
    report(
      'error',
      'invalid_variable',
      path,
      `"${fieldPath(path)}" of server "${name}" ${template.problem} (at character ${template.offset + 1} of the value). Write $$ for a "$" of its own.`,
    );
  }
  if (!ok) return false;
  const pathOf = pathsByField(values);
  // One warning per variable, at the first field it is in, however many fields repeat it.
  const unset = new Map<string, { readonly field: string; readonly others: Set<string> }>();
  for (const use of variableUses(values)) {
    if (variableValue(use, env) !== undefined) continue;
    const seen = unset.get(use.name);
    if (seen === undefined) unset.set(use.name, { field: use.field, others: new Set() });
    else if (use.field !== seen.field) seen.others.add(use.field);
  }
  for (const [variable, { field, others }] of unset) {
    const more = others.size === 0 ? '' : ` (and ${groupedNumber(others.size)} more fields)`;
    report(
      'warning',
      'unset_variable',
      pathOf.get(field) ?? [],
      `"${field}"${more} of server "${name}" uses \${${variable}}, which is not set, so the server will fail to start. Set ${variable} in the environment epoch starts in (e.g. export ${variable}=...), or write a default: \${${variable}:-value}.`,
    );
  }
  return true;
}

/** Each value's path by its field (`env.API_KEY`): looked up once per variable, of thousands. */
function pathsByField(
  values: readonly TemplatedValue[],
): ReadonlyMap<string, TemplatedValue['path']> {
  const paths = new Map<string, TemplatedValue['path']>();
  for (const { path } of values) {
    const field = fieldPath(path);
    if (!paths.has(field)) paths.set(field, path);
  }
  return paths;
}

const DEFAULT_TIMEOUT_SECONDS = 300;
// Progress may keep a call alive this long by default: long enough for the slow work servers
// report progress on (a build, a test run, a crawl), short enough that a server stuck reporting
// progress for ever gives the turn back within the hour. Independent of `timeout`, so raising
// `timeout` does not silently raise it too; never below `timeout`, or progress would shorten a call.
const DEFAULT_MAX_TOTAL_TIMEOUT_SECONDS = 3600;

function maxTotalTimeoutMs({ name, fields, report, keyOf }: Entry, timeoutMs: number): number {
  const written = fields.max_total_timeout;
  if (written === undefined) return Math.max(toMs(DEFAULT_MAX_TOTAL_TIMEOUT_SECONDS), timeoutMs);
  const ms = toMs(written);
  if (ms >= timeoutMs) return ms;
  const key = keyOf('max_total_timeout');
  report(
    'warning',
    'ignored_field',
    [key],
    `"${key}" of server "${name}" (${written} s) is less than its "timeout" (${timeoutMs / 1000} s), so it has no effect: a call may always run for "timeout". Raise it above "timeout" or remove it.`,
  );
  return timeoutMs;
}

// Whole milliseconds, and never rounded down to 0: 0 means "off", which a tiny time is not.
function toMs(seconds: number): number {
  return seconds === 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
}

/** The port of an http(s) URL when it is a number no port can be (the URL parser only says "invalid"). */
function outOfRangePort(text: string): string | undefined {
  const authority = /^https?:\/\/([^/?#]*)/i.exec(text)?.[1] ?? '';
  const port = /:(\d+)$/.exec(authority.slice(authority.lastIndexOf('@') + 1))?.[1];
  return port !== undefined && Number(port) > 65535 ? port : undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Every key of T present, optional ones as `undefined`: a key the mapping forgets does not compile. */
type Explicit<T> = { readonly [K in keyof T]-?: undefined extends T[K] ? T[K] | undefined : T[K] };

function withoutUndefined<T>(value: Explicit<T>): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
