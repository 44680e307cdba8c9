// `epoch mcp login <name>`'s backend: an interactive OAuth login to one remote server.
//
// 1. Connect without a token, with the headers every connection sends (the configured ones and
//    its helper's: login-checks.ts); the 401 challenge names the protected-resource metadata and
//    the scope the server wants. The scope asked for adds what the last login asked
//    and what the server demanded since: scopes accumulate across step-ups.
// 2. A round: a loopback callback server with a fresh `state`; the SDK's auth() discovers (anew
//    each round), picks the client — one registered with this issuer before, a Client ID Metadata
//    Document URL where the authorization server takes one, else dynamic registration — and
//    builds the authorization URL; the user is sent there (printed, and a browser opened where
//    there is one); the callback's `iss` is checked and its code exchanged, and the login saved.
// 3. Connect the way the agent will (stored token, tools/list). A 403 insufficient_scope there is a
//    step-up: another round asking for the wider scope. A 401 from a server that has meanwhile
//    moved to another authorization server: another round, with that one. At most MAX_ROUNDS
//    rounds in all.
// One deadline covers everything; a login not finished in time is `login_timeout`.
import { randomBytes } from 'node:crypto';
import {
  bounded,
  credentials,
  isInfraError,
  type Logger,
  messageOf,
  redactingLogger,
  silentLogger,
} from '@epoch-agent/infra';
import {
  auth,
  computeScopeUnion,
  type FetchLike,
  IssuerMismatchError,
  OAuthError,
} from '@modelcontextprotocol/client';
import { startConfig } from '../connection/start-config.js';
import { McpError } from '../errors/mcp-error.js';
import { loginSecrets, type Scrubber, serverRedactor } from '../secrets.js';
import type { McpHeadersHelper } from '../transport/headers-helper-rules.js';
import type { McpServerConfig, RemoteServerConfig } from '../types.js';
import { startCallbackServer } from './callback-server.js';
import { checkResponseIssuer, exchangeCode } from './code-exchange.js';
import { legacyIssuerDiscovery } from './legacy-issuer.js';
import {
  type Challenge,
  challengeOf,
  movedAway,
  type Verified,
  verify,
  type WithoutToken,
} from './login-checks.js';
import { oauthFetch } from './oauth-fetch.js';
import { LoginProvider } from './provider.js';
import { TokenStore } from './token-store.js';
import { unreachable } from './unreachable.js';

/** Authorization rounds per login: the first, plus step-ups for a wider scope. */
const MAX_ROUNDS = 3;

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export interface McpLoginOptions {
  readonly config: McpServerConfig;
  /** Default: logins under `$EPOCH_HOME/oauth`. */
  readonly store?: TokenStore;
  /** Called with the authorization URL the user must visit (the CLI prints it). */
  readonly onAuthorizationUrl: (url: string) => void;
  /** Opens the URL in a browser. Failing is fine: the URL was shown. Tests pass an HTTP client. */
  readonly openUrl: (url: string) => Promise<void>;
  /** The whole login, browser included. Default 5 minutes. */
  readonly timeoutMs?: number;
  /**
   * Where the browser is sent (a 303) when the authorization server hands it back, instead of the
   * callback's own "you can close this tab" page: the page that started the login (the connectors
   * page). The login goes on after that: the code is exchanged and the connection checked.
   */
  readonly returnUrl?: string;
  /** Stops the login (its callback server with it); it rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  readonly logger?: Logger;
  /** The host's headers helper, as its connections ask it (a `headers_helper` runs instead). */
  readonly headersHelper?: McpHeadersHelper | undefined;
}

export interface McpLoginResult {
  readonly issuer: string;
  /** The scope granted, as the authorization server stated it. */
  readonly scope: string | undefined;
  /** Date.now() milliseconds. */
  readonly expiresAt: number | undefined;
  /** Tools the server lists with the new login. */
  readonly toolCount: number;
}

