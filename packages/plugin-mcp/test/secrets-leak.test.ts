// No secret a server's config holds leaves the plugin: random configs put random secret values in
// every field that holds one, real servers echo them back — a stdio process printing its whole
// environment and argv to stderr in random chunks and in its JSON-RPC errors, an HTTP server
// printing the request it got in its error page — and every surface is searched for every value:
// statuses (message and stderr tail), the errors tool calls throw, and every log line. A control
// runs the same scenarios with the redaction policy switched off and must find a leak on every
// one of those surfaces, so the search is known to work.
import { join } from 'node:path';
import { MIN_SECRET_LENGTH, messageOf, REDACTED, secretRedactor } from '@epoch-agent/infra';
import { TEST_SERVER_DEFAULTS } from '@epoch-agent/testkit';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { EVERY_TOOL } from '../src/config/tool-choice.js';
import { McpClient } from '../src/connection/client.js';
import { McpRegistry } from '../src/registry/registry.js';
import type * as Secrets from '../src/secrets.js';
import { serverStatus } from '../src/status.js';
import type { McpServerConfig, McpServerStatus } from '../src/types.js';
import {
  assertNoLeak,
  echoingHttpServer,
  inUrl,
  leaks,
  mustHide,
  type Placed,
  type Surfaces,
  statusSurfaces,
  strings,
} from './support/leak-search.js';
import { memoryLogger } from './support/recording.js';

// The switch of the control: off, every server's policy is one that knows no secret, and learns
// or keeps none (a start gives it the values of its `${VAR}`s).
const redaction = vi.hoisted(() => ({ off: false }));
vi.mock('../src/secrets.js', async (importOriginal) => {
  const real = await importOriginal<typeof Secrets>();
  return {
    ...real,
    serverRedactor: (config: McpServerConfig) =>
      redaction.off
        ? Object.assign(secretRedactor(), { learn: () => {}, keep: () => {} })
        : real.serverRedactor(config),
  };
});

const FIXTURE = join(import.meta.dirname, 'fixtures', 'echo-secrets-server.mjs');

// What keys, passwords and tokens are made of, plus what JSON, URLs and shells escape: quotes,
// backslashes, spaces, `%`, non-ASCII, newlines. Never `<` or `>`: a value made of the marker's
// own characters could be "found" in `<redacted>` itself.
const CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'-_.~+/=:@!$%^&*()[]{}|;\',?"\\ #',
  'é',
  '€',
  '漢',
  '\n',
];
const anyValue = fc.string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength: 40 });
// Header values travel as HTTP header bytes: printable ASCII, no leading or trailing space.
const headerValue = fc.string({
  unit: fc.constantFrom(...CHARS.filter((c) => /^[!-~]$/.test(c))),
  minLength: 1,
  maxLength: 40,
});
// A neutral-named variable holding a path or a URL is an address, not a secret (envSecrets):
// those are left out here; settings too short to look for ("1", "warn") are mixed in.
const settingValue = fc.oneof(
  anyValue.filter((v) => !/^[a-z][a-z\d+.-]*:\/\//i.test(v) && !/^(~?\/|[A-Za-z]:[\\/])/.test(v)),
  fc.constantFrom('1', 'warn', 'debug', 'true'),
);

const CREDENTIAL_VARS = ['API_TOKEN', 'CLIENT_SECRET', 'DB_PASSWORD', 'OPENAI_KEY', 'GITHUB_PAT'];
const SETTING_VARS = ['LOG_LEVEL', 'REGION', 'WORKSPACE', 'MODE'];

const stdioScenario = fc.record({
  apiKey: anyValue.filter((v) => v.length >= MIN_SECRET_LENGTH.credential),
  token: fc.option(anyValue, { nil: undefined }),
  // A credential after an auth scheme starts and ends with no white space.
  bearer: fc.option(
    anyValue.filter((v) => v === v.trim()),
    { nil: undefined },
  ),
  dockerEnv: fc.option(anyValue, { nil: undefined }),
  urlPassword: fc.option(anyValue, { nil: undefined }),
  urlKey: fc.option(anyValue, { nil: undefined }),
  urlRegion: fc.option(anyValue, { nil: undefined }),
  credentialEnv: fc.dictionary(fc.constantFrom(...CREDENTIAL_VARS), anyValue),
  settingEnv: fc.dictionary(fc.constantFrom(...SETTING_VARS), settingValue),
  // Given to the server through `${EPOCH_LEAK_VAR}` in a neutral-named variable and an argument:
  // a value from the environment is a secret wherever the entry wrote a variable.
  fromVariable: fc.option(
    anyValue.filter((v) => v.length >= MIN_SECRET_LENGTH.credential),
    { nil: undefined },
  ),
  chunks: fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 10 }),
});
type StdioScenario = typeof stdioScenario extends fc.Arbitrary<infer T> ? T : never;

