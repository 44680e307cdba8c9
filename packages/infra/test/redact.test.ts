// What every printer of config hides: values of `headers` and `env` maps, values under keys that
// look like credentials at any depth, and the credential parts of a URL. Keys, shapes and
// everything else stay readable, and the input is never changed.
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactArgs, redactUrl } from '../src/index.js';

describe('redact', () => {
  it('replaces every value of a headers or env map and keeps the keys', () => {
    const server = {
      name: 'github',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer sk-1', 'X-Trace': 'plain-looking-but-hidden' },
      env: { API_KEY: 'sk-2', LOG_LEVEL: 'debug', EMPTY: '' },
    };
    expect(redact(server)).toEqual({
      name: 'github',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: REDACTED, 'X-Trace': REDACTED },
      env: { API_KEY: REDACTED, LOG_LEVEL: REDACTED, EMPTY: REDACTED },
    });
  });

  it.each([
    'token',
    'access_token',
    'refreshToken',
    'secret',
    'clientSecret',
    'client_secret',
    'password',
    'passwd',
    'Authorization',
    'proxy-authorization',
    'api_key',
    'apiKey',
    'API-KEY',
    'x-api-key',
    'credentials',
    'cookie',
    'Set-Cookie',
  ])('hides the value under a credential-looking key %j, at any depth', (key) => {
    const input = { a: { b: [{ c: { [key]: 'hunter2', note: 'visible' } }] } };
    expect(redact(input)).toEqual({ a: { b: [{ c: { [key]: REDACTED, note: 'visible' } }] } });
  });

  it('hides a whole structure under a secret key, keeping its shape', () => {
    const input = {
      oauth: { clientId: 'app-1', credentials: { user: 'u', pass: 'p', list: ['x', 1, true] } },
      env: { NESTED: { DEEP: 'v' } },
    };
    expect(redact(input)).toEqual({
      oauth: {
        clientId: 'app-1',
        credentials: { user: REDACTED, pass: REDACTED, list: [REDACTED, REDACTED, REDACTED] },
      },
      env: { NESTED: { DEEP: REDACTED } },
    });
  });

  it('walks arrays: objects inside them are redacted, plain items outside secrets are kept', () => {
    const input = {
      args: ['-y', 'server-fs', 42, null],
      servers: [
        { name: 'a', headers: { Cookie: 'session=1' } },
        { name: 'b', env: { TOKEN: 't' } },
      ],
    };
    expect(redact(input)).toEqual({
      args: ['-y', 'server-fs', 42, null],
      servers: [
        { name: 'a', headers: { Cookie: REDACTED } },
        { name: 'b', env: { TOKEN: REDACTED } },
      ],
    });
    expect(redact([{ password: 'p' }, 'x'])).toEqual([{ password: REDACTED }, 'x']);
  });

  it('leaves values that are not secrets untouched, whatever their type', () => {
    const input = {
      name: 'fs',
      transport: 'stdio',
      command: 'npx',
      timeoutMs: 30_000,
      supportsParallel: false,
      cwd: null,
      tags: [],
      nested: { author: 'someone', count: 0 },
    };
    expect(redact(input)).toEqual(input);
    expect(redact('plain')).toBe('plain');
    expect(redact(7)).toBe(7);
    expect(redact(null)).toBe(null);
  });

  it('hides null, numbers and booleans under a secret key, but never invents a missing value', () => {
    const input = {
      token: 12345,
      password: null,
      secret: false,
      apiKey: undefined,
      headers: { A: undefined, B: 0 },
    };
    const out = redact(input);
    expect(out).toEqual({
      token: REDACTED,
      password: REDACTED,
      secret: REDACTED,
      apiKey: undefined,
      headers: { A: undefined, B: REDACTED },
    });
    // An absent value stays absent in what gets printed: no `"<redacted>"` for a field never set.
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      token: REDACTED,
      password: REDACTED,
      secret: REDACTED,
      headers: { B: REDACTED },
    });
  });

  it('never mutates its input and returns a copy', () => {
    const input = {
      headers: { Authorization: 'Bearer sk-1' },
      list: [{ token: 't' }],
      env: { K: 'v' },
    };
    const before = structuredClone(input);
    const out = redact(input);
    expect(input).toEqual(before);
    expect(out).not.toBe(input);
    expect(out.headers).not.toBe(input.headers);
    expect(out.list).not.toBe(input.list);
    expect(out.list[0]).not.toBe(input.list[0]);
  });

  it('no secret value survives anywhere in the printed result', () => {
    const secret = 'sk-live-9f8e7d';
    const config = {
      servers: {
        a: { command: 'x', env: { GITHUB_TOKEN: secret } },
        b: { url: 'https://h/mcp', headers: { 'X-Custom': secret } },
        c: { url: 'https://h/mcp', oauth: { clientId: 'id', clientSecret: secret } },
      },
    };
    const printed = JSON.stringify(redact(config));
    expect(printed).not.toContain(secret);
    expect(printed).toContain('GITHUB_TOKEN');
    expect(printed).toContain('X-Custom');
    expect(printed).toContain('"clientId":"id"');
  });
});