export async function loginToServer(options: McpLoginOptions): Promise<McpLoginResult> {
  const written = remote(options.config);
  // Learns the tokens of this login as the check connection reads them (OAuthConnectionAuth).
  const scrub = serverRedactor(written);
  // A login is kept under the server's URL as a start expands it: the one the agent will connect to.
  const started = await startConfig(written, scrub);
  if (!started.ok) throw started.error;
  const config = remote(started.config);
  const { name } = config;
  const logger = redactingLogger(options.logger ?? silentLogger, scrub);
  const store = options.store ?? new TokenStore({ logger });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new McpError(
          'login_timeout',
          `Login to MCP server "${name}" was not finished within ${Math.round(timeoutMs / 1000)} s. Log in again and complete it in the browser.`,
          { server: name },
        ),
      ),
    timeoutMs,
  );
  const stop = (): void => deadline.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  // Every request of the login carries a secret (the configured headers, the client's, the code):
  // none follows a redirect to another origin.
  // A request that gets no answer says where it went and why, never fetch's bare `fetch failed`.
  const fetchFn = oauthFetch({
    server: name,
    fetchFn: async (url, init) => {
      try {
        return await fetch(url, { ...init, signal: anySignal(deadline.signal, init?.signal) });
      } catch (error) {
        throw unreachable(name, new URL(String(url)), error) ?? error;
      }
    },
  });
  const provider = new LoginProvider({
    server: name,
    serverUrl: config.url,
    oauth: config.oauth,
    store,
    signal: deadline.signal,
    onAuthorizationUrl: async (url) => {
      options.onAuthorizationUrl(url.href);
      await options.openUrl(url.href).catch((error: unknown) =>
        logger.info(`Could not open a browser (${messageOf(error)}); open the URL shown.`, {
          server: name,
        }),
      );
    },
  });
  try {
    // Held past the deadline by the last check connection at most; a dead holder's is taken over.
    return await oneAtATime(store, config, timeoutMs + 60_000, async () => {
      const signal = deadline.signal;
      const check = { scrub, headersHelper: options.headersHelper, signal };
      const first = await challengeOf(config, fetchFn, check);
      // An entry with `oauth` asks for a login even where the server lets anyone in: it may give
      // a logged-in client more.
      if (first.kind === 'open' && config.oauth === undefined) {
        throw new McpError(
          'login_not_needed',
          `MCP server "${name}" needs no login: it answered without one and lists ${first.toolCount} tool${first.toolCount === 1 ? '' : 's'}. Nothing was stored.`,
          { server: name },
        );
      }
      let challenge = challengeIn(first);
      const fixedPort = config.oauth?.callbackPort;
      let port = fixedPort ?? (await previousPort(store, config.url));
      // Scopes accumulate: what the last login asked for and what the server demanded since
      // (requiredScope), so a step-up never drops what an earlier login asked for.
      let scope = computeScopeUnion(
        config.oauth?.scopes?.join(' ') ?? challenge.scope,
        (await store.load(config.url))?.requiredScope,
      );
      for (let round = 1; ; round++) {
        port = await authorizeOnce({
          config,
          provider,
          port,
          portIsFixed: fixedPort !== undefined,
          scope,
          resourceMetadataUrl: challenge.resourceMetadataUrl,
          fetchFn,
          signal,
          returnUrl: options.returnUrl,
          scrub,
        });
        const verified = await verify(config, { store, logger }, check);
        if (verified.kind === 'failed') throw verified.error;
        const saved = provider.saved;
        if (verified.kind === 'ok' && saved !== undefined) {
          return {
            issuer: saved.issuer,
            scope: saved.tokens?.scope,
            expiresAt: saved.tokens?.expires_at,
            toolCount: verified.toolCount,
          };
        }
        if (verified.kind === 'refused') {
          // A login just made and refused: a server that moved to another authorization server
          // meanwhile gets a round with that one (discovered anew, LoginProvider.beginRound); for
          // any other server another round would end the same way.
          challenge = challengeIn(await challengeOf(config, fetchFn, check));
          if (saved === undefined || !(await movedAway(config, challenge, saved, fetchFn))) {
            throw refused(name);
          }
          scope = computeScopeUnion(scope, challenge.scope);
        } else if (verified.kind === 'step_up') {
          scope = computeScopeUnion(scope, verified.scope);
        }
        if (round >= MAX_ROUNDS) throw tooManyRounds(name, verified);
      }
    });
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.signal.reason;
    if (provider.saved !== undefined) scrub.learn(loginSecrets(provider.saved));
    throw loginError(name, error, scrub);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    deadline.abort();
  }
}