function stdioServer(
  s: StdioScenario,
  mode: 'refuse' | 'serve',
): {
  config: McpServerConfig;
  placed: Placed[];
} {
  const placed: Placed[] = [{ value: s.apiKey, kind: 'credential', field: 'args --api-key=' }];
  const args = [
    FIXTURE,
    `--mode=${mode}`,
    `--chunks=${s.chunks.join(',')}`,
    `--api-key=${s.apiKey}`,
  ];
  if (s.token !== undefined) {
    args.push('--token', s.token);
    placed.push({ value: s.token, kind: 'credential', field: 'args --token' });
  }
  if (s.bearer !== undefined) {
    args.push('--header', `Authorization: Bearer ${s.bearer}`);
    placed.push({ value: s.bearer, kind: 'credential', field: 'args Authorization: Bearer' });
  }
  if (s.dockerEnv !== undefined) {
    args.push('-e', `API_SECRET=${s.dockerEnv}`);
    placed.push({ value: s.dockerEnv, kind: 'credential', field: 'args API_SECRET=' });
  }
  const query = [
    ...(s.urlKey === undefined ? [] : [`api_key=${encodeURIComponent(s.urlKey)}`]),
    ...(s.urlRegion === undefined ? [] : [`region=${encodeURIComponent(s.urlRegion)}`]),
  ];
  if (s.urlPassword !== undefined || query.length > 0) {
    const user = s.urlPassword === undefined ? '' : `alice:${encodeURIComponent(s.urlPassword)}@`;
    args.push(`https://${user}127.0.0.1:9/sse${query.length > 0 ? `?${query.join('&')}` : ''}`);
    if (s.urlPassword !== undefined)
      placed.push(...inUrl(s.urlPassword, 'credential', 'args URL password'));
    if (s.urlKey !== undefined) placed.push(...inUrl(s.urlKey, 'credential', 'args URL ?api_key='));
    if (s.urlRegion !== undefined)
      placed.push(...inUrl(s.urlRegion, 'setting', 'args URL ?region='));
  }
  args.push('--verbose', '--port=3000');
  for (const [name, value] of Object.entries(s.credentialEnv)) {
    placed.push({ value, kind: 'credential', field: `env ${name}` });
  }
  for (const [name, value] of Object.entries(s.settingEnv)) {
    placed.push({ value, kind: 'setting', field: `env ${name}` });
  }
  let fromVariable: Pick<McpServerConfig, 'variables'> = {};
  const variableEnv: Record<string, string> = {};
  if (s.fromVariable !== undefined) {
    args.push(`--region=\${EPOCH_LEAK_VAR}`);
    variableEnv.WORKSPACE_NAME = `\${EPOCH_LEAK_VAR}`;
    fromVariable = {
      variables: [
        { name: 'EPOCH_LEAK_VAR', field: `args[${args.length - 1}]` },
        { name: 'EPOCH_LEAK_VAR', field: 'env.WORKSPACE_NAME' },
      ],
    };
    placed.push({ value: s.fromVariable, kind: 'credential', field: `env \${EPOCH_LEAK_VAR}` });
  }
  return {
    config: {
      ...TIMES,
      ...fromVariable,
      name: mode,
      transport: 'stdio',
      command: process.execPath,
      args,
      env: { ...s.credentialEnv, ...s.settingEnv, ...variableEnv },
    },
    placed,
  };
}

const TIMES = {
  ...TEST_SERVER_DEFAULTS,
  timeoutMs: 20_000,
  connectTimeoutMs: 20_000,
  supportsParallel: false,
} as const;

/**
 * Two stdio servers from the scenario: `refuse` fails initialize with the echo as its error, and
 * `serve` connects, fails the tool `echo` with it, then dies (`die`) echoing it once more; with no
 * reconnect attempts it ends `failed`, its stderr tail in its status.
 */
async function observeStdio(
  scenario: StdioScenario,
): Promise<{ surfaces: Surfaces; placed: Placed[] }> {
  const servers = [stdioServer(scenario, 'refuse'), stdioServer(scenario, 'serve')];
  const logger = memoryLogger();
  const registry = new McpRegistry({ logger, schemaCache: null, reconnectDelaysMs: [] });
  const seen: McpServerStatus[] = [];
  const serveFailed = new Promise<void>((resolve) =>
    registry.onStatus((status) => {
      seen.push(status);
      if (status.name === 'serve' && status.state === 'failed') resolve();
    }),
  );
  const toolError: string[] = [];
  try {
    await registry.connectAll(
      servers.map((server) => server.config),
      'user',
    );
    const tools = registry.tools();
    for (const name of ['echo', 'die']) {
      const tool = tools.find((t) => t.name === `mcp__serve__${name}`);
      if (tool === undefined) throw new Error(`tool ${name} is not offered`);
      await tool.execute({}, { signal: new AbortController().signal }).then(
        () => {
          throw new Error(`tool ${name} succeeded`);
        },
        (error: unknown) => toolError.push(messageOf(error)),
      );
    }
    await serveFailed;
    seen.push(...registry.statuses());
  } finally {
    await registry.disconnectAll();
  }
  return {
    surfaces: {
      ...statusSurfaces(seen),
      toolError,
      log: logger.lines.flatMap((line) => strings([line.message, line.fields])),
    },
    placed: servers[0]?.placed ?? [],
  };
}

