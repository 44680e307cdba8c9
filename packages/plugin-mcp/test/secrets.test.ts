// Every field of a server config that holds a secret is known to the server's redaction policy:
// random configs of every transport, with random values in each such field (OAuth included), and
// a text that quotes each value as written, inside JSON and inside a URL, line by line for a
// multi-line key, fed to a stderr ring in random chunks: no value the policy promises to hide
// survives. And what a login adds later (its tokens, its client's secret) is hidden once learned.
import { MIN_SECRET_LENGTH, REDACTED, type SecretKind } from '@epoch-agent/infra';
import { TEST_SERVER_DEFAULTS } from '@epoch-agent/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredLogin } from '../src/oauth/token-store.js';
import { loginSecrets, serverRedactor } from '../src/secrets.js';
import { StderrRing } from '../src/transport/stderr-ring.js';
import type { McpOAuthConfig, McpServerConfig } from '../src/types.js';

const unit = fc.constantFrom(...'abcdefghijkXYZ0123456789-_.~+/=:@!$%&*"\\ é€\n');
const value = fc.string({ unit, minLength: 1, maxLength: 30 });
// A credential after an auth scheme (`Bearer <token>`) starts and ends with no white space.
const token = value.filter((v) => v === v.trim());
// What can travel in an HTTP header.
const headerValue = fc.string({
  unit: fc.constantFrom(...'abcXYZ0123-_.~+/=:@!$%&*"\\'),
  minLength: 1,
  maxLength: 30,
});
const pem = fc
  .array(
    fc.string({
      unit: fc.constantFrom(...'ABCDEFabcdef0123456789+/'),
      minLength: 8,
      maxLength: 64,
    }),
    {
      minLength: 1,
      maxLength: 4,
    },
  )
  .map((lines) =>
    ['-----BEGIN PRIVATE KEY-----', ...lines, '-----END PRIVATE KEY-----'].join('\n'),
  );

interface Placed {
  readonly value: string;
  readonly kind: SecretKind;
}
const credential = (v: string): Placed => ({ value: v, kind: 'credential' });
const setting = (v: string): Placed => ({ value: v, kind: 'setting' });
const enc = encodeURIComponent;

const TIMES = { ...TEST_SERVER_DEFAULTS, supportsParallel: false } as const;

const stdio = fc
  .record({
    apiKey: value,
    token: value,
    bearer: token,
    docker: value,
    secretEnv: value,
    neutralEnv: value,
  })
  // A neutral-named variable holding a URL or an absolute path is an address, not a secret.
  .filter(({ neutralEnv }) => !/^[a-z][a-z\d+.-]*:\/\/|^(~?\/|[a-z]:[\\/])/i.test(neutralEnv))
  .map((v): { config: McpServerConfig; placed: Placed[] } => ({
    config: {
      ...TIMES,
      name: 's',
      transport: 'stdio',
      command: 'node',
      args: [
        'srv.mjs',
        `--api-key=${v.apiKey}`,
        '--token',
        v.token,
        '--header',
        `Authorization: Bearer ${v.bearer}`,
        '-e',
        `SECRET=${v.docker}`,
      ],
      env: { API_TOKEN: v.secretEnv, LOG_LEVEL: v.neutralEnv },
    },
    placed: [v.apiKey, v.token, v.bearer, v.docker, v.secretEnv]
      .map(credential)
      .concat(setting(v.neutralEnv)),
  }));

const grant = fc.oneof(
  fc.record({ kind: fc.constant('client_credentials' as const), key: pem }).map(({ key }) => ({
    grant: {
      kind: 'client_credentials' as const,
      privateKeyJwt: { key: { kind: 'inline' as const, value: key }, algorithm: 'ES256' },
    },
    placed: [credential(key)],
  })),
  fc.record({ idpSecret: value, idToken: value, endpointKey: value }).map((v) => ({
    grant: {
      kind: 'cross_app_access' as const,
      identityProvider: {
        clientId: 'idp-client',
        clientSecret: v.idpSecret,
        idToken: { kind: 'inline' as const, value: v.idToken },
        tokenEndpoint: `https://idp.example.com/token?key=${enc(v.endpointKey)}`,
      },
    },
    placed: [credential(v.idpSecret), credential(v.idToken), credential(v.endpointKey)],
  })),
);

