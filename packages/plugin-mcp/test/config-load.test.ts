// mcp.json loading, table-driven over the fixture files in fixtures/config/: which servers load,
// what each becomes, and the exact diagnostics (severity, code, path, line:column). Every expected
// position also names the text found there, so a wrong number cannot pass by accident.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../src/config/fingerprint.js';
import {
  loadMcpConfig,
  type McpConfigLoad,
  parseMcpConfig,
  parseMcpServerEntries,
} from '../src/config/load.js';
import { MCP_CONFIG_DIAGNOSTIC_CODES } from '../src/config/report.js';
import { MCP_CONFIG_FIELDS } from '../src/config/schema.js';
import { EVERY_TOOL } from '../src/config/tool-choice.js';
import type { McpServerConfig } from '../src/types.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'config');

function fixture(name: string): { file: string; text: string; load: McpConfigLoad } {
  const file = join(FIXTURES, name);
  const text = readFileSync(file, 'utf8');
  return { file, text, load: parseMcpConfig(text, file) };
}

/** The text at a 1-based line:column. */
function textAt(text: string, line: number, column: number, length: number): string {
  return (text.split(/\r\n|\r|\n/)[line - 1] ?? '').slice(column - 1, column - 1 + length);
}

interface Expected {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** The text the position points at (its start). */
  readonly at: string;
  /** Words the message must contain. */
  readonly says?: readonly string[];
}

const error = (code: string, path: string, pos: string, at: string, says?: string[]): Expected =>
  expected('error', code, path, pos, at, says);
const warning = (code: string, path: string, pos: string, at: string, says?: string[]): Expected =>
  expected('warning', code, path, pos, at, says);

function expected(
  severity: 'error' | 'warning',
  code: string,
  path: string,
  pos: string,
  at: string,
  says: string[] = [],
): Expected {
  const [line, column] = pos.split(':').map(Number);
  return { severity, code, path, line: line ?? 0, column: column ?? 0, at, says };
}

interface Case {
  readonly fixture: string;
  readonly scenario: string;
  /** `name:transport` of every server that loads, in order. */
  readonly servers: readonly string[];
  readonly diagnostics: readonly Expected[];
}