/** What a probe without a token says for the next round: a server that let it in names nothing. */
function challengeIn(answer: WithoutToken): Challenge {
  return answer.kind === 'challenged' ? answer.challenge : {};
}

interface RoundOptions {
  readonly config: RemoteServerConfig<'sse' | 'http'>;
  readonly provider: LoginProvider;
  /** 0: any free port. */
  readonly port: number;
  /** From oauth.callback_port: registered with the authorization server, so no other will do. */
  readonly portIsFixed: boolean;
  readonly scope: string | undefined;
  readonly resourceMetadataUrl: URL | undefined;
  readonly fetchFn: FetchLike;
  readonly signal: AbortSignal;
  readonly returnUrl: string | undefined;
  /** Taught the code and the PKCE verifier of the round. */
  readonly scrub: Scrubber;
}

/**
 * One authorization round: callback server up, the user sent to the authorization URL, the code
 * exchanged and the login saved. Returns the callback port, for the next round to reuse.
 */
async function authorizeOnce(round: RoundOptions): Promise<number> {
  const { config, provider, scope, fetchFn, signal, returnUrl } = round;
  const state = randomBytes(32).toString('base64url');
  const listen = (port: number) =>
    startCallbackServer({
      server: config.name,
      port,
      state,
      signal,
      ...(returnUrl === undefined ? {} : { returnUrl }),
    });
  // The port an earlier login registered may be taken now: then any port (and a new registration).
  const callback = await listen(round.port).catch((error: unknown) => {
    if (round.portIsFixed || round.port === 0) throw error;
    return listen(0);
  });
  try {
    provider.beginRound(callback.redirectUrl, state, scope);
    const common = {
      serverUrl: config.url,
      fetchFn,
      ...(scope === undefined ? {} : { scope }),
      ...(round.resourceMetadataUrl === undefined
        ? {}
        : { resourceMetadataUrl: round.resourceMetadataUrl }),
    };
    // forceReauthorization: a login asks the user, it never just refreshes what is stored.
    await auth(provider, { ...common, forceReauthorization: true }).catch(async (error) => {
      const legacy = await legacyIssuerDiscovery(
        error,
        config.url,
        round.resourceMetadataUrl,
        fetchFn,
      );
      if (legacy === undefined) throw error;
      provider.saveDiscoveryState(legacy);
      await auth(provider, { ...common, forceReauthorization: true });
    });
    const params = await callback.callback;
    checkResponseIssuer(provider, params.get('iss'));
    const error = params.get('error');
    if (error !== null) {
      throw new McpError(
        'login_failed',
        `Login to MCP server "${config.name}" was refused by the authorization server (${safeCode(error)}). Log in again to try again.`,
        { server: config.name },
      );
    }
    const code = params.get('code') ?? '';
    // An authorization server's error text may quote what it was sent.
    round.scrub.learn(credentials([code, provider.codeVerifier()]));
    await exchangeCode(provider, code, params.get('iss'), fetchFn);
    return callback.port;
  } finally {
    await callback.close();
  }
}

/** The callback port a dynamically registered client of an earlier login was registered with. */
async function previousPort(store: TokenStore, serverUrl: string): Promise<number> {
  const client = (await store.load(serverUrl))?.client;
  const uri =
    client !== undefined && 'redirect_uris' in client ? client.redirect_uris[0] : undefined;
  if (uri === undefined) return 0;
  const url = new URL(uri);
  return url.hostname === '127.0.0.1' ? Number(url.port) : 0;
}

/**
 * Runs `login` holding the server's login lock. Two logins to one server at once (two terminals,
 * or one and the connectors page) would each store their tokens over the other's, and the loser's
 * would stay valid at the authorization server, neither stored nor revoked: the second one fails
 * at once instead, before it asks anything of any server.
 */
async function oneAtATime<T>(
  store: TokenStore,
  config: RemoteServerConfig<'sse' | 'http'>,
  holdMs: number,
  login: () => Promise<T>,
): Promise<T> {
  let holding = false;
  try {
    return await store.withLoginLock(config.url, holdMs, () => {
      holding = true;
      return login();
    });
  } catch (error) {
    if (holding || !isInfraError(error, 'lock_timeout')) throw error;
    const { name } = config;
    throw new McpError(
      'login_failed',
      `Login to MCP server "${name}": another login to it is in progress, in this or another process. Finish or stop that one, then log in again if it is still needed (${error.message})`,
      { server: name },
    );
  }
}

