// `epoch mcp logout <name>`'s backend: delete every stored login of a server, then revoke its
// tokens (RFC 7009) where the authorization server has a revocation endpoint. Revocation is best
// effort — the login is deleted either way; the result says whether the server was told.
import { bounded, type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import {
  assertSecureTokenEndpoint,
  buildDiscoveryUrls,
  type FetchLike,
  selectClientAuthMethod,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { startedOrThrow } from '../connection/start-config.js';
import { McpError } from '../errors/mcp-error.js';
import { loginSecrets, serverRedactor } from '../secrets.js';
import type { McpServerConfig } from '../types.js';
import { oauthFetch } from './oauth-fetch.js';
import { type StoredLogin, TokenStore } from './token-store.js';

export interface McpLogoutOptions {
  readonly config: McpServerConfig;
  /** Default: logins under `$EPOCH_HOME/oauth`. */
  readonly store?: TokenStore;
  readonly fetchFn?: FetchLike;
  readonly logger?: Logger;
}

export interface McpLogoutResult {
  /** Stored logins deleted (0: there was none). */
  readonly removed: number;
  /** The authorization server confirmed the revocation of every token it could be sent. */
  readonly revoked: boolean;
  /** Why a revocation did not happen or failed, when it did not; free of secrets. */
  readonly revokeProblem?: string;
}

export async function logoutFromServer(options: McpLogoutOptions): Promise<McpLogoutResult> {
  const config = await startedOrThrow(options.config);
  if (config.transport === 'stdio') {
    throw new McpError(
      'login_failed',
      `MCP server "${config.name}" is a stdio server; it has no OAuth login to log out of.`,
      { server: config.name },
    );
  }
  const logger = options.logger ?? silentLogger;
  const store = options.store ?? new TokenStore({ logger });
  const logins = await store.remove(config.url);
  // A login whose tokens the authorization server refused already (invalid_grant) has none left.
  const withTokens = logins.filter((login) => login.tokens !== undefined);
  const problems: string[] = [];
  if (logins.length > 0 && withTokens.length === 0) {
    problems.push(
      'the stored login held no tokens any more (the authorization server had refused them)',
    );
  }
  // An authorization server's error text is not ours: it may echo the config's or a login's secrets.
  const scrub = serverRedactor(config);
  const fetchFn = oauthFetch({
    server: config.name,
    ...(options.fetchFn === undefined ? {} : { fetchFn: options.fetchFn }),
  });
  for (const login of withTokens) {
    scrub.learn(loginSecrets(login));
    try {
      await revoke(login, fetchFn);
    } catch (error) {
      problems.push(bounded(scrub(messageOf(error))));
    }
  }
  const revoked = withTokens.length > 0 && problems.length === 0;
  return {
    removed: logins.length,
    revoked,
    ...(problems.length === 0 ? {} : { revokeProblem: problems.join('; ') }),
  };
}

async function revoke(login: StoredLogin, fetchFn: FetchLike): Promise<void> {
  const metadata = await revocationMetadata(login, fetchFn);
  const endpoint = metadata?.revocation_endpoint;
  if (endpoint === undefined) throw new Error('the authorization server offers no revocation');
  const url = assertSecureTokenEndpoint(endpoint);
  // The refresh token first: revoking it ends the grant, and with it (on most servers) the rest.
  const tokens = [
    ['refresh_token', login.tokens?.refresh_token],
    ['access_token', login.tokens?.access_token],
  ] as const;
  for (const [hint, token] of tokens) {
    if (token === undefined) continue;
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
    const body = new URLSearchParams({ token, token_type_hint: hint });
    authenticate(login, metadata, headers, body);
    const response = await fetchFn(url, { method: 'POST', headers, body });
    await response.body?.cancel().catch(() => {});
    // RFC 7009 §2.2: 200 also for a token that was already invalid.
    if (!response.ok) throw new Error(`revoking the ${hint} answered HTTP ${response.status}`);
  }
}

function authenticate(
  login: StoredLogin,
  metadata: RevocationMetadata | undefined,
  headers: Headers,
  body: URLSearchParams,
): void {
  const { client } = login;
  const supported =
    metadata?.revocation_endpoint_auth_methods_supported ??
    metadata?.token_endpoint_auth_methods_supported ??
    [];
  const secret = 'client_secret' in client ? client.client_secret : undefined;
  switch (selectClientAuthMethod(client, supported)) {
    case 'client_secret_basic':
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret ?? '')}`).toString('base64')}`,
      );
      return;
    case 'client_secret_post':
      body.set('client_id', client.client_id);
      body.set('client_secret', secret ?? '');
      return;
    case 'none':
      body.set('client_id', client.client_id);
      return;
  }
}

/** RFC 8414's revocation fields (RFC 7009 §2 endpoint, and how clients authenticate there). */
const revocationSchema = z.object({
  issuer: z.string(),
  revocation_endpoint: z.string(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

type RevocationMetadata = Partial<z.infer<typeof revocationSchema>>;

/**
 * Where to revoke and how to authenticate there. The stored metadata has it when discovery found
 * an RFC 8414 document; of an OpenID Connect discovery document the SDK keeps only the OIDC
 * fields, and `revocation_endpoint` is not one. Then the documents are read again, as they are.
 */
async function revocationMetadata(
  login: StoredLogin,
  fetchFn: FetchLike,
): Promise<RevocationMetadata | undefined> {
  const stored = login.authorizationServerMetadata as RevocationMetadata | undefined;
  if (stored?.revocation_endpoint !== undefined) return stored;
  for (const { url } of buildDiscoveryUrls(login.authorizationServerUrl)) {
    const response = await fetchFn(url, { headers: { accept: 'application/json' } }).catch(
      () => undefined,
    );
    const document = response?.ok ? await response.json().catch(() => undefined) : undefined;
    if (response !== undefined && document === undefined) {
      await response.body?.cancel().catch(() => {});
    }
    const parsed = revocationSchema.safeParse(document);
    // Only a document of the authorization server that issued the tokens (RFC 8414 §3.3).
    if (parsed.success && parsed.data.issuer === login.issuer) return parsed.data;
  }
  return stored;
}
