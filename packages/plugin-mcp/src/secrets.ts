// The secret values of one server's config, and a scrubber that blanks them out of text we did not
// write ourselves: a server's stderr, an SDK or network error message. Config printers hide
// secrets by field (infra `redact`); this catches the same values when they come back inside
// free text, e.g. a server that logs its own env at start.
import { REDACTED } from '@epoch-agent/infra';
import {
  assertNever,
  type McpOAuthGrant,
  type McpSecretSource,
  type McpServerConfig,
} from './types.js';

// Short values ("1", "warn") are settings rather than credentials, and blanking them would garble
// every message that happens to contain the same word.
const MIN_SECRET_LENGTH = 6;

export type Scrubber = (text: string) => string;

export function secretScrubber(config: McpServerConfig): Scrubber {
  const secrets = secretValues(config)
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    // Longest first, so a secret that contains another is blanked whole.
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

function secretValues(config: McpServerConfig): string[] {
  switch (config.transport) {
    case 'stdio':
      return Object.values(config.env);
    case 'sse':
    case 'http':
      return [
        ...Object.values(config.headers),
        ...urlSecrets(config.url),
        ...(config.oauth?.clientSecret === undefined ? [] : [config.oauth.clientSecret]),
        ...grantSecrets(config.oauth?.grant),
      ];
    default:
      return assertNever(config, 'transport');
  }
}

function grantSecrets(grant: McpOAuthGrant | undefined): string[] {
  const inline = (source: McpSecretSource | undefined) =>
    source?.kind === 'inline' ? [source.value] : [];
  switch (grant?.kind) {
    case undefined:
    case 'authorization_code':
      return [];
    case 'client_credentials':
      return inline(grant.privateKeyJwt?.key);
    case 'cross_app_access': {
      const { clientSecret, idToken } = grant.identityProvider;
      return [...(clientSecret === undefined ? [] : [clientSecret]), ...inline(idToken)];
    }
    default:
      return assertNever(grant, 'oauth grant');
  }
}

function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    const userinfo = [parsed.username, parsed.password].map(decodeURIComponent);
    return [...userinfo, ...parsed.searchParams.values()];
  } catch {
    return [];
  }
}