function remote(config: McpServerConfig): RemoteServerConfig<'sse' | 'http'> {
  if (config.transport === 'stdio') {
    throw new McpError(
      'login_failed',
      `MCP server "${config.name}" is a stdio server; OAuth login is for remote (sse / http) servers. A stdio server takes its credentials from "env".`,
      { server: config.name },
    );
  }
  const grant = config.oauth?.grant?.kind;
  if (grant === 'client_credentials' || grant === 'cross_app_access') {
    throw new McpError(
      'login_failed',
      `MCP server "${config.name}" needs no login: its client gets its own tokens by the ${grant} grant (its "oauth" field). Reconnect it instead.`,
      { server: config.name },
    );
  }
  return config;
}

function refused(server: string): McpError {
  return new McpError(
    'login_failed',
    `Login to MCP server "${server}": the server refused the login just made (HTTP 401), though the authorization server it names issued it. Tell the server's operator; another login will not do better until that is fixed.`,
    { server },
  );
}

/** The last round's verdict, when it was not yet a login the server takes. */
function tooManyRounds(server: string, verified: Verified): McpError {
  if (verified.kind === 'refused') {
    return new McpError(
      'login_failed',
      `Login to MCP server "${server}": the server moved to another authorization server after each of ${MAX_ROUNDS} logins and refused them all (HTTP 401). Tell the server's operator.`,
      { server },
    );
  }
  const wanted = verified.kind === 'step_up' ? verified.scope : undefined;
  return new McpError(
    'login_failed',
    `Login to MCP server "${server}": the server still asks for more scope after ${MAX_ROUNDS} logins (it wants "${wanted ?? 'unknown'}"). The authorization server may not grant it to this account.`,
    { server },
  );
}

function loginError(server: string, error: unknown, scrub: Scrubber): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof IssuerMismatchError) return issuerError(server, error);
  // An OAuth error's code is what says why (invalid_grant, invalid_client); its text only explains.
  const why = withoutPage(
    error instanceof OAuthError
      ? `the authorization server answered ${error.code} (${messageOf(error)})`
      : messageOf(error),
  );
  // Bounded: the SDK quotes a token endpoint's whole body ("Raw body: ..."), megabytes if it likes.
  return new McpError(
    'login_failed',
    `Login to MCP server "${server}" failed: ${bounded(scrub(why))}. Log in again to try again.`,
    { server, cause: error },
  );
}

/**
 * The SDK quotes an error response's body; a web server's 404 or 500 page is HTML, which says
 * nothing a terminal can show: what matters (the status) comes before it.
 */
function withoutPage(message: string): string {
  return message.replace(/<(?:!DOCTYPE\s+html|html)\b[\s\S]*$/i, '(an HTML page)');
}

/**
 * An issuer check that failed: RFC 8414's on the authorization server's metadata, or RFC 9207's
 * on the authorization response (the callback's `iss`). Neither issuer is shown, and the SDK's
 * error is not kept as the cause (its message quotes them): the one received is whatever the
 * other side chose to send.
 */
function issuerError(server: string, error: IssuerMismatchError): McpError {
  const response = error.kind === 'authorization_response';
  const what = !response
    ? "its authorization server's metadata names an issuer other than the one it was found as"
    : error.received === undefined
      ? 'the authorization response carried no issuer (`iss`), though its authorization server says it always sends one'
      : 'the authorization response named an issuer (`iss`) other than the authorization server the login started with';
  const then = response
    ? 'The code was not used and nothing was stored: this is what a mix-up of authorization servers looks like.'
    : 'Nothing was sent to it.';
  return new McpError(
    'login_failed',
    `Login to MCP server "${server}" was stopped: ${what}. ${then} Log in again; if it fails the same way, tell the server's operator.`,
    { server },
  );
}

/** An OAuth error code from the callback is attacker-controllable: only its safe characters. */
function safeCode(code: string): string {
  return code.replace(/[^a-z0-9_.-]/gi, '').slice(0, 60) || 'no reason given';
}

function anySignal(a: AbortSignal, b: AbortSignal | null | undefined): AbortSignal {
  return b ? AbortSignal.any([a, b]) : a;
}