const CASES: readonly Case[] = [
  {
    fixture: 'all-fields-snake.txt',
    scenario: 'every field in snake_case, with comments and trailing commas',
    servers: ['local:stdio', 'remote:http'],
    diagnostics: [],
  },
  {
    fixture: 'all-fields-camel.txt',
    scenario: 'every field in camelCase, transport and type swapped',
    servers: ['remote:http', 'local:stdio'],
    diagnostics: [],
  },
  {
    fixture: 'defaults.txt',
    scenario: 'minimal servers get the defaults',
    servers: ['minimal-stdio:stdio', 'minimal-sse:sse', 'relative-cwd:stdio'],
    diagnostics: [],
  },
  {
    fixture: 'transports.txt',
    scenario: 'transport from transport, type, streamable, url, or nothing',
    servers: [
      'type-http:http',
      'type-sse:sse',
      'type-stdio:stdio',
      'transport-http:http',
      'transport-streamable:http',
      'transport-streamable-http:http',
      'streamable-flag:http',
      'streamable-false:sse',
      'url-only:sse',
      'command-only:stdio',
      'aliases-agree:http',
    ],
    diagnostics: [],
  },
  {
    fixture: 'alias-conflicts.txt',
    scenario: 'transport beats type, transport and type beat streamable',
    servers: [
      'transport-wins:http',
      'transport-beats-streamable:sse',
      'type-beats-streamable:http',
    ],
    diagnostics: [
      warning('alias_conflict', 'servers.transport-wins.type', '3:54', '"sse"', [
        '"transport" wins',
        'Streamable HTTP',
      ]),
      warning('alias_conflict', 'servers.transport-beats-streamable.streamable', '4:71', 'true', [
        '"transport" wins',
        'SSE',
      ]),
      warning('alias_conflict', 'servers.type-beats-streamable.streamable', '5:62', 'false', [
        '"type" wins',
      ]),
    ],
  },
  {
    fixture: 'type-errors.txt',
    scenario: 'wrong types drop only their own server',
    servers: ['ok:stdio'],
    diagnostics: [
      error('invalid_type', 'servers.timeout-string.timeout', '5:54', '"30"', [
        'number of seconds',
      ]),
      error('invalid_type', 'servers.args-string.args', '6:48', '"x"', ['list of strings']),
      error('invalid_type', 'servers.args-number.args[1]', '7:55', '1', ['quote it']),
      error('invalid_type', 'servers.env-number.env.API_KEY', '8:59', '987654321987', ['string']),
      error('invalid_type', 'servers.env-list.env', '9:44', '["SECRET', [
        'object of string values',
      ]),
      error('invalid_type', 'servers.env-nested.env.TOKEN', '10:57', '["SECRET', ['got a list']),
      error('invalid_type', 'servers.header-bool.headers.Authorization', '11:84', 'true', [
        'headers',
      ]),
      error('invalid_type', 'servers.header-object.headers.X-Key', '12:78', '{ "v"', ['headers']),
      error('invalid_type', 'servers.flag-string.supports_parallel', '13:61', '"true"', [
        'true or false, without quotes',
      ]),
      error('invalid_type', 'servers.command-number.command', '14:36', '5', ['string']),
      error('invalid_value', 'servers.transport-unknown.transport', '15:41', '"websocket"', [
        '"stdio", "sse" or "http"',
      ]),
      error('invalid_type', 'servers.server-string', '16:22', '"npx server"', ['object of fields']),
      error('invalid_type', 'servers.timeout-null.connectTimeout', '17:59', 'null', [
        '"connectTimeout": 30',
      ]),
    ],
  },
  {
    fixture: 'range-errors.txt',
    scenario:
      'times and token caps out of range: zero, negative, fractional tokens, beyond a timer or the largest cap, infinite',
    servers: ['zeros-allowed:stdio', 'tiny:stdio', 'total-below-timeout:stdio'],
    diagnostics: [
      error('out_of_range', 'servers.zero-timeout.timeout', '3:52', '0', ['more than 0']),
      error('out_of_range', 'servers.negative-connect.connect_timeout', '4:64', '-1', [
        'more than 0',
      ]),
      error('out_of_range', 'servers.negative-keepalive.keepaliveInterval', '5:68', '-5', [
        'cannot be negative',
      ]),
      error('out_of_range', 'servers.too-long-lifetime.max_lifetime_seconds', '6:70', '3000000', [
        'at most 2147483',
      ]),
      error('invalid_type', 'servers.infinite-idle.idle_timeout_seconds', '7:66', '1e400', [
        'too large',
      ]),
      error('out_of_range', 'servers.zero-tokens.max_output_tokens', '8:61', '0', [
        'at least 1 token',
      ]),
      error('invalid_type', 'servers.fraction-tokens.maxOutputTokens', '9:63', '2.5', [
        'whole number of tokens',
      ]),
      error('out_of_range', 'servers.huge-tokens.max_output_tokens', '10:61', '20000000', [
        'at most 10,000,000 tokens',
      ]),
      error('out_of_range', 'servers.zero-total.max_total_timeout', '13:60', '0', ['more than 0']),
      warning('ignored_field', 'servers.total-below-timeout.maxTotalTimeout', '14:82', '30', [
        'less than its "timeout" (60 s)',
      ]),
    ],
  },
  {
    fixture: 'required.txt',
    scenario: 'missing command or url, empty command or cwd, urls that are not http(s)',
    servers: [],
    diagnostics: [
      error('missing_field', 'servers.no-command.command', '3:19', '{ "args"', [
        'needs "command"',
        'neither "transport" nor "url"',
      ]),
      error('invalid_value', 'servers.empty-command.command', '4:35', '"  "', ['is empty']),
      error('missing_field', 'servers.type-http-no-url.url', '5:25', '{ "type"', [
        'needs "url"',
        'its "type" says so',
      ]),
      error('missing_field', 'servers.streamable-no-url.url', '6:26', '{ "streamable"', [
        '"streamable": true',
      ]),
      error('invalid_value', 'servers.ftp-url.url', '7:25', '"ftp://', ['http:// or https://']),
      error('invalid_value', 'servers.not-a-url.url', '8:47', '"mcp.example', [
        'http:// or https://',
      ]),
      error('invalid_value', 'servers.empty-cwd.cwd', '9:45', '""', ['is empty']),
    ],
  },
  {
    fixture: 'ignored-fields.txt',
    scenario: 'fields of the other transport are ignored with a warning',
    servers: ['stdio-with-remote-fields:stdio', 'http-with-stdio-fields:http'],
    diagnostics: [
      warning('ignored_field', 'servers.stdio-with-remote-fields.url', '6:7', '"url"', ['stdio']),
      warning('ignored_field', 'servers.stdio-with-remote-fields.headers', '7:7', '"headers"'),
      warning(
        'ignored_field',
        'servers.stdio-with-remote-fields.streamable',
        '8:7',
        '"streamable"',
      ),
      warning('ignored_field', 'servers.http-with-stdio-fields.command', '13:7', '"command"', [
        'Streamable HTTP',
      ]),
      warning('ignored_field', 'servers.http-with-stdio-fields.args', '14:7', '"args"'),
      warning('ignored_field', 'servers.http-with-stdio-fields.env', '15:7', '"env"'),
      warning('ignored_field', 'servers.http-with-stdio-fields.cwd', '16:7', '"cwd"'),
    ],
  },
  {
    fixture: 'unknown-fields.txt',
    scenario: 'unknown fields are warnings with a did-you-mean; source has its own',
    servers: ['typos:stdio', 'labelled:stdio'],
    diagnostics: [
      warning('unknown_field', 'severs', '2:3', '"severs"', ['Did you mean "servers"?']),
      warning('unknown_field', 'servers.typos.conect_timeout', '6:7', '"conect_timeout"', [
        'Did you mean "connect_timeout"?',
      ]),
      warning('unknown_field', 'servers.typos.conectTimeout', '7:7', '"conectTimeout"', [
        'Did you mean "connectTimeout"?',
      ]),
      warning('unknown_field', 'servers.typos.idle_timeout', '8:7', '"idle_timeout"', [
        'Did you mean "idle_timeout_seconds"?',
      ]),
      warning('unknown_field', 'servers.typos.enviroment', '9:7', '"enviroment"', [
        'Did you mean "env"?',
      ]),
      warning('unknown_field', 'servers.typos.description', '10:7', '"description"', [
        'The fields are: transport',
      ]),
      warning('source_field', 'servers.labelled.source', '12:37', '"source"', [
        'has no effect',
        'the code that connects it',
      ]),
    ],
  },
  {
    fixture: 'duplicates.txt',
    scenario: 'a key, a server name or a field given twice: the later one counts',
    servers: ['spellings:stdio', 'repeated-key:stdio', 'twice:stdio'],
    diagnostics: [
      warning('duplicate_key', 'servers.twice', '3:5', '"twice"', ['line 6 is used']),
      warning('duplicate_field', 'servers.spellings.connectTimeout', '4:38', '"connectTimeout"', [
        '"connect_timeout" is used',
      ]),
      warning('duplicate_key', 'servers.repeated-key.timeout', '5:41', '"timeout": 1', [
        'line 5 is used',
      ]),
    ],
  },
  {
    fixture: 'syntax-error.txt',
    scenario: 'a syntax error loads nothing and says where',
    servers: [],
    diagnostics: [
      error('syntax_error', 'servers.broken.args', '4:34', '"args"', ['expected ","', 'Nothing']),
    ],
  },
  {
    fixture: 'servers-array.txt',
    scenario: 'servers written as a list',
    servers: [],
    diagnostics: [
      error('invalid_type', 'servers', '3:14', '[', ['object keyed by server name', 'a list']),
    ],
  },
  {
    fixture: 'oauth.txt',
    scenario: 'the oauth field: both spellings, its mistakes, and a stdio server that has one',
    servers: ['registered:http', 'camel:sse', 'stdio-oauth:stdio', 'both-spellings:http'],
    diagnostics: [
      warning('unknown_field', 'servers.camel.oauth.scopez', '11:104', '"scopez"', [
        'Did you mean "scopes"?',
      ]),
      error('out_of_range', 'servers.bad-port.oauth.callback_port', '16:35', '70000', [
        'from 1 to 65535',
      ]),
      error('out_of_range', 'servers.bad-port.oauth.refresh_skew', '16:58', '-1', ['0 or more']),
      error('missing_field', 'servers.secret-only.oauth', '21:16', '{', ['no client_id']),
      error(
        'invalid_value',
        'servers.plain-metadata-url.oauth.client_metadata_url',
        '26:41',
        '"http://',
        ['https://'],
      ),
      error('invalid_type', 'servers.not-an-object.oauth', '31:16', '"epoch-app"', [
        'must be an object',
      ]),
      warning('ignored_field', 'servers.stdio-oauth.oauth', '35:7', '"oauth"', [
        'no effect on a stdio server',
      ]),
      warning('duplicate_field', 'servers.both-spellings.oauth.clientId', '40:36', '"clientId"', [
        '"client_id" is used',
      ]),
    ],
  },
  {
    fixture: 'oauth-grants.txt',
    scenario: 'the oauth grants: what each needs, fields of another grant, credentials in files',
    servers: [
      'cc-secret:http',
      'cc-key-inline:http',
      'cc-key-file:sse',
      'xaa:http',
      'xaa-file:http',
      'code-explicit:http',
    ],
    diagnostics: [
      error('invalid_value', 'servers.bad-grant.oauth.grant', '17:27', '"password"', [
        '"client_credentials"',
        '"cross_app_access"',
      ]),
      error('invalid_value', 'servers.bad-alg.oauth.signing_algorithm', '19:89', '"HS256"', [
        '"ES256"',
        '"EdDSA"',
      ]),
      error('missing_field', 'servers.key-no-alg.oauth', '21:16', '{', [
        'private_key needs signing_algorithm',
      ]),
      error('missing_field', 'servers.alg-no-key.oauth', '23:16', '{', ['no private_key']),
      error('invalid_value', 'servers.secret-and-key.oauth.private_key', '25:89', '"/keys/k.pem"', [
        'both client_secret and private_key',
      ]),
      error('missing_field', 'servers.cc-no-credential.oauth', '27:16', '{', [
        'client_secret, or private_key with signing_algorithm',
      ]),
      error('missing_field', 'servers.cc-no-client.oauth', '29:16', '{', [
        'client_credentials grant needs client_id',
      ]),
      error('invalid_value', 'servers.key-with-code.oauth.privateKey', '31:83', '"/keys/k.pem"', [
        'privateKey is for the client_credentials grant',
        'grant is "authorization_code"',
      ]),
      error('invalid_value', 'servers.idp-with-cc.oauth.idp_client_id', '33:122', '"x"', [
        'idp_client_id is for the cross_app_access grant',
      ]),
      error('missing_field', 'servers.xaa-missing.oauth', '35:16', '{', [
        'idp_client_id is missing',
      ]),
      error('missing_field', 'servers.xaa-missing.oauth', '35:16', '{', [
        'idp_id_token is missing',
      ]),
      error(
        'invalid_value',
        'servers.xaa-bad-url.oauth.idp_token_endpoint',
        '37:62',
        '"idp.example.com',
        ['https:// URL'],
      ),
    ],
  },
  {
    fixture: 'mcp-servers.txt',
    scenario: "mcpServers (Claude Desktop's) is read as servers, each problem at its own line",
    servers: ['desktop:stdio'],
    diagnostics: [
      error('invalid_type', 'servers.typo.command', '5:26', '5', ['must be a string']),
      error('name_case_conflict', 'servers.Desktop', '6:5', '"Desktop"', ['only in case']),
    ],
  },
  {
    fixture: 'mcp-servers-and-servers.txt',
    scenario:
      'servers and mcpServers both: servers is read, the other is an error naming its entries',
    servers: ['mine:stdio'],
    diagnostics: [
      error('alias_conflict', 'mcpServers', '3:3', '"mcpServers"', [
        'both "servers" and "mcpServers"',
        '(pasted, more) is not loaded',
        'Move those entries into "servers"',
      ]),
    ],
  },
  {
    fixture: 'root-array.txt',
    scenario: 'a top level that is not an object',
    servers: [],
    diagnostics: [error('invalid_type', '', '1:1', '[{', ['must hold an object'])],
  },
];

