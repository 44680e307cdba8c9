// The `oauth` field of a remote server entry, in both steps: its raw shape (step 1, a check whose
// type errors land on the nested field, e.g. `servers.x.oauth.callback_port`) and what it
// means (step 2: spellings folded, unknown keys warned about, combinations checked; the grant and
// its fields in oauth-grant.ts).
//
// Messages never repeat a value: `client_secret` is a secret, and a client id is close to one.
import type { McpOAuthConfig } from '../types.js';
import { type Check, list, number, oneOf, shape, text } from './check.js';
import { GRANTS, SIGNING_ALGORITHMS, toGrant } from './oauth-grant.js';
import type { Report } from './report.js';
import { suggest } from './suggest.js';

/** Each nested field by its snake_case name, with its camelCase spelling. */
const OAUTH_FIELDS = {
  client_id: 'clientId',
  client_secret: 'clientSecret',
  client_metadata_url: 'clientMetadataUrl',
  scopes: 'scopes',
  callback_port: 'callbackPort',
  refresh_skew: 'refreshSkew',
  grant: 'grant',
  private_key: 'privateKey',
  signing_algorithm: 'signingAlgorithm',
  idp_issuer: 'idpIssuer',
  idp_token_endpoint: 'idpTokenEndpoint',
  idp_client_id: 'idpClientId',
  idp_client_secret: 'idpClientSecret',
  idp_id_token: 'idpIdToken',
} as const;

type OAuthFieldName = keyof typeof OAUTH_FIELDS;
const NAMES = Object.keys(OAUTH_FIELDS) as OAuthFieldName[];
const SPELLINGS = new Map<string, OAuthFieldName>(
  NAMES.flatMap((name) => [
    [name, name],
    [OAUTH_FIELDS[name], name],
  ]),
);

function nested(key: string): Check<unknown> {
  switch (SPELLINGS.get(key)) {
    case 'scopes':
      return list(
        text(`every entry of oauth.${key} must be a string`),
        `oauth.${key} must be a list of strings, e.g. "${key}": ["read", "write"]`,
      );
    case 'callback_port':
      return number(`oauth.${key} must be a port number, e.g. "${key}": 33418`, {
        int: `oauth.${key} must be a whole number`,
        min: [1, `oauth.${key} must be from 1 to 65535`],
        max: [65535, `oauth.${key} must be from 1 to 65535`],
      });
    case 'refresh_skew':
      return number(`oauth.${key} must be a number of seconds, e.g. "${key}": 60`, {
        min: [0, `oauth.${key} must be 0 or more seconds`],
        max: [86_400, `oauth.${key} must be at most 86400 seconds (a day)`],
      });
    case 'grant':
      return choice(key, GRANTS);
    case 'signing_algorithm':
      return choice(key, SIGNING_ALGORITHMS);
    default:
      return text(`oauth.${key} must be a string`, { empty: `oauth.${key} is empty` });
  }
}

function choice(key: string, values: readonly string[]): Check<string> {
  return oneOf(values, `oauth.${key} must be one of ${values.map((v) => `"${v}"`).join(', ')}`);
}

/** Step 1: the raw `oauth` object; unknown keys are kept so step 2 can warn about them. */
export function oauthSchema(key: string): Check<Readonly<Record<string, unknown>>> {
  return shape(
    Object.fromEntries([...SPELLINGS.keys()].map((spelling) => [spelling, nested(spelling)])),
    {
      message: `${key} must be an object, e.g. "${key}": { "client_id": "my-app", "scopes": ["read"] }`,
      keepOthers: true,
    },
  );
}

/** An https:// URL with a path: what a client metadata document's address must be. */
function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

/**
 * Step 2: the `oauth` field of server `name`, or undefined when a combination is wrong (then
 * `report` has the errors). Paths given to `report` are relative to the server entry.
 */
export function toOAuthConfig(
  name: string,
  raw: Readonly<Record<string, unknown>>,
  report: Report,
  /** The config file's directory: where a relative credential path starts. */
  baseDir: string,
): McpOAuthConfig | undefined {
  for (const key of Object.keys(raw)) {
    if (SPELLINGS.has(key)) continue;
    const guess = suggest(key, [...SPELLINGS.keys()]);
    report(
      'warning',
      'unknown_field',
      ['oauth', key],
      `"${key}" is not an oauth field and is ignored. ${guess === undefined ? `The oauth fields are: ${NAMES.join(', ')} (camelCase spellings work too).` : `Did you mean "${guess}"?`}`,
      'key',
    );
  }
  // Both spellings given: snake_case wins, as it does for the fields of the entry itself.
  const fields: Partial<Record<OAuthFieldName, unknown>> = {};
  const written = new Map<OAuthFieldName, string>();
  for (const name of NAMES) {
    const camel = OAUTH_FIELDS[name];
    const camelValue = camel === name ? undefined : raw[camel];
    if (raw[name] !== undefined && camelValue !== undefined) {
      report(
        'warning',
        'duplicate_field',
        ['oauth', camel],
        `oauth "${camel}" and "${name}" are the same setting, given twice; "${name}" is used and "${camel}" is ignored. Remove one.`,
        'key',
      );
    }
    fields[name] = raw[name] ?? camelValue;
    written.set(name, raw[name] === undefined ? camel : name);
  }
  const clientId = fields.client_id as string | undefined;
  const clientSecret = fields.client_secret as string | undefined;
  const clientMetadataUrl = fields.client_metadata_url as string | undefined;
  let ok = true;
  if (clientSecret !== undefined && clientId === undefined) {
    ok = false;
    report(
      'error',
      'missing_field',
      ['oauth'],
      `oauth of server "${name}" has a client_secret but no client_id; add the client_id the secret belongs to.`,
    );
  }
  if (clientMetadataUrl !== undefined && !isHttpsUrl(clientMetadataUrl)) {
    ok = false;
    report(
      'error',
      'invalid_value',
      ['oauth', 'client_metadata_url'],
      `oauth.client_metadata_url of server "${name}" must be an https:// URL with a path (the address of the client's metadata document).`,
    );
  }
  if (clientMetadataUrl !== undefined && clientId !== undefined) {
    ok = false;
    report(
      'error',
      'invalid_value',
      ['oauth', 'client_metadata_url'],
      `oauth of server "${name}" gives both client_id and client_metadata_url; a client has one id. Keep client_id for a registered client, or client_metadata_url for a metadata-document client.`,
    );
  }
  const { ok: grantOk, grant } = toGrant({
    server: name,
    fields,
    keyOf: (field) => written.get(field) ?? field,
    report,
    baseDir,
  });
  if (!ok || !grantOk) return undefined;
  const scopes = (fields.scopes as string[] | undefined)
    ?.flatMap((s) => s.split(/\s+/))
    .filter(Boolean);
  // Every field spelled out: one added to McpOAuthConfig and forgotten here does not compile.
  const config: { readonly [K in keyof McpOAuthConfig]-?: McpOAuthConfig[K] | undefined } = {
    clientId,
    clientSecret,
    clientMetadataUrl,
    scopes,
    callbackPort: fields.callback_port as number | undefined,
    refreshSkewMs:
      fields.refresh_skew === undefined
        ? undefined
        : Math.round((fields.refresh_skew as number) * 1000),
    grant,
  };
  return Object.fromEntries(
    Object.entries(config).filter(([, value]) => value !== undefined),
  ) as McpOAuthConfig;
}