const stdioProperty = fc.asyncProperty(stdioScenario, async (scenario) => {
  if (scenario.fromVariable === undefined) delete process.env.EPOCH_LEAK_VAR;
  else process.env.EPOCH_LEAK_VAR = scenario.fromVariable;
  const { surfaces, placed } = await observeStdio(scenario).finally(() => {
    delete process.env.EPOCH_LEAK_VAR;
  });
  const tails = surfaces.stderrTail.join('\n');
  // Any fixed word can be blanked (fast-check likes secrets such as "arguments"): not this.
  expect(tails).toContain('<echo>');
  assertNoLeak(surfaces, placed);
  // A setting too short to be a secret is not blanked: `LOG_LEVEL=warn` reads as it was written.
  for (const [name, value] of Object.entries(scenario.settingEnv)) {
    if (value.length < MIN_SECRET_LENGTH.setting) expect(tails).toContain(`${name}=${value}`);
  }
});

const remoteScenario = fc.record({
  password: headerValue,
  urlKey: anyValue,
  urlRegion: anyValue,
  bearer: headerValue,
  apiKeyHeader: headerValue,
  tenantHeader: headerValue,
});
type RemoteScenario = typeof remoteScenario extends fc.Arbitrary<infer T> ? T : never;

/** A scenario whose values no request or message of the plugin could hold by chance. */
const PLAIN_REMOTE: RemoteScenario = {
  password: 'plain-password-7qx',
  urlKey: 'plain-key-7qx',
  urlRegion: 'plain-region-7qx',
  bearer: 'plain-bearer-7qx',
  apiKeyHeader: 'plain-api-key-7qx',
  tenantHeader: 'plain-tenant-7qx',
};

/**
 * Two remote servers from the scenario at one echoing HTTP server: `echo` sends its headers and
 * query and fails connecting with the echoed request in the error; `userinfo` has a password in
 * its URL, which fetch refuses to send, quoting the URL in its error.
 */
async function observeRemote(
  scenario: RemoteScenario,
  baseUrl: string,
): Promise<{ surfaces: Surfaces; placed: Placed[] }> {
  const query = `api_key=${encodeURIComponent(scenario.urlKey)}&region=${encodeURIComponent(scenario.urlRegion)}`;
  const headers = {
    Authorization: `Bearer ${scenario.bearer}`,
    'X-Api-Key': scenario.apiKeyHeader,
    'X-Tenant': scenario.tenantHeader,
  };
  const withPassword = baseUrl.replace('//', `//alice:${encodeURIComponent(scenario.password)}@`);
  const configs: McpServerConfig[] = [
    { ...TIMES, name: 'echo', transport: 'http', url: `${baseUrl}?${query}`, headers },
    { ...TIMES, name: 'userinfo', transport: 'http', url: `${withPassword}?${query}`, headers },
  ];
  const placed: Placed[] = [
    ...inUrl(scenario.password, 'credential', 'url password'),
    ...inUrl(scenario.urlKey, 'credential', 'url ?api_key='),
    ...inUrl(scenario.urlRegion, 'setting', 'url ?region='),
    { value: scenario.bearer, kind: 'credential', field: 'headers Authorization: Bearer' },
    { value: scenario.apiKeyHeader, kind: 'credential', field: 'headers X-Api-Key' },
    { value: scenario.tenantHeader, kind: 'setting', field: 'headers X-Tenant' },
  ];
  const logger = memoryLogger();
  const registry = new McpRegistry({ logger, schemaCache: null, reconnectDelaysMs: [] });
  try {
    const statuses = await registry.connectAll(configs, 'user');
    return {
      surfaces: {
        ...statusSurfaces(statuses),
        toolError: [],
        log: logger.lines.flatMap((line) => strings([line.message, line.fields])),
      },
      placed,
    };
  } finally {
    await registry.disconnectAll();
  }
}

