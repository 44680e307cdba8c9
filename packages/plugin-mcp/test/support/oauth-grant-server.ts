// An MCP server with its own authorization server and identity provider, all on one 127.0.0.1
// listener in the test's process, for the grants a client runs by itself (client_credentials,
// cross-app access), for interactive logins (dynamic registration, an authorization endpoint
// that answers at once with a redirect to the callback, revocation) and for the metadata a login
// must refuse (its endpoints can be set). It records every request, every token request (path,
// Authorization header, form) and the bearer token of every MCP request; the test asserts on what
// was sent and decides, per token request, whether to grant it — or, as a hostile server, answers
// any request its own way (`intercept`).
//
// Layouts: `prm` — protected-resource metadata at /.well-known/oauth-protected-resource/mcp naming
// the authorization server `<origin><issuerPath>`; `2025-03-26` — none. Either way the
// authorization server's metadata is served at the origin's root and under the issuer's path.
//
// Scopes are real: a code carries the scope its authorization request asked for, and the tokens
// the scope of their code (or refresh token); a tool of `toolScopes` answers 403
// insufficient_scope to a token without its scope. The MCP server may move to another
// authorization server (`moveAuthorizationServer`): the old one keeps answering, but the MCP
// server takes only the new one's tokens from then on.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { answerMcp, type McpMessage } from './mcp-answers.js';
import { readBody } from './read-body.js';

export interface TokenRequest {
  /** /token (the authorization server) or /idp/token (the identity provider). */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly form: URLSearchParams;
}

/** Any request the server received. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** An answer of the test's own instead of the server's. */
export interface Reply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** Sent as it is when a string, as JSON otherwise. */
  readonly body?: unknown;
}

export interface OAuthGrantServerOptions {
  readonly layout?: 'prm' | '2025-03-26';
  /** The authorization server's issuer, and where its endpoints are: `<origin>` plus this path. */
  readonly issuerPath?: string;
  /** The issuer its metadata claims instead, for the issuer checks. */
  readonly claimedIssuer?: string;
  /** `prm` layout: the metadata names `<origin>/` as the authorization server, whatever the issuer. */
  readonly prmNamesOrigin?: boolean;
  /** In the metadata. Default ['client_credentials']. */
  readonly grantTypes?: readonly string[];
  /** In the metadata. Default ['client_secret_basic']. */
  readonly authMethods?: readonly string[];
  /** What the metadata names as its authorization_endpoint instead of `<issuer>/authorize`. */
  readonly authorizationEndpoint?: string;
  /** What the metadata names as its token_endpoint instead of `<issuer>/token`. */
  readonly tokenEndpoint?: string;
  /** The tokens' lifetime in seconds. Default 3600. */
  readonly expiresIn?: number;
  /** An OAuth error code refuses the request; undefined grants it. Default: grant every one. */
  readonly decide?: (request: TokenRequest) => string | undefined;
  /** Merged into every token answer: a hostile server's `token_type` or `expires_in`. */
  readonly tokenFields?: Record<string, unknown>;
  /** Answers a request before the server does; undefined lets the server answer. */
  readonly intercept?: (request: SeenRequest) => Reply | undefined;
  /** In the authorization server's metadata. Default: not there. */
  readonly scopesSupported?: readonly string[];
  /** The scope the MCP server's 401 challenge names. Default: none. */
  readonly challengeScope?: string;
  /** Tools offered besides `whoami`, each with the scope a tools/call of it needs. */
  readonly toolScopes?: Readonly<Record<string, string>>;
  /** Everything but tools/* is answered without a token: only tools/list's 401 names the scope. */
  readonly openHandshake?: boolean;
  /**
   * An MCP request carrying this header with this value is answered without a token: a key a
   * gateway takes instead, as a headers helper gives it.
   */
  readonly keyHeader?: readonly [name: string, value: string];
  /** The `iss` of the authorization response: the issuer (default), none, or another one. */
  readonly issParameter?: 'issuer' | 'none' | 'other';
  /** The authorization response carries this error instead of a code (the user said no). */
  readonly authorizationError?: string;
  /** The metadata's authorization_response_iss_parameter_supported. Default: not there. */
  readonly issParameterSupported?: boolean;
  /** The metadata's client_id_metadata_document_supported. Default: not there. */
  readonly clientIdMetadataDocumentSupported?: boolean;
  /** The protected-resource metadata's `resource` is the bare origin (no path, no `/`). */
  readonly pathlessResource?: boolean;
  /**
   * A real MCP server behind the authorization check (testkit's 2026-07-28 one, say): every MCP
   * request that passes the check is forwarded there, and its answer back, instead of answered
   * by mcp-answers.ts.
   */
  readonly upstream?: string;
}

