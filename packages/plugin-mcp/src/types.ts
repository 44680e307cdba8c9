// The plugin's public data types: what a server's configuration means once it has been read,
// where a server came from, and how it is doing.
import type { Position } from '@epoch-agent/infra';
import type { McpToolSource } from '@epoch-agent/protocol';
import type { McpStartMode } from './config/start.js';
import type { McpToolDefinition } from './tools/definition.js';

export type McpTransportKind = 'stdio' | 'sse' | 'http';

/**
 * Who brought a server into this process. It is decided by the code that calls
 * `connectAll(configs, source)`, never read from a config file: if it were a config field, a user
 * could label their own server "injected by the host". The same reasoning makes the assembly layer,
 * not the file, build `<namespace>__<server>` names for host and plugin servers.
 *
 * - `user`: the user's mcp.json (`mcpConfigPath()`); names as written.
 * - `project`: the `.epoch/mcp.json` of the directory epoch runs in or its nearest ancestor that
 *   has one; names as written. Whoever wrote the repository wrote it, so a user server of the same
 *   name keeps it (the runtime's read-servers.ts says the order).
 * - `host`: an embedding host's `buildRuntime({ hostCapabilities: { mcpServers } })`; named
 *   `<namespace>__<server>`, the namespace validated when the runtime is built.
 * - `plugin`: an installed plugin's mcp.json; named `<plugin name>__<server>`, the plugin name already
 *   checked against the plugin-name pattern at install time.
 *
 * Host and plugin names are held to `[A-Za-z0-9_-]` because a server name goes verbatim into tool
 * names (`mcp__<server>__<tool>`) that are sent to model providers, which reject anything else (a `:`
 * got a hard 400 from a provider). Required, because every consumer groups by it: a UI that filters
 * by source silently shows nothing for a source it does not know.
 */
export type McpServerSource = McpToolSource;

/** Settings every transport shares. Times are milliseconds here; the file says seconds. */
export interface McpServerCommon {
  readonly name: string;
  /** Per request (tools/call, tools/list, resources/*, prompts/*, ping). Default 300 s. */
  readonly timeoutMs: number;
  /**
   * The longest a tools/call may run while the server's progress reports keep restarting its
   * `timeout`; never less than `timeoutMs`. Default one hour, or `timeout` when that is longer.
   */
  readonly maxTotalTimeoutMs: number;
  /** Spawn or connect + initialize + first tools/list. Default 60 s. */
  readonly connectTimeoutMs: number;
  /** Ping interval; 0 turns keepalive off. Default 180 s. */
  readonly keepaliveIntervalMs: number;
  /**
   * Close a connection idle this long; 0 means never. Absent (not written): never, or for a
   * server started on demand ON_DEMAND_IDLE_MS (`idleTimeoutOf`).
   */
  readonly idleTimeoutMs?: number;
  /** Recycle a connection this old; 0 means no limit. */
  readonly maxLifetimeMs: number;
  /** False (the default) serializes calls to this server. */
  readonly supportsParallel: boolean;
  readonly skipPreflight: boolean;
  /**
   * The most tokens one of its tool results may put into the model's context; a longer one is
   * cut, and kept whole in a file. Absent: the runtime's default (25,000 unless the host sets
   * another). Not part of its connection either (the fingerprint leaves it out).
   */
  readonly maxOutputTokens?: number;
  /**
   * Whether it runs and which of its tools the model is offered: the user's choice, not part of
   * its connection (the fingerprint leaves it out), so changing it never reconnects anything.
   */
  readonly choice: McpServerChoice;
  /**
   * How the model gets its tools: offered one by one, or found on demand (searched, then called
   * by name) when all the offered tools would cost more context than the tool budget. Like
   * `choice`, not part of its connection.
   */
  readonly defer: McpToolDeferral;
  /**
   * false: its tool definitions are not pinned (see README "Pinned tools"). Absent: pinned. Like
   * `choice`, not part of its connection (the fingerprint leaves it out), applied by update().
   */
  readonly pinTools?: boolean;
  /**
   * Whether its questions (elicitation) are put to a person or declined: see README "Servers that
   * ask you" and `elicitationOf`. Absent: its source's default. Like `choice`, not part of its
   * connection (the fingerprint leaves it out).
   */
  readonly elicitation?: McpElicitationSetting;
  /**
   * When it starts: with the others (`at_start`), or at its first request (`on_demand`), its
   * tools offered from the schema cache until then. Absent: the registry's default (its `start`
   * option). Like `choice`, not part of its connection (the fingerprint leaves it out).
   */
  readonly start?: McpStartMode;
  /**
   * The least severe of its log messages it is asked to send (`log_level`): `logging/setLevel`
   * after a 2025-era handshake, `io.modelcontextprotocol/logLevel` in every 2026-era request.
   * Absent: DEFAULT_LOG_LEVEL. Not part of its connection (the fingerprint leaves it out): it
   * applies from the next connection.
   */
  readonly logLevel?: McpLogLevel;
  /**
   * Which of its 2025-11-25 tools are called as tasks: those whose taskSupport is `required`
   * (absent, the default), or also those that only offer it (`offered`). See README "Tools that run
   * as tasks". Not part of its connection (the fingerprint leaves it out).
   */
  readonly taskCalls?: McpTaskCalls;
  /**
   * The `${VAR}`s the values of a file's entry use, expanded (and `$$` unescaped) from the
   * process environment each time the server starts. Absent when no value holds `${` or `$$`, and
   * for an entry given in code, whose values are used exactly as given.
   */
  readonly variables?: readonly McpVariableUse[];
}

