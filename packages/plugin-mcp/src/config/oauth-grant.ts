// The grant of a remote server's `oauth` field (step 2): which grant its fields ask for, whether
// that grant has everything it needs, and where each credential lives — written into mcp.json, or
// in a file it names (a relative path is taken from the config file's directory).
//
// `grant` may be left out where the fields say it: idp_* fields mean cross_app_access, a
// private_key means client_credentials. Without either it stays open: an interactive login, or
// client_credentials where the authorization server offers only that (decided at connect).
// Messages never repeat a value: keys, tokens and secrets are all written here.
import { resolve } from 'node:path';
import { assertNever, type McpOAuthGrant, type McpSecretSource } from '../types.js';
import type { Report } from './report.js';

export const GRANTS = ['authorization_code', 'client_credentials', 'cross_app_access'] as const;
type GrantKind = (typeof GRANTS)[number];

/** The JWS algorithms of a private_key_jwt assertion: asymmetric ones only. */
export const SIGNING_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

const KEY_FIELDS = ['private_key', 'signing_algorithm'] as const;
const IDP_FIELDS = [
  'idp_issuer',
  'idp_token_endpoint',
  'idp_client_id',
  'idp_client_secret',
  'idp_id_token',
] as const;

export type GrantFieldName =
  | 'grant'
  | 'client_id'
  | 'client_secret'
  | (typeof KEY_FIELDS)[number]
  | (typeof IDP_FIELDS)[number];

export interface GrantSite {
  readonly server: string;
  /** The nested fields by snake_case name, whichever spelling was written. */
  readonly fields: Readonly<Partial<Record<GrantFieldName, unknown>>>;
  /** The key as written in the file, for a diagnostic's path. */
  readonly keyOf: (field: GrantFieldName) => string;
  readonly report: Report;
  /** Where a relative credential path starts: the config file's directory. */
  readonly baseDir: string;
}

/** `ok: false` when a field is missing or belongs to another grant (then `report` has why). */
export function toGrant(site: GrantSite): { ok: boolean; grant?: McpOAuthGrant } {
  const { fields, server } = site;
  const given = (names: readonly GrantFieldName[]) => names.filter((n) => fields[n] !== undefined);
  const explicit = fields.grant as GrantKind | undefined;
  const idpFields = given(IDP_FIELDS);
  const keyFields = given(KEY_FIELDS);
  const kind: GrantKind | undefined =
    explicit ??
    (idpFields.length > 0
      ? 'cross_app_access'
      : keyFields.length > 0
        ? 'client_credentials'
        : undefined);
  let ok = true;
  /** A missing field is reported on `oauth` itself; a wrong one on its key. */
  const fail = (
    code: 'missing_field' | 'invalid_value',
    field: GrantFieldName | undefined,
    message: string,
  ) => {
    ok = false;
    site.report(
      'error',
      code,
      field === undefined ? ['oauth'] : ['oauth', site.keyOf(field)],
      `oauth of server "${server}": ${message}`,
    );
  };
  const why =
    explicit === undefined ? 'its idp_* fields make it cross_app_access' : `grant is "${explicit}"`;
  if (kind !== 'client_credentials') {
    for (const field of keyFields) {
      fail(
        'invalid_value',
        field,
        `${site.keyOf(field)} is for the client_credentials grant (a private_key_jwt client), but ${why}. Remove it, or set "grant": "client_credentials".`,
      );
    }
  }
  if (kind !== 'cross_app_access') {
    for (const field of idpFields) {
      fail(
        'invalid_value',
        field,
        `${site.keyOf(field)} is for the cross_app_access grant, but grant is "${kind}". Remove it, or set "grant": "cross_app_access".`,
      );
    }
  }
  if (kind !== undefined && kind !== 'authorization_code' && fields.client_id === undefined) {
    fail(
      'missing_field',
      undefined,
      `the ${kind} grant needs client_id: the client registered with the MCP server's authorization server.`,
    );
  }
  switch (kind) {
    case undefined:
      return { ok };
    case 'authorization_code':
      return { ok, grant: { kind } };
    case 'client_credentials': {
      const key = fields.private_key as string | undefined;
      const algorithm = fields.signing_algorithm as string | undefined;
      if (key !== undefined && fields.client_secret !== undefined) {
        fail(
          'invalid_value',
          'private_key',
          'it has both client_secret and private_key, and a client authenticates with one. Keep client_secret (client_secret_basic / post) or private_key (private_key_jwt).',
        );
      } else if (key === undefined && fields.client_secret === undefined) {
        fail(
          'missing_field',
          undefined,
          'the client_credentials grant needs the client\'s credential: client_secret, or private_key with signing_algorithm (e.g. "signing_algorithm": "ES256").',
        );
      }
      if (key !== undefined && algorithm === undefined) {
        fail(
          'missing_field',
          undefined,
          'private_key needs signing_algorithm, the JWS algorithm to sign with, e.g. "signing_algorithm": "ES256".',
        );
      }
      if (key === undefined && algorithm !== undefined) {
        fail(
          'missing_field',
          undefined,
          'signing_algorithm is set but there is no private_key to sign with; add private_key (PEM text or the path of a PEM file).',
        );
      }
      if (key === undefined || algorithm === undefined) return { ok, grant: { kind } };
      return { ok, grant: { kind, privateKeyJwt: { key: source(site, key, isPem), algorithm } } };
    }
    case 'cross_app_access': {
      const need = (field: GrantFieldName, what: string) => {
        if (fields[field] === undefined)
          fail('missing_field', undefined, `${field} is missing: ${what}.`);
      };
      need('idp_client_id', 'the client id the identity provider knows this agent by');
      need(
        'idp_id_token',
        "the user's ID token from the identity provider, or the path of its file",
      );
      if (fields.idp_issuer === undefined && fields.idp_token_endpoint === undefined) {
        fail(
          'missing_field',
          undefined,
          "cross_app_access needs the identity provider's idp_token_endpoint, or its idp_issuer to discover it from.",
        );
      }
      for (const field of ['idp_issuer', 'idp_token_endpoint'] as const) {
        const url = fields[field] as string | undefined;
        if (url !== undefined && !isHttpUrl(url)) {
          fail(
            'invalid_value',
            field,
            `${site.keyOf(field)} must be an https:// URL (http:// only on this machine).`,
          );
        }
      }
      const clientId = fields.idp_client_id as string | undefined;
      const idToken = fields.idp_id_token as string | undefined;
      if (!ok || clientId === undefined || idToken === undefined) return { ok };
      const text = (field: GrantFieldName) => fields[field] as string | undefined;
      const issuer = text('idp_issuer');
      const tokenEndpoint = text('idp_token_endpoint');
      const clientSecret = text('idp_client_secret');
      return {
        ok,
        grant: {
          kind,
          identityProvider: {
            ...(issuer === undefined ? {} : { issuer }),
            ...(tokenEndpoint === undefined ? {} : { tokenEndpoint }),
            clientId,
            ...(clientSecret === undefined ? {} : { clientSecret }),
            idToken: source(site, idToken, isJwt),
          },
        },
      };
    }
    default:
      return assertNever(kind, 'oauth grant');
  }
}

// A PEM key or a JWT can be told from a path by its shape; anything else is a path.
function source(site: GrantSite, text: string, inline: (text: string) => boolean): McpSecretSource {
  return inline(text)
    ? { kind: 'inline', value: text }
    : { kind: 'file', path: resolve(site.baseDir, text) };
}

function isPem(text: string): boolean {
  return text.trimStart().startsWith('-----BEGIN ');
}

function isJwt(text: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text.trim());
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
