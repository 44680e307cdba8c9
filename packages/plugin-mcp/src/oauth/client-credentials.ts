// The OAuth client_credentials grant (OAuth 2.1 §4.2): the client asks for a token of its own. It
// proves who it is with its secret (the SDK sends it as client_secret_basic or client_secret_post,
// whichever the authorization server supports), or with a private_key_jwt assertion (RFC 7523
// §2.2) signed by the key from mcp.json. The key is read at every token request — a rotated key
// file is picked up — and is never printed: messages name the field and the file, not the key.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { credentials } from '@epoch-agent/infra';
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
} from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import type { McpPrivateKeyJwt, McpSecretSource } from '../types.js';
import type { MachineGrant } from './machine-auth.js';

export interface ClientCredentialsOptions {
  /** The MCP server's name, for messages. */
  readonly server: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Sign the request instead of sending a secret. */
  readonly privateKeyJwt?: McpPrivateKeyJwt;
  /** The server's redaction policy: taught a key read from its file. */
  readonly scrub: Scrubber;
}

export function clientCredentialsGrant(options: ClientCredentialsOptions): MachineGrant {
  const { clientId, clientSecret, privateKeyJwt } = options;
  return {
    name: 'client_credentials',
    grantType: 'client_credentials',
    client: {
      client_id: clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
    },
    ...(privateKeyJwt === undefined
      ? {}
      : { addClientAuthentication: signedBy(options, clientId, privateKeyJwt) }),
    tokenRequest: async ({ scope }) =>
      new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
  };
}

// The assertion's audience is the authorization server's issuer (the SDK's default).
function signedBy(
  options: ClientCredentialsOptions,
  clientId: string,
  jwt: McpPrivateKeyJwt,
): AddClientAuthentication {
  return async (headers, params, url, metadata) => {
    const key = await loadKey(options, jwt);
    const sign = createPrivateKeyJwtAuth({
      issuer: clientId,
      subject: clientId,
      // jose reads PKCS #8 only; a PKCS #1 or SEC 1 PEM is converted first.
      privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
      alg: jwt.algorithm,
    });
    await sign(headers, params, url, metadata);
  };
}

async function loadKey(
  { server, scrub }: ClientCredentialsOptions,
  jwt: McpPrivateKeyJwt,
): Promise<KeyObject> {
  const pem = await readSecret(server, 'private_key', jwt.key);
  scrub.learn(credentials([pem]));
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw keyError(server, `${where(jwt.key)} is not a PEM private key`);
  }
  if (!canSign(key, jwt.algorithm)) {
    throw keyError(
      server,
      `${where(jwt.key)} is ${describeKey(key)}, which cannot sign ${jwt.algorithm} (oauth.signing_algorithm)`,
    );
  }
  return key;
}

/** The value of a credential field, read from its file when it names one. */
export async function readSecret(
  server: string,
  field: string,
  source: McpSecretSource,
): Promise<string> {
  if (source.kind === 'inline') return source.value;
  try {
    return (await readFile(source.path, 'utf8')).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new McpError(
      'oauth_failed',
      `MCP server "${server}": oauth.${field} names the file ${source.path}, which could not be read (${code}). Fix the path, or the file's permissions.`,
      { server },
    );
  }
}

function where(source: McpSecretSource): string {
  return source.kind === 'inline'
    ? 'oauth.private_key'
    : `the file ${source.path} (oauth.private_key)`;
}

function keyError(server: string, what: string): McpError {
  return new McpError(
    'oauth_failed',
    `MCP server "${server}": ${what}. Fix the "oauth" field of "${server}", then reconnect it.`,
    { server },
  );
}

/** Which algorithms a key can sign: RSA for RS/PS, each EC curve for its one ES size, Ed for EdDSA. */
function canSign(key: KeyObject, algorithm: string): boolean {
  const { asymmetricKeyType: type, asymmetricKeyDetails: details } = key;
  if (type === 'rsa') return /^(RS|PS)(256|384|512)$/.test(algorithm);
  if (type === 'rsa-pss') return /^PS(256|384|512)$/.test(algorithm);
  if (type === 'ec') return EC_CURVES[algorithm] === details?.namedCurve;
  if (type === 'ed25519' || type === 'ed448') return algorithm === 'EdDSA';
  return false;
}

const EC_CURVES: Readonly<Record<string, string>> = {
  ES256: 'prime256v1',
  ES384: 'secp384r1',
  ES512: 'secp521r1',
};

function describeKey(key: KeyObject): string {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return `an ${key.asymmetricKeyType ?? 'unknown'} key${curve === undefined ? '' : ` on ${curve}`}`;
}