/** MCP's log levels, least severe first (RFC 5424's, as MCP names them). */
export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];
/** What a server is asked to log when its entry says nothing: what a person would want to read. */
export const DEFAULT_LOG_LEVEL: McpLogLevel = 'info';
/** `required`: a tool is called as a task when it requires it; `offered`: also when it offers it. */
export type McpTaskCalls = 'required' | 'offered';

/** `ask`: a server's questions go to a person; `decline`: they are answered `decline` unasked. */
export type McpElicitationSetting = 'ask' | 'decline';

/**
 * Whose servers are asked by default: your own and the host's; a project's and a plugin's decline
 * until you raise them (README "Servers that ask you"), as their own file may not.
 */
const ELICITATION_DEFAULT: Readonly<Record<McpServerSource, McpElicitationSetting>> = {
  host: 'ask',
  user: 'ask',
  project: 'decline',
  plugin: 'decline',
};

/** A server's elicitation setting: its own, else its source's default. */
export function elicitationOf(
  config: Pick<McpServerConfig, 'elicitation'>,
  source: McpServerSource,
): McpElicitationSetting {
  return config.elicitation ?? ELICITATION_DEFAULT[source];
}

/** One `${NAME}` or `${NAME:-default}` written in a value of a file's entry. */
export interface McpVariableUse {
  readonly name: string;
  /** The value it is in: `command`, `args[1]`, `env.API_KEY`, `cwd`, `url`, `headers.Authorization`. */
  readonly field: string;
  /** Used when the variable is unset or empty. Written in the file, so not a secret. */
  readonly default?: string;
}

/**
 * `true`: always found on demand; `false`: always offered one by one; `auto` (the default):
 * found on demand when the tools offered exceed the tool budget, the largest servers first.
 */
export type McpToolDeferral = boolean | 'auto';

/** `enabled`, `include_tools` and `exclude_tools` of an entry (or of the user's `overrides`). */
export interface McpServerChoice {
  /** False: never started (no process, no socket) and no tools; its status is `disabled`. */
  readonly enabled: boolean;
  /** Only the tools one of these matches are offered; absent: every tool. */
  readonly includeTools?: readonly McpToolPattern[];
  /** No tool one of these matches is offered, even one `includeTools` names. */
  readonly excludeTools: readonly McpToolPattern[];
}

/** One name of `include_tools` / `exclude_tools`, and where it is written. */
export interface McpToolPattern {
  /**
   * A tool's name as the server names it (`list_resources` and `read_resource` for the resource
   * pair); `*` matches any run of characters.
   */
  readonly pattern: string;
  /** Where: a pattern no tool of the server matches is a warning pointing at it. */
  readonly at: McpFieldPosition;
}

/** A field of an entry: its file (or a host's origin), its path, e.g. `servers.gh.exclude_tools[1]`, and its line:column. */
export interface McpFieldPosition extends McpEntryPosition {
  readonly path: string;
}

export interface StdioServerConfig extends McpServerCommon {
  readonly transport: 'stdio';
  /** Resolved from PATH, never through a shell. */
  readonly command: string;
  readonly args: readonly string[];
  /** Merged onto the SDK's default environment. Values are secrets: never print them. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /**
   * The absolute path of a dotenv file whose values are added to the child's environment, read
   * each time the server starts (`env` wins for a key both give). Every value is a secret.
   */
  readonly envFile?: string;
}