const remote = fc
  .record({
    transport: fc.constantFrom('sse' as const, 'http' as const),
    password: value,
    userToken: value,
    urlKey: value,
    urlRegion: value,
    bearer: headerValue,
    apiKeyHeader: headerValue,
    tenant: headerValue,
    clientSecret: value,
    metadataToken: value,
    grant,
  })
  .map((v): { config: McpServerConfig; placed: Placed[] } => {
    const oauth: McpOAuthConfig = {
      clientId: 'client-1',
      clientSecret: v.clientSecret,
      clientMetadataUrl: `https://client.example.com/meta.json?token=${enc(v.metadataToken)}`,
      grant: v.grant.grant,
    };
    return {
      config: {
        ...TIMES,
        name: 'r',
        transport: v.transport,
        url: `https://alice:${enc(v.password)}@mcp.example.com/mcp?api_key=${enc(v.urlKey)}&region=${enc(v.urlRegion)}`,
        headers: {
          Authorization: `Bearer ${v.bearer}`,
          'X-Api-Key': v.apiKeyHeader,
          'X-Tenant': v.tenant,
        },
        oauth,
      },
      placed: [
        credential(v.password),
        credential(v.urlKey),
        setting(v.urlRegion),
        credential(v.bearer),
        credential(v.apiKeyHeader),
        setting(v.tenant),
        credential(v.clientSecret),
        credential(v.metadataToken),
        ...v.grant.placed,
      ],
    };
  });

/** Each value as a program prints it: as is, inside JSON, inside a URL, and line by line. */
function quoted({ value: v }: Placed): string[] {
  const lines = v.split('\n').map((line) => `  [dump] ${line.trim()}`);
  return [`value=${v};`, `{"v":${JSON.stringify(v)}}`, `https://h/?q=${enc(v)}`, ...lines];
}

/** What must not be found: each value long enough to be looked for, in each of its forms. */
function forms({ value: v, kind }: Placed): string[] {
  const min = MIN_SECRET_LENGTH[kind];
  const pieces = [v, ...v.split('\n').map((line) => line.trim())].filter((p) => p.length >= min);
  return pieces.flatMap((p) => [p, JSON.stringify(p).slice(1, -1), enc(p)]);
}

describe('serverRedactor', () => {
  it('hides every secret field of random configs of every transport, in any chunking (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(stdio, remote),
        fc.array(fc.nat(), { maxLength: 30 }),
        ({ config, placed }, cuts) => {
          const scrub = serverRedactor(config);
          const text = `${placed.flatMap(quoted).join('\n')}\n${JSON.stringify(config)}\n`;
          const bytes = Buffer.from(text);
          const ring = new StderrRing({ scrub });
          let at = 0;
          for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
            ring.write(bytes.subarray(at, cut));
            at = cut;
          }
          ring.write(bytes.subarray(at));
          ring.end();
          for (const output of [scrub(text), ring.tail()]) {
            for (const form of placed.flatMap(forms)) expect(output).not.toContain(form);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leaves values too short to look for, and plain words around secrets, as they are', () => {
    const scrub = serverRedactor({
      ...TIMES,
      name: 's',
      transport: 'stdio',
      command: 'node',
      args: ['srv.mjs', '--port=3000', '--api-key=sk-0123456789'],
      env: {
        LOG_LEVEL: 'warn',
        DEBUG: '1',
        NODE_ENV: 'staging',
        DATA_DIR: '/srv/data',
        API_KEY: 'abc',
      },
    });
    const text = 'level warn, debug 1, staging, port 3000, reading /srv/data/x.json with key abc';
    expect(scrub(text)).toBe(text);
    expect(scrub('--api-key=sk-0123456789 rejected')).toBe(`--api-key=${REDACTED} rejected`);
  });
});

describe('loginSecrets', () => {
  it('hides a stored login’s tokens and its registered client’s secret once learned', () => {
    const login: StoredLogin = {
      serverUrl: 'https://mcp.example.com/mcp',
      issuer: 'https://auth.example.com',
      client: { client_id: 'dyn-1', client_secret: 'dyn-secret-42' },
      tokens: {
        access_token: 'at-0123456789',
        refresh_token: 'rt-0123456789',
        token_type: 'Bearer',
        obtained_at: 0,
      },
      authorizationServerUrl: 'https://auth.example.com',
    };
    const scrub = serverRedactor({
      ...TIMES,
      name: 'r',
      transport: 'http',
      url: login.serverUrl,
      headers: {},
    });
    const text = 'invalid token at-0123456789 (refresh rt-0123456789, client dyn-1:dyn-secret-42)';
    expect(scrub(text)).toBe(text);
    scrub.learn(loginSecrets(login));
    expect(scrub(text)).toBe(
      `invalid token ${REDACTED} (refresh ${REDACTED}, client dyn-1:${REDACTED})`,
    );
  });
});