export interface RunningOAuthGrantServer {
  /** The MCP endpoint. */
  readonly url: string;
  readonly origin: string;
  readonly issuer: string;
  readonly tokenRequests: TokenRequest[];
  /** Every request, in order. */
  readonly requests: SeenRequest[];
  /** The form of every revocation request. */
  readonly revocations: URLSearchParams[];
  /** The bearer token of each MCP request that carried one. */
  readonly bearers: string[];
  /** Tokens and ID-JAGs issued so far, in order. */
  readonly issued: string[];
  /** From now on every token issued so far is refused (401). */
  revokeAll(): void;
  /** The query of every authorization request, in order. */
  readonly authorizations: URLSearchParams[];
  /**
   * From now on the protected-resource metadata names `<origin><issuerPath>` as the authorization
   * server, and the MCP server takes only tokens that one issues.
   */
  moveAuthorizationServer(issuerPath: string): void;
  stop(): Promise<void>;
}

export async function startOAuthGrantServer(
  options: OAuthGrantServerOptions = {},
): Promise<RunningOAuthGrantServer> {
  const tokenRequests: TokenRequest[] = [];
  const requests: SeenRequest[] = [];
  const revocations: URLSearchParams[] = [];
  const bearers: string[] = [];
  const issued: string[] = [];
  const authorizations: URLSearchParams[] = [];
  /** The issuer path of the authorization server that issued each token the MCP server takes. */
  const issuedBy = new Map<string, string>();
  /** The scope of each code, access token and refresh token. */
  const scopeOf = new Map<string, string>();
  let origin = '';
  let issuerPath = options.issuerPath ?? '';
  /** Every authorization server the MCP server has named: each one keeps answering. */
  const issuerPaths = new Set([issuerPath]);
  const issuer = (path = issuerPath) => `${origin}${path}`;
  const legacy = options.layout === '2025-03-26';
  const resourceMetadataUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;
  /** Which authorization server `path` is an endpoint of, and which endpoint (the longest match). */
  const endpointOf = (path: string): { as: string; name: string } | undefined => {
    const as = [...issuerPaths]
      .filter((p) => path.startsWith(`${p}/`))
      .sort((a, b) => b.length - a.length)[0];
    return as === undefined ? undefined : { as, name: path.slice(as.length) };
  };
  const metadataOf = (path: string): string | undefined => {
    if (path === '/.well-known/oauth-authorization-server') return issuerPath;
    const prefix = '/.well-known/oauth-authorization-server';
    const as = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    return as !== undefined && issuerPaths.has(as) ? as : undefined;
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    const body = req.method === 'POST' ? await readBody(req) : '';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(value));
    const seen = { method: req.method ?? 'GET', path, headers: req.headers, body };
    requests.push(seen);
    const reply = options.intercept?.(seen);
    if (reply !== undefined) {
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
      return;
    }
    if (path === '/.well-known/oauth-protected-resource/mcp' && !legacy) {
      const named = options.prmNamesOrigin ? `${origin}/` : issuer();
      const resource = options.pathlessResource ? origin : `${origin}/mcp`;
      json(200, { resource, authorization_servers: [named] });
      return;
    }
    const metadataFor = metadataOf(path);
    if (metadataFor !== undefined) {
      const at = issuer(metadataFor);
      json(200, {
        issuer: options.claimedIssuer ?? at,
        authorization_endpoint: options.authorizationEndpoint ?? `${at}/authorize`,
        token_endpoint: options.tokenEndpoint ?? `${at}/token`,
        registration_endpoint: `${at}/register`,
        revocation_endpoint: `${at}/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: options.grantTypes ?? ['client_credentials'],
        token_endpoint_auth_methods_supported: options.authMethods ?? ['client_secret_basic'],
        ...optional('scopes_supported', options.scopesSupported),
        ...optional(
          'authorization_response_iss_parameter_supported',
          options.issParameterSupported,
        ),
        ...optional(
          'client_id_metadata_document_supported',
          options.clientIdMetadataDocumentSupported,
        ),
      });
      return;
    }
    const endpoint = endpointOf(path);
    if (req.method === 'GET' && endpoint?.name === '/authorize') {
      // The user said yes at once: straight back to the callback with a code.
      const query = new URL(req.url ?? '/', origin).searchParams;
      authorizations.push(query);
      const code = `code-${requests.length}`;
      scopeOf.set(code, query.get('scope') ?? '');
      const back = new URL(query.get('redirect_uri') ?? '');
      if (options.authorizationError === undefined) back.searchParams.set('code', code);
      else back.searchParams.set('error', options.authorizationError);
      back.searchParams.set('state', query.get('state') ?? '');
      const iss = options.issParameter ?? 'issuer';
      if (iss !== 'none') {
        back.searchParams.set(
          'iss',
          iss === 'issuer' ? issuer(endpoint.as) : 'https://mix-up.example',
        );
      }
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && endpoint?.name === '/register') {
      json(201, { ...JSON.parse(body), client_id: `client-${requests.length}` });
      return;
    }
    if (req.method === 'POST' && endpoint?.name === '/revoke') {
      revocations.push(new URLSearchParams(body));
      json(200, {});
      return;
    }
    if (req.method === 'POST' && (endpoint?.name === '/token' || path === '/idp/token')) {
      const request = {
        path,
        authorization: req.headers.authorization,
        form: new URLSearchParams(body),
      };
      tokenRequests.push(request);
      const error = options.decide?.(request);
      if (error !== undefined) {
        json(400, { error, error_description: `refused by the test (${error})` });
        return;
      }
      const token = `${path === '/idp/token' ? 'jag' : 'tok'}-${issued.length + 1}`;
      issued.push(token);
      if (path === '/idp/token') {
        json(200, {
          access_token: token,
          issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          token_type: 'N_A',
        });
        return;
      }
      issuedBy.set(token, endpoint?.as ?? issuerPath);
      // A user's login (a code, or a refresh of one) goes on with a refresh token.
      const grant = request.form.get('grant_type');
      const user = grant === 'authorization_code' || grant === 'refresh_token';
      const scope =
        grant === 'authorization_code'
          ? scopeOf.get(request.form.get('code') ?? '')
          : grant === 'refresh_token'
            ? scopeOf.get(request.form.get('refresh_token') ?? '')
            : (request.form.get('scope') ?? undefined);
      scopeOf.set(token, scope ?? '');
      if (user) scopeOf.set(`refresh-${token}`, scope ?? '');
      json(200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: options.expiresIn ?? 3600,
        ...(user ? { refresh_token: `refresh-${token}` } : {}),
        ...(scope ? { scope } : {}),
        ...options.tokenFields,
      });
      return;
    }
    if (path === '/mcp') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer !== undefined) bearers.push(bearer);
      const message = req.method === 'POST' ? (JSON.parse(body) as McpMessage) : undefined;
      const [keyName, key] = options.keyHeader ?? [];
      const keyed = keyName !== undefined && req.headers[keyName.toLowerCase()] === key;
      const open =
        keyed || (options.openHandshake === true && !message?.method.startsWith('tools/'));
      if (!open && (bearer === undefined || issuedBy.get(bearer) !== issuerPath)) {
        const scope =
          options.challengeScope === undefined ? '' : `, scope="${options.challengeScope}"`;
        const challenge = legacy
          ? 'Bearer'
          : `Bearer resource_metadata="${resourceMetadataUrl()}"${scope}`;
        res.writeHead(401, { 'www-authenticate': challenge }).end();
        return;
      }
      const tool = message?.method === 'tools/call' ? String(message.params?.name) : undefined;
      const needed = tool === undefined ? undefined : options.toolScopes?.[tool];
      const granted = scopeOf.get(bearer ?? '')?.split(' ') ?? [];
      if (needed !== undefined && !granted.includes(needed)) {
        const challenge = `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${resourceMetadataUrl()}"`;
        res.writeHead(403, { 'www-authenticate': challenge }).end();
        return;
      }
      if (options.upstream !== undefined) await forward(req, body, res, options.upstream);
      else {
        const tools = ['whoami', ...Object.keys(options.toolScopes ?? {})];
        answerMcp(req, res, message, { name: 'oauth-grant-fixture', tools });
      }
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    issuer: issuer(),
    tokenRequests,
    requests,
    revocations,
    bearers,
    issued,
    authorizations,
    revokeAll: () => issuedBy.clear(),
    moveAuthorizationServer: (path) => {
      issuerPath = path;
      issuerPaths.add(path);
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A field of the metadata when the test set it. */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Hop-by-hop and framing headers: each leg of a forwarded request has its own. */
const OWN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'keep-alive',
]);

/** `req` (its body read already) sent on to `upstream`, and the answer back as it streams. */
async function forward(
  req: IncomingMessage,
  body: string,
  res: ServerResponse,
  upstream: string,
): Promise<void> {
  const headers = Object.entries(req.headers).flatMap(([name, value]) =>
    OWN_HEADERS.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
  );
  const answer = await fetch(upstream, {
    method: req.method ?? 'GET',
    headers,
    ...(req.method === 'POST' ? { body } : {}),
  });
  res.writeHead(
    answer.status,
    [...answer.headers].filter(([name]) => !OWN_HEADERS.has(name)).flat(),
  );
  if (answer.body === null) {
    res.end();
    return;
  }
  Readable.fromWeb(answer.body as ReadableStream<Uint8Array>).pipe(res);
}