export interface RemoteServerConfig<T extends 'sse' | 'http'> extends McpServerCommon {
  readonly transport: T;
  readonly url: string;
  /** Sent on every request. Values are secrets: never print them. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * How to log in to a server that wants OAuth. Absent: everything is discovered (dynamic client
   * registration, the scopes the server asks for, any free callback port).
   */
  readonly oauth?: McpOAuthConfig;
  /** `headers_helper`'s words, run without a shell: README "Headers from a command". */
  readonly headersHelper?: readonly string[];
}

/** The `oauth` field of a remote server: what discovery cannot find out on its own. */
export interface McpOAuthConfig {
  /** A client registered with the authorization server beforehand; no dynamic registration then. */
  readonly clientId?: string;
  /** The pre-registered client's secret. A secret: never print it. */
  readonly clientSecret?: string;
  /**
   * An https URL of a Client ID Metadata Document, used as the client id where the authorization
   * server supports that (dynamic registration otherwise).
   */
  readonly clientMetadataUrl?: string;
  /** Scopes to ask for instead of the ones the server names in its challenge or metadata. */
  readonly scopes?: readonly string[];
  /** Listen for the login callback on this port: for clients registered with a fixed redirect URI. */
  readonly callbackPort?: number;
  /**
   * Refresh an access token this long before it expires (file: `refresh_skew`, seconds; default
   * 60 s), never later than half its lifetime, so a slow clock or a slow network never sends an
   * expired token.
   */
  readonly refreshSkewMs?: number;
  /**
   * How tokens are obtained. Absent: an interactive login (`epoch mcp login`), except for a
   * client with a `clientSecret` whose authorization server offers the client_credentials grant
   * and not authorization_code: that client fetches its own tokens at connect.
   */
  readonly grant?: McpOAuthGrant;
}

/** How a remote server's tokens are obtained; the last two need no person and no login. */
export type McpOAuthGrant =
  /** Only an interactive login, even where the authorization server offers client_credentials. */
  | { readonly kind: 'authorization_code' }
  /**
   * OAuth client_credentials: the client's own tokens, fetched at connect and fetched again when
   * they expire. The client authenticates with `clientSecret`, or with a private_key_jwt
   * assertion (RFC 7523) when `privateKeyJwt` is set.
   */
  | { readonly kind: 'client_credentials'; readonly privateKeyJwt?: McpPrivateKeyJwt }
  /**
   * Enterprise-managed authorization (cross-app access): the user's ID token is exchanged at the
   * identity provider for an ID-JAG (RFC 8693 token exchange), which the MCP server's
   * authorization server takes in a JWT bearer grant (RFC 7523) from the client of `clientId`.
   */
  | { readonly kind: 'cross_app_access'; readonly identityProvider: McpIdentityProvider };

export interface McpPrivateKeyJwt {
  /** The PEM private key the assertion is signed with. */
  readonly key: McpSecretSource;
  /** The JWS algorithm the assertion is signed with, e.g. "ES256" or "RS256". */
  readonly algorithm: string;
}

/**
 * A credential written into mcp.json, or the absolute path of a file holding it (read each time
 * it is needed, so a renewed file is picked up). An inline value is a secret: never print it.
 */
export type McpSecretSource =
  | { readonly kind: 'inline'; readonly value: string }
  | { readonly kind: 'file'; readonly path: string };

export interface McpIdentityProvider {
  /** Its issuer: the token endpoint is discovered from its metadata unless `tokenEndpoint` is set. */
  readonly issuer?: string;
  readonly tokenEndpoint?: string;
  /** The client the identity provider knows this agent as. */
  readonly clientId: string;
  /** That client's secret, when it has one. A secret: never print it. */
  readonly clientSecret?: string;
  /** The user's ID token from the identity provider (a file: whatever renews it is picked up). */
  readonly idToken: McpSecretSource;
}

export interface SseServerConfig extends RemoteServerConfig<'sse'> {
  /**
   * Where the entry is written, and what made it SSE: its `url` alone (it named no transport;
   * README, "mcp.json") or its own words (`"transport": "sse"`, `"streamable": false`). Such a
   * url is often a Streamable HTTP endpoint; then the connect failure says which file and line
   * need `"type": "http"`. Where an entry is written is not part of its connection, so the
   * fingerprint leaves it out.
   */
  readonly sseChosen?: SseChoice;
}

