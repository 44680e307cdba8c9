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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  const valid = new Set<string>();
  let origin = '';
  const issuerPath = options.issuerPath ?? '';
  const issuer = () => `${origin}${issuerPath}`;
  const legacy = options.layout === '2025-03-26';
  const metadataPaths = new Set([
    '/.well-known/oauth-authorization-server',
    `/.well-known/oauth-authorization-server${issuerPath}`,
  ]);

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
      json(200, { resource: `${origin}/mcp`, authorization_servers: [named] });
      return;
    }
    if (metadataPaths.has(path)) {
      json(200, {
        issuer: options.claimedIssuer ?? issuer(),
        authorization_endpoint: options.authorizationEndpoint ?? `${issuer()}/authorize`,
        token_endpoint: options.tokenEndpoint ?? `${issuer()}/token`,
        registration_endpoint: `${issuer()}/register`,
        revocation_endpoint: `${issuer()}/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: options.grantTypes ?? ['client_credentials'],
        token_endpoint_auth_methods_supported: options.authMethods ?? ['client_secret_basic'],
      });
      return;
    }
    if (req.method === 'GET' && path === `${issuerPath}/authorize`) {
      // The user said yes at once: straight back to the callback with a code.
      const query = new URL(req.url ?? '/', origin).searchParams;
      const back = new URL(query.get('redirect_uri') ?? '');
      back.searchParams.set('code', `code-${requests.length}`);
      back.searchParams.set('state', query.get('state') ?? '');
      back.searchParams.set('iss', issuer());
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && path === `${issuerPath}/register`) {
      json(201, { ...JSON.parse(body), client_id: `client-${requests.length}` });
      return;
    }
    if (req.method === 'POST' && path === `${issuerPath}/revoke`) {
      revocations.push(new URLSearchParams(body));
      json(200, {});
      return;
    }
    if (req.method === 'POST' && (path === `${issuerPath}/token` || path === '/idp/token')) {
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
      valid.add(token);
      // A user's login (a code, or a refresh of one) goes on with a refresh token.
      const grant = request.form.get('grant_type');
      const user = grant === 'authorization_code' || grant === 'refresh_token';
      json(200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: options.expiresIn ?? 3600,
        ...(user ? { refresh_token: `refresh-${token}` } : {}),
        ...options.tokenFields,
      });
      return;
    }
    if (path === '/mcp') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer !== undefined) bearers.push(bearer);
      if (bearer === undefined || !valid.has(bearer)) {
        const challenge = legacy
          ? 'Bearer'
          : `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
        res.writeHead(401, { 'www-authenticate': challenge }).end();
        return;
      }
      answerMcp(req, res, body);
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
    revokeAll: () => valid.clear(),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Streamable HTTP without sessions: every POST answered with JSON, no event stream. */
function answerMcp(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (req.method !== 'POST') {
    res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  const message = JSON.parse(body) as {
    id?: number;
    method: string;
    params?: Record<string, unknown>;
  };
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const result =
    message.method === 'initialize'
      ? {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'oauth-grant-fixture', version: '0.0.1' },
        }
      : message.method === 'tools/list'
        ? { tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }
        : message.method === 'tools/call'
          ? { content: [{ type: 'text', text: 'machine' }] }
          : {};
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