describe('mcp.json fixtures', () => {
  it('every fixture file has a case', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(CASES.map((c) => c.fixture).sort());
  });

  for (const c of CASES) {
    it(`${c.fixture}: ${c.scenario}`, () => {
      const { file, text, load } = fixture(c.fixture);
      expect(load.servers.map((s) => `${s.name}:${s.transport}`)).toEqual(c.servers);
      expect(
        load.diagnostics.map(({ severity, code, path, line, column }) => ({
          severity,
          code,
          path,
          line,
          column,
        })),
      ).toEqual(
        c.diagnostics.map(({ severity, code, path, line, column }) => ({
          severity,
          code,
          path,
          line,
          column,
        })),
      );
      c.diagnostics.forEach((want, i) => {
        const got = load.diagnostics[i];
        expect(got?.file).toBe(file);
        expect(textAt(text, want.line, want.column, want.at.length)).toBe(want.at);
        for (const words of want.says ?? []) expect(got?.message).toContain(words);
      });
    });
  }

  it('no diagnostic of any fixture repeats a secret value', () => {
    for (const name of readdirSync(FIXTURES)) {
      for (const d of fixture(name).load.diagnostics) {
        const printed = JSON.stringify(d);
        expect(printed).not.toContain('SECRET');
        expect(printed).not.toContain('Bearer');
        expect(printed).not.toContain('987654321987');
      }
    }
  });

  it('every diagnostic code is one of the published codes', () => {
    for (const name of readdirSync(FIXTURES)) {
      for (const d of fixture(name).load.diagnostics) {
        expect(MCP_CONFIG_DIAGNOSTIC_CODES).toContain(d.code);
      }
    }
  });
});