export interface SseChoice {
  readonly at: McpEntryPosition;
  readonly by: 'url' | 'written';
}

/** Where a server's entry is: its file (or, for a host's entries, their origin) and its name's line:column. */
export interface McpEntryPosition extends Position {
  readonly file: string;
}

export type HttpServerConfig = RemoteServerConfig<'http'>;

export type McpServerConfig = StdioServerConfig | SseServerConfig | HttpServerConfig;

/**
 * An icon a server gives for itself or a tool (MCP's `Icon`): `src` is an http(s) or `data:` URI,
 * as the server sent it; a host that shows one decides whether to fetch it.
 */
export interface McpIcon {
  readonly src: string;
  readonly mimeType?: string;
  /** `48x48`, `any` (scalable). */
  readonly sizes?: readonly string[];
  /** The theme it is drawn for. */
  readonly theme?: 'light' | 'dark';
}

/** What every status says, whatever the state. Free of secrets: no env or header values, no tokens. */
export interface McpServerStatusCommon {
  readonly name: string;
  /** Required: see McpServerSource. Set by `connectAll(configs, source)`, never by a file. */
  readonly source: McpServerSource;
  readonly transport: McpTransportKind;
  /** What it runs or reaches: the stdio command (no args), or the URL with credentials redacted. */
  readonly target: string;
  /**
   * How many tools `tools()` offers for it now (list_resources / read_resource included): from the
   * live list, or the cached one while it connects or reconnects; 0 when it is failed, needs a
   * login, is disconnected or disabled. Tools the user turned off are not counted.
   */
  readonly toolCount: number;
  /** How many of the server's tools the user turned off (include_tools / exclude_tools). */
  readonly toolsOff: number;
  /** How many of its listed tools are withheld (changed or new since approved); 0 when none. */
  readonly toolsWithheld: number;
}

/**
 * A tool of a server that is not offered because its definition is not the one a person approved
 * (README, "Pinned tools"): McpRegistry.withheldOf lists them, approveTools brings them in.
 */
export interface McpWithheldTool {
  /** The server's own name for the tool. */
  readonly name: string;
  /** `new`: no pin of that name; `changed`: its definition is not the pinned one. */
  readonly reason: 'new' | 'changed';
  /** The pinned (approved) definition; absent when new. */
  readonly before?: McpToolDefinition;
  readonly after: McpToolDefinition;
  /**
   * definitionHash(after): names the definition a person is shown, so that approveTools approves
   * that one and no later one.
   */
  readonly hash: string;
}

/** A withheld tool as a person was shown it: approveTools approves it only while it is still that. */
export type McpShownTool = Pick<McpWithheldTool, 'name' | 'hash'>;

/** One server as a UI or `epoch mcp list` shows it, discriminated by `state`. */
/** What a server entry would run, as a person should see it before saying yes. No secret in it
 * (config/launch.ts describes one). */
export interface McpLaunch {
  readonly transport: 'stdio' | 'sse' | 'http';
  /** stdio: the program then its arguments, variables expanded, secret-looking values redacted. */
  readonly command?: readonly string[];
  readonly cwd?: string;
  /** stdio: the names of the variables it is given (values never shown). */
  readonly envNames?: readonly string[];
  readonly envFile?: string;
  /** sse/http: the URL, credentials redacted. */
  readonly url?: string;
  readonly headerNames?: readonly string[];
  readonly headersHelper?: readonly string[];
  /** Set when starting it downloads and runs code: the launcher (`npx -y`, `uvx`, `pipx run`,
   *  `bunx`, `docker run`, `a script from a URL`) and what it fetches (a package, an image, a URL). */
  readonly downloads?: { readonly launcher: string; readonly what: string };
}

export type { McpServerState, McpServerStatus } from './status-types.js';

/**
 * Why a server waits for approval: `new`, it was never approved in any form; `changed`, an approval
 * exists for another form of it (another command, argument, URL, env value...).
 */
export type McpApprovalReason = 'new' | 'changed';

/**
 * How a stdio server's process ended by itself, before epoch closed it: its exit code, or the
 * signal that ended it (something else killed it, or it crashed).
 */
export type McpServerExit = { readonly code: number } | { readonly signal: string };

export function assertNever(value: never, what: string): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