describe('redactUrl', () => {
  it('replaces the password and every query value, keeping the user, host, path and keys', () => {
    expect(redactUrl('https://alice:s3cret@mcp.example.com:8443/sse?token=abc&region=eu')).toBe(
      'https://alice:***@mcp.example.com:8443/sse?token=***&region=***',
    );
  });

  it('replaces a user name that has no password: that is where tokens go in a URL', () => {
    // `https://<token>@host` and `https://<key>:@host` are the usual ways to put an API key in one.
    expect(redactUrl('https://ghp_abcdef123@mcp.example.com/mcp')).toBe(
      'https://***@mcp.example.com/mcp',
    );
    expect(redactUrl('https://sk_live_42:@mcp.example.com/mcp')).toBe(
      'https://***@mcp.example.com/mcp',
    );
  });

  it('replaces the fragment, where OAuth implicit grants put access tokens', () => {
    expect(redactUrl('https://mcp.example.com/cb#access_token=abc&state=1')).toBe(
      'https://mcp.example.com/cb#***',
    );
  });

  it('hides every value of a repeated query key and a key without a value', () => {
    const out = redactUrl('http://127.0.0.1:3000/mcp?key=a&key=b&flag');
    expect(out).not.toMatch(/=a|=b/);
    expect(new URL(out).searchParams.getAll('key')).toEqual(['***', '***']);
    expect(new URL(out).searchParams.has('flag')).toBe(true);
  });

  it('leaves a URL without credentials as it was', () => {
    expect(redactUrl('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(redactUrl('http://127.0.0.1:8080/sse')).toBe('http://127.0.0.1:8080/sse');
  });

  it('returns <redacted> for text that is not a URL, since it may be a secret itself', () => {
    expect(redactUrl('sk-not-a-url')).toBe(REDACTED);
    expect(redactUrl('')).toBe(REDACTED);
    expect(redactUrl('//host/path?token=x')).toBe(REDACTED);
  });
});

describe('redactArgs', () => {
  it('hides the value of a credential-looking option, attached or as the next argument', () => {
    expect(
      redactArgs(['-y', 'mcp-remote', '--api-key=sk-1', '--token', 'tok-2', '--header', 'X: y']),
    ).toEqual([
      '-y',
      'mcp-remote',
      `--api-key=${REDACTED}`,
      '--token',
      REDACTED,
      '--header',
      'X: y',
    ]);
    expect(redactArgs(['--private-key=/k.pem', '-password', 'p', '--bearer=b'])).toEqual([
      `--private-key=${REDACTED}`,
      '-password',
      REDACTED,
      `--bearer=${REDACTED}`,
    ]);
  });

  it('hides credential-named NAME=value and Name: value arguments, Bearer tokens and URL keys', () => {
    expect(
      redactArgs([
        'run',
        '-e',
        'GITHUB_PAT=ghp_1',
        '--env=OPENAI_KEY=sk-2',
        '--header',
        'Authorization: Bearer tok-3',
        '--header=X-Api-Key: k-4',
        'say Bearer tok-5, then stop',
        'https://user:pw-6@example.com/sse?api_key=k-7&region=eu#frag',
        '--url=https://example.com/mcp?token=k-8',
        'https://example.com/plain',
      ]),
    ).toEqual([
      'run',
      '-e',
      `GITHUB_PAT=${REDACTED}`,
      `--env=OPENAI_KEY=${REDACTED}`,
      '--header',
      `Authorization: ${REDACTED}`,
      `--header=X-Api-Key: ${REDACTED}`,
      `say Bearer ${REDACTED}, then stop`,
      'https://user:***@example.com/sse?api_key=***&region=***#***',
      '--url=https://example.com/mcp?token=***',
      'https://example.com/plain',
    ]);
  });

  it('keeps paths, package names and plain flags as they are', () => {
    const args = ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/token-dir', '--verbose'];
    expect(redactArgs(args)).toEqual(args);
  });
});