describe('what the fields mean', () => {
  const byName = (load: McpConfigLoad, name: string): McpServerConfig | undefined =>
    load.servers.find((s) => s.name === name);

  const LOCAL: McpServerConfig = {
    name: 'local',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    env: { LOG_LEVEL: 'warn', API_TOKEN: 'SECRET-env-7f3a' },
    cwd: '/srv/mcp',
    timeoutMs: 30_000,
    maxTotalTimeoutMs: 120_000,
    connectTimeoutMs: 500,
    keepaliveIntervalMs: 0,
    idleTimeoutMs: 600_000,
    maxLifetimeMs: 3_600_000,
    supportsParallel: true,
    skipPreflight: true,
    maxOutputTokens: 4000,
    choice: EVERY_TOOL,
    defer: 'auto',
  };
  const REMOTE: McpServerConfig = {
    name: 'remote',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer SECRET-header-7f3a' },
    timeoutMs: 12_250,
    // Not written: the default, one hour.
    maxTotalTimeoutMs: 3_600_000,
    connectTimeoutMs: 5_000,
    keepaliveIntervalMs: 15_000,
    idleTimeoutMs: 0,
    maxLifetimeMs: 0,
    supportsParallel: false,
    skipPreflight: false,
    choice: EVERY_TOOL,
    defer: 'auto',
  };

  it('snake_case file: every field read, seconds become milliseconds', () => {
    const { load } = fixture('all-fields-snake.txt');
    expect(byName(load, 'local')).toEqual(LOCAL);
    expect(byName(load, 'remote')).toEqual(REMOTE);
  });

  it('camelCase file with type for transport: the same configs', () => {
    const { load } = fixture('all-fields-camel.txt');
    expect(byName(load, 'local')).toEqual(LOCAL);
    expect(byName(load, 'remote')).toEqual(REMOTE);
  });

  it('oauth: every nested field read in either spelling, scopes split on spaces', () => {
    const { load } = fixture('oauth.txt');
    expect(byName(load, 'registered')).toMatchObject({
      oauth: {
        clientId: 'epoch-app',
        clientSecret: 'SECRET-client-7f3a',
        scopes: ['read', 'write', 'admin'],
        callbackPort: 33418,
        refreshSkewMs: 120_000,
      },
    });
    expect(byName(load, 'camel')).toMatchObject({
      oauth: {
        clientMetadataUrl: 'https://epoch.example/oauth/client.json',
        callbackPort: 8123,
        refreshSkewMs: 500,
      },
    });
    expect(byName(load, 'both-spellings')).toMatchObject({ oauth: { clientId: 'a' } });
    expect(byName(load, 'stdio-oauth')).not.toHaveProperty('oauth');
  });

  it('oauth grants: written or implied by their fields, credentials inline or in a file', () => {
    const { load } = fixture('oauth-grants.txt');
    const grantOf = (name: string) => {
      const config = byName(load, name);
      return config === undefined || config.transport === 'stdio' ? undefined : config.oauth?.grant;
    };
    expect(grantOf('cc-secret')).toEqual({ kind: 'client_credentials' });
    expect(grantOf('cc-key-inline')).toEqual({
      kind: 'client_credentials',
      privateKeyJwt: {
        key: {
          kind: 'inline',
          value: '-----BEGIN PRIVATE KEY-----\nSECRETKEY\n-----END PRIVATE KEY-----\n',
        },
        algorithm: 'ES256',
      },
    });
    // A relative key path starts at the config file's directory, like cwd.
    expect(grantOf('cc-key-file')).toEqual({
      kind: 'client_credentials',
      privateKeyJwt: {
        key: { kind: 'file', path: join(FIXTURES, 'keys', 'client.pem') },
        algorithm: 'RS256',
      },
    });
    expect(grantOf('xaa')).toEqual({
      kind: 'cross_app_access',
      identityProvider: {
        issuer: 'https://idp.example.com',
        tokenEndpoint: 'https://idp.example.com/token',
        clientId: 'agent-at-idp',
        clientSecret: 'SECRET-idp-7f3a',
        idToken: { kind: 'inline', value: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln' },
      },
    });
    expect(grantOf('xaa-file')).toEqual({
      kind: 'cross_app_access',
      identityProvider: {
        issuer: 'https://idp.example.com',
        clientId: 'agent-at-idp',
        idToken: { kind: 'file', path: '/run/idp/id_token' },
      },
    });
    expect(grantOf('code-explicit')).toEqual({ kind: 'authorization_code' });
    // No diagnostic repeats a credential.
    expect(JSON.stringify(load.diagnostics)).not.toMatch(/SECRET|\/keys\/k\.pem/);
  });

  it('both field tables agree: every field of the seed has a camelCase spelling read here', () => {
    expect(MCP_CONFIG_FIELDS.map((f) => f.name)).toEqual([
      'transport',
      'type',
      'command',
      'args',
      'env',
      'cwd',
      // Beyond the seed's table: secrets kept out of the file.
      'env_file',
      'url',
      'streamable',
      'headers',
      // Beyond the seed's table: headers from a command.
      'headers_helper',
      'oauth',
      'timeout',
      'max_total_timeout',
      'connect_timeout',
      'keepalive_interval',
      'idle_timeout_seconds',
      'max_lifetime_seconds',
      'supports_parallel',
      'skip_preflight',
      // Beyond the seed's table: choosing what the model gets.
      'enabled',
      'disabled',
      'include_tools',
      'exclude_tools',
      // And how much of one tool result the model gets.
      'max_output_tokens',
      'defer',
      // And whether its tool definitions are pinned.
      'pin_tools',
      'elicitation',
      'start',
      'log_level',
      'task_calls',
    ]);
    expect(MCP_CONFIG_FIELDS.find((f) => f.name === 'connect_timeout')?.camelCase).toBe(
      'connectTimeout',
    );
  });

  it('defaults: timeout 300 s (an hour with progress), connect 60 s, keepalive 180 s, idle unset (off unless started on demand) and lifetime off, flags off', () => {
    const { file, load } = fixture('defaults.txt');
    const defaults = {
      timeoutMs: 300_000,
      maxTotalTimeoutMs: 3_600_000,
      connectTimeoutMs: 60_000,
      keepaliveIntervalMs: 180_000,
      maxLifetimeMs: 0,
      supportsParallel: false,
      skipPreflight: false,
      choice: EVERY_TOOL,
      defer: 'auto',
    };
    expect(byName(load, 'minimal-stdio')).toEqual({
      name: 'minimal-stdio',
      transport: 'stdio',
      command: 'my-server',
      args: [],
      env: {},
      ...defaults,
    });
    expect(byName(load, 'minimal-sse')).toEqual({
      name: 'minimal-sse',
      transport: 'sse',
      url: 'http://127.0.0.1:8080/sse',
      headers: {},
      sseChosen: { at: { file, line: 4, column: 5 }, by: 'url' },
      ...defaults,
    });
  });

  it('an SSE entry remembers where it is written, and whether its url alone made it SSE', () => {
    const { file, load } = fixture('transports.txt');
    const sse = load.servers.flatMap((s) => (s.transport === 'sse' ? [s] : []));
    const by = Object.fromEntries(sse.map((s) => [s.name, s.sseChosen?.by]));
    expect(
      Object.entries(by)
        .filter(([, how]) => how === 'url')
        .map(([name]) => name),
    ).toEqual(['url-only']);
    expect(sse.every((s) => s.sseChosen !== undefined)).toBe(true);
    const first = sse.find((s) => s.name === 'url-only');
    if (first === undefined) throw new Error('unreachable');
    expect(first.sseChosen?.at).toEqual({ file, line: 12, column: 5 });
    // Where it is written is not part of the connection: the same entry elsewhere is the same.
    const moved = parseMcpConfig(
      '{\n\n "servers": { "url-only": { "url": "https://a.example/sse" } } }',
      'other.json',
    );
    const [again] = moved.servers;
    expect(again?.transport === 'sse' && again.sseChosen?.at.line).toBe(3);
    expect(again && fingerprint(again)).toBe(fingerprint(first));
  });

  it("a host's url-only entry points at its origin", () => {
    const { servers } = parseMcpServerEntries(
      { remote: { url: 'https://a.example/sse' } },
      { origin: 'hostCapabilities.mcpServers', baseDir: '/' },
    );
    expect(servers[0]).toMatchObject({
      transport: 'sse',
      sseChosen: { at: { file: 'hostCapabilities.mcpServers', line: 1, column: 1 }, by: 'url' },
    });
  });

  it('a relative cwd is resolved against the directory of the file', () => {
    const { load } = fixture('defaults.txt');
    const server = byName(load, 'relative-cwd');
    expect(server?.transport === 'stdio' && server.cwd).toBe(join(FIXTURES, 'plugins', 'demo'));
  });

  it('{"type":"http","url":…} is Streamable HTTP, not SSE inferred from the url', () => {
    const load = parseMcpConfig(
      '{ "servers": { "remote": { "type": "http", "url": "https://mcp.example.com/mcp" } } }',
      'mcp.json',
    );
    expect(load.diagnostics).toEqual([]);
    expect(load.servers.map((s) => s.transport)).toEqual(['http']);
  });

  it('a tiny positive time stays positive: it does not round down to 0, which means off', () => {
    const server = byName(fixture('range-errors.txt').load, 'tiny');
    expect(server?.timeoutMs).toBe(1);
    expect(server?.keepaliveIntervalMs).toBe(1);
  });

  it('max_total_timeout below timeout has no effect: a call may always run for timeout', () => {
    const server = byName(fixture('range-errors.txt').load, 'total-below-timeout');
    expect(server?.maxTotalTimeoutMs).toBe(60_000);
  });

  it('both spellings given: snake_case is used', () => {
    expect(byName(fixture('duplicates.txt').load, 'spellings')?.connectTimeoutMs).toBe(7_000);
  });

  it('a repeated key or server name: the later one is used', () => {
    const { load } = fixture('duplicates.txt');
    expect(byName(load, 'repeated-key')?.timeoutMs).toBe(2_000);
    const twice = byName(load, 'twice');
    expect(twice?.transport === 'stdio' && twice.command).toBe('second');
  });

  it('a server with every kind of warning still loads', () => {
    const text = `{ "servers": { "w": {
      "command": "old", "transport": "stdio", "type": "stdio", "headers": {}, "source": "host",
      "tiemout": 1, "connectTimeout": 1, "connect_timeout": 2, "command": "srv"
    } } }`;
    const load = parseMcpConfig(text, 'f');
    expect(load.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      'warning duplicate_key',
      'warning ignored_field',
      'warning source_field',
      'warning unknown_field',
      'warning duplicate_field',
    ]);
    expect(load.servers).toMatchObject([{ name: 'w', command: 'srv', connectTimeoutMs: 2_000 }]);
  });
});

