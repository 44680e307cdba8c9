// The fingerprint of a server config: a hash of everything its connection depends on. It keys the
// schema cache (a cached tool list is only good for the same connection) and tells the runtime
// which servers to reconnect when mcp.json changes (same name, different fingerprint).
//
// What goes in: every field of the parsed config except `name` — the process or address and what is
// sent to it (transport, command, args, env, cwd, url, headers, headers_helper, oauth) and the
// settings the client is built with (timeouts and the total limit of a call, keepalive, idle and
// lifetime limits, parallelism, preflight). A change to any of them needs a new client, so it must
// change the fingerprint; including them all also means no one has to decide again, per field,
// whether a change "matters". What stays out: `name`. It is the key the fingerprint is compared
// under; a renamed server with the same connection may reuse its cached tool list. And `sseChosen`,
// where an SSE entry is written and what made it SSE: moving an entry in the file changes nothing
// about its connection. And `choice` (enabled, include_tools, exclude_tools) and `defer`: which
// tools the model is offered, and how, is decided over the same connection and the same cached
// list, so turning a tool off reconnects nothing. And `maxOutputTokens`: how much of a result the
// model is given is decided after the server answered, so a new cap takes effect at the next call
// over the same connection. And `pinTools`: whether its tool definitions are checked against the
// pins is decided on the list it gave, over the same connection.
//
// Computed on the parsed config, so key order and snake_case/camelCase spellings in the file cannot
// change it. Secrets (env, header values) go into the hash only; the hash reveals nothing of them.
//
// `${VAR}`s: the written form is hashed (above), and with it the value each variable has in the
// process environment now, so a changed variable is a changed config (its cached tool list is not
// reused) while nothing but the hash is ever stored. That part is computed at every call, since the
// environment may change. An `env_file` is hashed by its path, not its contents: a file that
// changes is read at the next start, and the tools cached for the old one are offered until then.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import { assertNever, type McpServerConfig } from '../types.js';
import { type Environment, variableValue } from './variables.js';

// Bump when what is hashed changes, so fingerprints stored on disk stop matching.
const VERSION = 'mcp-config-fingerprint/2';

/**
 * Computed once per config object: a config is never changed after it is read, and a connect asks
 * for its fingerprint several times (cache read, cache write).
 */
const computed = new WeakMap<McpServerConfig, string>();

/** A stable sha256 hex of what `config`'s connection depends on (everything but `name`). */
export function fingerprint(config: McpServerConfig, env: Environment = process.env): string {
  let hash = computed.get(config);
  if (hash === undefined) {
    hash = createHash('sha256')
      .update(`${VERSION}\n${canonicalJson(connectionOf(config))}`)
      .digest('hex');
    computed.set(config, hash);
  }
  const { variables = [] } = config;
  if (variables.length === 0) return hash;
  // Each value length-prefixed, so no two environments hash the same text.
  const values = variables.map((use) => {
    const value = variableValue(use, env);
    return value === undefined ? '-' : `${value.length}:${value}`;
  });
  return createHash('sha256')
    .update(`${hash}\n${values.join('\n')}`)
    .digest('hex');
}

type WithoutName<T> = {
  readonly [K in Exclude<
    keyof T,
    | 'name'
    | 'sseChosen'
    | 'choice'
    | 'defer'
    | 'maxOutputTokens'
    | 'pinTools'
    | 'elicitation'
    | 'start'
    | 'logLevel'
    | 'taskCalls'
  >]-?: T[K] | undefined;
};

// Each transport spelled out: a field added to a config type that is not listed here does not
// compile, so the fingerprint cannot silently miss it.
function connectionOf(config: McpServerConfig): object {
  const common = {
    timeoutMs: config.timeoutMs,
    maxTotalTimeoutMs: config.maxTotalTimeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    keepaliveIntervalMs: config.keepaliveIntervalMs,
    idleTimeoutMs: config.idleTimeoutMs ?? 0,
    maxLifetimeMs: config.maxLifetimeMs,
    supportsParallel: config.supportsParallel,
    skipPreflight: config.skipPreflight,
    variables: config.variables,
  };
  switch (config.transport) {
    case 'stdio':
      return {
        ...common,
        transport: config.transport,
        command: config.command,
        args: config.args,
        env: config.env,
        cwd: config.cwd,
        envFile: config.envFile,
      } satisfies WithoutName<typeof config>;
    case 'sse':
    case 'http':
      return {
        ...common,
        transport: config.transport,
        url: config.url,
        headers: config.headers,
        headersHelper: config.headersHelper,
        oauth: config.oauth,
      } satisfies WithoutName<typeof config>;
    default:
      return assertNever(config, 'transport');
  }
}