describe('no secret of a config leaves the plugin', () => {
  it('stdio: env and argv echoed to stderr in random chunks and in errors (property)', async () => {
    await fc.assert(stdioProperty, { numRuns: 15 });
  }, 300_000);

  it('remote: headers, URL password and query echoed by the server or quoted by fetch (property)', async () => {
    const http = await echoingHttpServer();
    try {
      // What the surfaces say with no drawn secret in them: the echoed request's own words
      // (`content-length`, `keep-alive`). A drawn value that is one of them ("length") would be
      // found there whatever the policy did, on a server whose config does not even hold it.
      const plain = await observeRemote(PLAIN_REMOTE, http.url);
      const plainText = Object.values(plain.surfaces).flat().join('\n');
      await fc.assert(
        fc.asyncProperty(remoteScenario, async (scenario) => {
          const { surfaces, placed } = await observeRemote(scenario, http.url);
          fc.pre(mustHide(placed).every(({ value }) => !plainText.includes(value)));
          expect(surfaces.statusMessage.join('\n')).toContain('<echo> POST');
          assertNoLeak(surfaces, placed);
        }),
        { numRuns: 25 },
      );
    } finally {
      await http.close();
    }
  }, 120_000);
});

describe('every state passes the policy', () => {
  it('a transport a host injects: its stderr tail and its log lines are blanked all the same', async () => {
    const secret = 'sk-live-0123456789';
    const config: McpServerConfig = {
      ...TIMES,
      name: 'injected',
      skipPreflight: true,
      choice: EVERY_TOOL,
      defer: 'auto',
      transport: 'stdio',
      command: 'srv',
      args: [`--api-key=${secret}`],
      env: {},
    };
    const logger = memoryLogger();
    const client = new McpClient({
      config,
      logger,
      // As a launcher of a host's own might: logs what it saw through the logger it is given.
      createTransport: (_config, options) => {
        options.logger.warn(`launching srv --api-key=${secret}`);
        return {
          transport: {
            start: () => Promise.reject(new Error('the launcher could not start it')),
            send: async () => {},
            close: async () => {},
          },
          stderrTail: () => `srv: bad option --api-key=${secret}`,
          close: async () => {},
        };
      },
    });
    try {
      await expect(client.connect()).rejects.toThrow(/failed to connect/);
      const { state } = client;
      if (state.kind === 'connecting') throw new Error('still connecting after connect() failed');
      const status = serverStatus(config, 'host', state, { offered: 0, off: 0, withheld: 0 });
      expect(status.state === 'failed' && status.stderrTail).toBe(
        `srv: bad option --api-key=${REDACTED}`,
      );
      expect(logger.lines[0]?.message).toBe(`launching srv --api-key=${REDACTED}`);
    } finally {
      await client.close();
    }
  });
});

describe('control: with the policy switched off the same search finds the leaks', () => {
  const switchedOff = async <T>(run: () => Promise<T>): Promise<T> => {
    redaction.off = true;
    try {
      return await run();
    } finally {
      redaction.off = false;
    }
  };

  it('stdio: the property fails, and each surface alone leaks', async () => {
    await switchedOff(async () => {
      // fast-check reports the failing run; the assertion that failed in it is its cause.
      const failure = await fc.assert(stdioProperty, { numRuns: 1, endOnFailure: true }).then(
        () => undefined,
        (error: unknown) => (error as Error).cause,
      );
      expect(messageOf(failure)).toMatch(/leaked args --api-key=/);
      const { surfaces, placed } = await observeStdio({
        apiKey: 'sk-live-0123456789',
        token: 'tok-0123456789',
        bearer: undefined,
        dockerEnv: undefined,
        urlPassword: undefined,
        urlKey: undefined,
        urlRegion: undefined,
        credentialEnv: { API_TOKEN: 'env-token-0123456789' },
        settingEnv: { LOG_LEVEL: 'warn' },
        fromVariable: undefined,
        chunks: [7, 3],
      });
      const found = leaks(surfaces, placed).join('\n');
      for (const surface of ['stderrTail', 'statusMessage', 'toolError', 'log']) {
        expect(found).toContain(`${surface} leaked`);
      }
    });
  }, 120_000);

  it('remote: the status message (fetch quoting the URL, the server echoing headers) and the log leak', async () => {
    const http = await echoingHttpServer();
    try {
      await switchedOff(async () => {
        const { surfaces, placed } = await observeRemote(
          {
            password: 'pw-0123456789',
            urlKey: 'key-0123456789',
            urlRegion: 'eu-central-9',
            bearer: 'bearer-0123456789',
            apiKeyHeader: 'x-key-0123456789',
            tenantHeader: 'tenant-0123456789',
          },
          http.url,
        );
        const found = leaks(surfaces, placed).join('\n');
        expect(found).toContain('statusMessage leaked url password');
        expect(found).toContain('statusMessage leaked headers X-Api-Key');
        expect(found).toContain('log leaked');
      });
    } finally {
      await http.close();
    }
  });
});