describe('did you mean', () => {
  it.each([
    ['conect_timeout', 'connect_timeout'],
    ['conectTimeout', 'connectTimeout'],
    ['ConnectTimeout', 'connectTimeout'],
    ['connect-timeout', 'connect_timeout'],
    ['Command', 'command'],
    ['comand', 'command'],
    ['hedaers', 'headers'],
    ['trasnport', 'transport'],
    ['timeout_ms', 'timeout'],
    ['timeoutSeconds', 'timeout'],
    ['keepalive', 'keepalive_interval'],
    ['max_lifetime', 'max_lifetime_seconds'],
    ['idleTimeout', 'idleTimeoutSeconds'],
    ['skipPreFlight', 'skipPreflight'],
    ['supports_paralel', 'supports_parallel'],
    ['environment', 'env'],
  ])('%s -> %s', (typed, meant) => {
    const load = parseMcpConfig(`{ "servers": { "s": { "command": "x", "${typed}": 1 } } }`, 'f');
    expect(load.diagnostics).toMatchObject([
      {
        severity: 'warning',
        code: 'unknown_field',
        path: `servers.s.${typed}`,
        line: 1,
        column: 39,
      },
    ]);
    expect(load.diagnostics[0]?.message).toContain(`Did you mean "${meant}"?`);
    expect(load.servers).toHaveLength(1);
  });

  it.each(['name', 'description', 'autoApprove', 'alwaysAllow'])(
    '%s: no guess, the list of fields',
    (typed) => {
      const load = parseMcpConfig(`{ "servers": { "s": { "command": "x", "${typed}": 1 } } }`, 'f');
      expect(load.diagnostics[0]?.message).not.toContain('Did you mean');
      expect(load.diagnostics[0]?.message).toContain('connect_timeout');
    },
  );
});

