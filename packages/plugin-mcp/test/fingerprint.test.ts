// fingerprint(): the same connection gives the same hash however the file spells it; any change to
// what the connection depends on gives another.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../src/config/fingerprint.js';
import { parseMcpConfig } from '../src/config/load.js';
import { EVERY_TOOL } from '../src/config/tool-choice.js';
import type { McpServerConfig, StdioServerConfig } from '../src/types.js';

function only(text: string): McpServerConfig {
  const { servers, diagnostics } = parseMcpConfig(
    `{ "servers": { "s": ${text} } }`,
    '/etc/mcp.json',
  );
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const [server] = servers;
  if (server === undefined) throw new Error(`no server in ${text}`);
  return server;
}

const STDIO: StdioServerConfig = {
  name: 'fs',
  transport: 'stdio',
  command: 'npx',
  args: ['-y', 'server-filesystem', '/tmp'],
  env: { A: '1', B: '2' },
  cwd: '/srv',
  timeoutMs: 300_000,
  maxTotalTimeoutMs: 3_600_000,
  connectTimeoutMs: 60_000,
  keepaliveIntervalMs: 180_000,
  idleTimeoutMs: 0,
  maxLifetimeMs: 0,
  supportsParallel: false,
  skipPreflight: false,
  choice: EVERY_TOOL,
  defer: 'auto',
};
const { cwd: _cwd, ...STDIO_WITHOUT_CWD } = STDIO;
const HTTP: McpServerConfig = {
  name: 'remote',
  transport: 'http',
  url: 'https://mcp.example.com/mcp',
  headers: { Authorization: 'Bearer one', 'X-Team': 'a' },
  timeoutMs: 300_000,
  maxTotalTimeoutMs: 3_600_000,
  connectTimeoutMs: 60_000,
  keepaliveIntervalMs: 180_000,
  idleTimeoutMs: 0,
  maxLifetimeMs: 0,
  supportsParallel: false,
  skipPreflight: false,
  choice: EVERY_TOOL,
  defer: 'auto',
};

