// The secret values of one server's config, field by field, and the server's redaction policy
// (infra's secretRedactor) built from them: what blanks them out of every text about the server
// that we did not write ourselves — its stderr, an SDK or network error, an authorization server's
// answer. Secrets that only appear later (a login's tokens, a key read from its file) are taught
// to the same policy by whoever reads them (redactor.learn).
import {
  argSecrets,
  credentials,
  envSecrets,
  headerSecrets,
  type Redactor,
  type Secret,
  secretRedactor,
  urlSecrets,
} from '@epoch-agent/infra';
import type { StoredLogin } from './oauth/token-store.js';
import {
  assertNever,
  type McpOAuthConfig,
  type McpOAuthGrant,
  type McpSecretSource,
  type McpServerConfig,
} from './types.js';

/** One server's redaction policy, as the modules of this package take it. */
export type Scrubber = Redactor;

/** A new policy for `config`'s server; one McpClient keeps one for its whole life. */
export function serverRedactor(config: McpServerConfig): Redactor {
  return secretRedactor(serverSecrets(withoutVariables(config)));
}

/**
 * `config` less its values that hold a `${VAR}`: `${API_KEY}` as written is no secret (messages
 * name it, to say what to set), and the value it stands for is learned at each start
 * (connection/start-config.ts). An argument is emptied, not removed, so `--token ${T}` still
 * reads as an option and its value.
 */
function withoutVariables(config: McpServerConfig): McpServerConfig {
  if (config.variables === undefined) return config;
  const templated = new Set(config.variables.map(({ field }) => field));
  const kept = (field: string, values: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(values).filter(([key]) => !templated.has(`${field}.${key}`)));
  switch (config.transport) {
    case 'stdio':
      return {
        ...config,
        args: config.args.map((arg, i) => (templated.has(`args[${i}]`) ? '' : arg)),
        env: kept('env', config.env),
      };
    case 'sse':
    case 'http':
      return {
        ...config,
        url: templated.has('url') ? '' : config.url,
        headers: kept('headers', config.headers),
      };
    default:
      return assertNever(config, 'transport');
  }
}

/** Every secret value `config` holds. */
export function serverSecrets(config: McpServerConfig): Secret[] {
  switch (config.transport) {
    case 'stdio':
      return [...argSecrets(config.args), ...envSecrets(config.env)];
    case 'sse':
    case 'http':
      return [
        ...urlSecrets(config.url),
        ...headerSecrets(config.headers),
        ...oauthSecrets(config.oauth),
      ];
    default:
      return assertNever(config, 'transport');
  }
}

/** What a stored login holds: its tokens and the secret of a client it registered. */
export function loginSecrets(login: StoredLogin): Secret[] {
  const { client } = login;
  return [
    ...(login.tokens === undefined ? [] : tokenSecrets(login.tokens)),
    ...credentials(['client_secret' in client ? client.client_secret : undefined]),
  ];
}

/** Tokens an authorization server issued (an ID token too, when OpenID Connect added one). */
export function tokenSecrets(tokens: {
  readonly access_token: string;
  readonly refresh_token?: string | undefined;
  readonly id_token?: string | undefined;
}): Secret[] {
  return credentials([tokens.access_token, tokens.refresh_token, tokens.id_token]);
}

function oauthSecrets(oauth: McpOAuthConfig | undefined): Secret[] {
  if (oauth === undefined) return [];
  return [
    ...credentials([oauth.clientSecret]),
    ...urlSecrets(oauth.clientMetadataUrl ?? ''),
    ...grantSecrets(oauth.grant),
  ];
}

function grantSecrets(grant: McpOAuthGrant | undefined): Secret[] {
  switch (grant?.kind) {
    case undefined:
    case 'authorization_code':
      return [];
    case 'client_credentials':
      return inline(grant.privateKeyJwt?.key);
    case 'cross_app_access': {
      const { clientSecret, idToken, issuer, tokenEndpoint } = grant.identityProvider;
      return [
        ...credentials([clientSecret]),
        ...inline(idToken),
        ...urlSecrets(issuer ?? ''),
        ...urlSecrets(tokenEndpoint ?? ''),
      ];
    }
    default:
      return assertNever(grant, 'oauth grant');
  }
}

/** A credential written into mcp.json; one kept in a file is learned when it is read. */
function inline(source: McpSecretSource | undefined): Secret[] {
  return credentials([source?.kind === 'inline' ? source.value : undefined]);
}