describe('text that is not a list of servers', () => {
  // The scanner's end token after an unterminated block comment has length 1, every time it is
  // asked: a loop that waited for a token of length 0 never ended, and `epoch` hung at start.
  // Read in a child process (the built ./config entry, which `npm test` builds first), so that a
  // loop that does not end fails this test at its timeout instead of hanging the test worker.
  it.each([
    ['a file that is only an unterminated comment', '/*'],
    ['a file that ends in one', '{ "servers": {} }\n/* later'],
    ['one after a stray word', 'e\n/*'],
  ])('%s: a syntax error, read to its end', (_, text) => {
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { parseMcpConfig } from '@epoch-agent/plugin-mcp/config'; console.log(JSON.stringify(parseMcpConfig(process.argv[1], 'mcp.json').diagnostics.map((d) => d.code)));",
        text,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(child.error).toBeUndefined();
    expect(JSON.parse(child.stdout)).toEqual(['syntax_error']);
    expect(parseMcpConfig(text, 'mcp.json').diagnostics.map((d) => d.code)).toEqual([
      'syntax_error',
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['only whitespace', '  \n\t\n'],
    ['only a comment', '// nothing here yet\n/* later */'],
    ['an empty object', '{}'],
    ['no servers yet', '{ "servers": {} }'],
  ])('%s: no servers and no diagnostics', (_, text) => {
    expect(parseMcpConfig(text, 'mcp.json')).toEqual({
      servers: [],
      overrides: [],
      diagnostics: [],
    });
  });

  it.each([
    ['null', 'null', 'null'],
    ['a string', '"servers"', 'a string'],
    ['a number', '42', 'a number'],
  ])('a top level of %s is an error at 1:1', (_, text, kind) => {
    const { servers, diagnostics } = parseMcpConfig(text, 'mcp.json');
    expect(servers).toEqual([]);
    expect(diagnostics).toMatchObject([
      { severity: 'error', code: 'invalid_type', path: '', line: 1, column: 1, file: 'mcp.json' },
    ]);
    expect(diagnostics[0]?.message).toContain(kind);
  });

  it('servers: null and servers: "x" are errors at the value', () => {
    for (const value of ['null', '"fs"', '3']) {
      expect(parseMcpConfig(`{\n  "servers": ${value}\n}`, 'f').diagnostics).toMatchObject([
        { severity: 'error', code: 'invalid_type', path: 'servers', line: 2, column: 14 },
      ]);
    }
  });

  it('a byte order mark does not shift columns', () => {
    const text = '{ "servers": { "a": { "command": 1 } } }';
    const load = parseMcpConfig(`\uFEFF${text}`, 'f');
    expect(load.diagnostics).toMatchObject([{ path: 'servers.a.command', line: 1, column: 34 }]);
    expect(load).toEqual(parseMcpConfig(text, 'f'));
  });

  it('CRLF and CR line ends count as one line each', () => {
    for (const eol of ['\r\n', '\r']) {
      const text = ['{', '  "servers": {', '    "a": { "command": 1 }', '  }', '}'].join(eol);
      expect(parseMcpConfig(text, 'f').diagnostics).toMatchObject([
        { path: 'servers.a.command', line: 3, column: 23 },
      ]);
    }
  });

  it('a syntax error at the end of the file points past the last character', () => {
    const load = parseMcpConfig('{\n  "servers": {\n', 'f');
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toMatchObject([{ code: 'syntax_error', line: 3, column: 1 }]);
  });
});

describe('loadMcpConfig reads a real file', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'epoch-config-'));
  });
  afterEach(async () => {
    await chmod(home, 0o700).catch(() => undefined);
    await rm(home, { recursive: true, force: true });
  });

  it('a missing file is no servers and no error', async () => {
    const path = mcpConfigPath({ EPOCH_HOME: home });
    expect(await loadMcpConfig(path)).toEqual({ servers: [], overrides: [], diagnostics: [] });
  });

  it('the file at mcpConfigPath() loads as its text parses', async () => {
    const path = mcpConfigPath({ EPOCH_HOME: home });
    const text = readFileSync(join(FIXTURES, 'type-errors.txt'), 'utf8');
    await writeFile(path, text);
    expect(await loadMcpConfig(path)).toEqual(parseMcpConfig(text, path));
  });

  it('a directory where the file should be is an unreadable-file error', async () => {
    const path = mcpConfigPath({ EPOCH_HOME: home });
    await mkdir(path);
    const load = await loadMcpConfig(path);
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toMatchObject([
      { severity: 'error', code: 'unreadable_file', file: path, path: '', line: 1, column: 1 },
    ]);
    expect(load.diagnostics[0]?.message).toContain('directory');
  });

  // root reads a file whatever its mode, so EACCES can only be produced for another user.
  it.skipIf(process.getuid?.() === 0)('a file without read permission is an error', async () => {
    const path = mcpConfigPath({ EPOCH_HOME: home });
    await writeFile(path, '{ "servers": {} }');
    await chmod(path, 0o000);
    const load = await loadMcpConfig(path);
    expect(load.diagnostics).toMatchObject([{ severity: 'error', code: 'unreadable_file' }]);
    expect(load.diagnostics[0]?.message).toContain('permission denied');
  });

  it('a file inside a path that is not a directory is an error, not "missing"', async () => {
    const blocker = join(home, 'not-a-dir');
    await writeFile(blocker, '');
    const path = join(blocker, 'mcp.json');
    const load = await loadMcpConfig(path);
    expect(load.diagnostics).toMatchObject([{ code: 'unreadable_file', file: path }]);
  });
});

describe('names that differ only in case', () => {
  it('loads the first and leaves the later one out, with an error at its key naming both', () => {
    const text =
      '{\n  "servers": {\n    "everything": { "command": "a" },\n    "Everything": { "command": "b" }\n  }\n}\n';
    const load = parseMcpConfig(text, '/home/u/mcp.json');
    expect(load.servers.map(({ name }) => name)).toEqual(['everything']);
    expect(load.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'name_case_conflict',
        file: '/home/u/mcp.json',
        path: 'servers.Everything',
        line: 4,
        column: 5,
        message: expect.stringMatching(
          /^MCP server "Everything" is not loaded: its name differs from "everything" \(line 3\) only in case/,
        ),
      },
    ]);
    // Still known as written, so what is said about it can point at it.
    expect(load.positions?.servers.get('Everything')?.key).toEqual({ line: 4, column: 5 });
  });
});