describe('fingerprint', () => {
  it('is a sha256 hex string, the same on every call', () => {
    expect(fingerprint(STDIO)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(STDIO)).toBe(fingerprint({ ...STDIO }));
  });

  // Pinned: fingerprints are stored on disk (schema cache). If this changes on purpose, bump the
  // VERSION in fingerprint.ts so old entries stop matching, and update the value here. It is the
  // sha256 of the version line and STDIO without its name, as JSON with sorted keys.
  it('is stable across processes and releases', () => {
    expect(fingerprint(STDIO)).toBe(
      '32469cf03796a6f3c38543595c74081817d00ac750c0835f9b5f5813e7a0df27',
    );
  });

  it('does not depend on key order or snake/camel spelling in the file', () => {
    const a = only(
      '{ "command": "npx", "args": ["x"], "env": { "A": "1", "B": "2" }, "connect_timeout": 5, "skip_preflight": true }',
    );
    const b = only(
      '{ "skipPreflight": true, "env": { "B": "2", "A": "1" }, "connectTimeout": 5, "args": ["x"], "type": "stdio", "command": "npx" }',
    );
    expect(fingerprint(a)).toBe(fingerprint(b));
  });

  it('does not depend on the alias used for the transport', () => {
    const url = '"url": "https://a.example/mcp"';
    const fingerprints = [
      `{ "transport": "http", ${url} }`,
      `{ "type": "streamable", ${url} }`,
      `{ "streamable": true, ${url} }`,
    ].map((text) => fingerprint(only(text)));
    expect(new Set(fingerprints).size).toBe(1);
  });

  it('does not depend on the choice: turning a server or a tool off reconnects nothing', () => {
    const off = only(
      '{ "command": "npx", "args": ["-y", "server-filesystem", "/tmp"], "env": { "A": "1", "B": "2" }, "cwd": "/tmp", "enabled": false, "include_tools": ["read_*"], "excludeTools": ["write_file"] }',
    );
    expect(off.choice.enabled).toBe(false);
    expect(fingerprint(off)).toBe(fingerprint({ ...off, choice: EVERY_TOOL }));
  });

  it('does not depend on max_output_tokens: a new cap applies to the next call over the same connection', () => {
    const capped = only('{ "command": "npx", "max_output_tokens": 1000 }');
    expect(capped.maxOutputTokens).toBe(1000);
    const { maxOutputTokens: _, ...uncapped } = capped;
    expect(fingerprint(capped)).toBe(fingerprint(uncapped));
    expect(fingerprint(capped)).toBe(fingerprint({ ...capped, maxOutputTokens: 50_000 }));
  });

  it('does not depend on defer: finding tools on demand reconnects nothing', () => {
    const deferred = only('{ "command": "npx", "defer": true }');
    expect(deferred.defer).toBe(true);
    expect(fingerprint(deferred)).toBe(fingerprint({ ...deferred, defer: 'auto' }));
  });

  it('does not depend on the server name', () => {
    expect(fingerprint({ ...STDIO, name: 'other' })).toBe(fingerprint(STDIO));
  });

  it('does not depend on the key order of env or headers built in code', () => {
    expect(fingerprint({ ...STDIO, env: { B: '2', A: '1' } })).toBe(fingerprint(STDIO));
    expect(fingerprint({ ...HTTP, headers: { 'X-Team': 'a', Authorization: 'Bearer one' } })).toBe(
      fingerprint(HTTP),
    );
  });

  const common = {
    timeoutMs: 1,
    connectTimeoutMs: 1,
    keepaliveIntervalMs: 1,
    idleTimeoutMs: 1,
    maxLifetimeMs: 1,
    supportsParallel: true,
    skipPreflight: true,
  };
  const CHANGES: readonly [string, McpServerConfig, McpServerConfig][] = [
    ['transport sse vs http', HTTP, { ...HTTP, transport: 'sse' }],
    ['command', STDIO, { ...STDIO, command: 'node' }],
    ['an argument', STDIO, { ...STDIO, args: ['-y', 'server-filesystem', '/home'] }],
    ['argument order', STDIO, { ...STDIO, args: ['-y', '/tmp', 'server-filesystem'] }],
    ['an extra argument', STDIO, { ...STDIO, args: [...STDIO.args, ''] }],
    ['an env value', STDIO, { ...STDIO, env: { A: '1', B: '3' } }],
    ['an env key', STDIO, { ...STDIO, env: { A: '1', C: '2' } }],
    ['cwd', STDIO, { ...STDIO, cwd: '/home' }],
    ['cwd left out', STDIO, STDIO_WITHOUT_CWD],
    ['url', HTTP, { ...HTTP, url: 'https://mcp.example.com/other' }],
    [
      'a header value',
      HTTP,
      { ...HTTP, headers: { ...HTTP.headers, Authorization: 'Bearer two' } },
    ],
    ['a header added', HTTP, { ...HTTP, headers: { ...HTTP.headers, 'X-More': '' } }],
    ...Object.entries(common).flatMap(
      ([field, value]): [string, McpServerConfig, McpServerConfig][] => [
        [`${field} (stdio)`, STDIO, { ...STDIO, [field]: value }],
        [`${field} (http)`, HTTP, { ...HTTP, [field]: value }],
      ],
    ),
  ];

  it.each(CHANGES)('changes with %s', (_, before, after) => {
    expect(fingerprint(after)).not.toBe(fingerprint(before));
  });

  it('changes when a time in the file changes, even by a fraction of a second', () => {
    expect(fingerprint(only('{ "command": "npx", "timeout": 30 }'))).not.toBe(
      fingerprint(only('{ "command": "npx", "timeout": 30.5 }')),
    );
  });
});
