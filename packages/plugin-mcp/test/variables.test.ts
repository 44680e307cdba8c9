// `${VAR}` in a file's entries and `env_file`: read without the variables, expanded from the
// process environment at each start on real servers (a stdio process that dumps what it was
// started with, an HTTP server that records what it was sent), an unset variable failing its own
// server only, and every expanded or env_file value kept off every surface.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageOf } from '@epoch-agent/infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../src/config/fingerprint.js';
import { parseMcpConfig, parseMcpServerEntries } from '../src/config/load.js';
import { logoutFromServer } from '../src/oauth/logout.js';
import { storedLoginOf } from '../src/oauth/stored-login.js';
import { TokenStore } from '../src/oauth/token-store.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpServerStatus } from '../src/types.js';
import {
  assertNoLeak,
  echoingHttpServer,
  type Placed,
  statusSurfaces,
  strings,
} from './support/leak-search.js';
import { memoryLogger } from './support/recording.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'echo-secrets-server.mjs');

let dir: string;
const setVars: string[] = [];

function setEnv(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    process.env[name] = value;
    setVars.push(name);
  }
}

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'epoch-vars-')));
});

afterEach(() => {
  for (const name of setVars.splice(0)) delete process.env[name];
  rmSync(dir, { recursive: true, force: true });
});

/** Writes mcp.json (CRLF, with comments) into the temp dir and reads it as the loader does. */
function load(lines: string[]) {
  const file = join(dir, 'mcp.json');
  const text = lines.join('\r\n');
  writeFileSync(file, text);
  return { file, ...parseMcpConfig(text, file) };
}

const json = (value: unknown) => JSON.stringify(value);

describe(`reading a file with \${VAR}`, () => {
  it('keeps the written form, lists each variable, and never needs one to be set', () => {
    const { servers, diagnostics } = load([
      '{',
      '  // secrets stay in the environment',
      '  "servers": {',
      '    "local": {',
      `      "command": "\${NODE_BIN:-node}",`,
      `      "args": ["--token=\${VARS_TOKEN}", "cost: $$5", "$HOME/x"],`,
      `      "env": { "API_KEY": "\${VARS_API_KEY}" }, /* a comment */`,
      `      "cwd": "\${VARS_DIR}"`,
      '    },',
      `    "remote": { "type": "http", "url": "\${VARS_BASE}/mcp?key=\${VARS_KEY}",`,
      `      "headers": { "Authorization": "Bearer \${VARS_TOKEN}" } }`,
      '  }',
      '}',
    ]);
    const local = servers.find((s) => s.name === 'local');
    if (local?.transport !== 'stdio') throw new Error('local is not loaded');
    expect(local.args).toEqual([`--token=\${VARS_TOKEN}`, 'cost: $$5', '$HOME/x']);
    // A cwd with a variable is where it leads at start, not a path under the file's directory.
    expect(local.cwd).toBe(`\${VARS_DIR}`);
    expect(local.variables).toEqual([
      { name: 'NODE_BIN', field: 'command', default: 'node' },
      { name: 'VARS_TOKEN', field: 'args[0]' },
      { name: 'VARS_API_KEY', field: 'env.API_KEY' },
      { name: 'VARS_DIR', field: 'cwd' },
    ]);
    const remote = servers.find((s) => s.name === 'remote');
    expect(remote?.variables?.map((v) => v.field)).toEqual(['url', 'url', 'headers.Authorization']);
    // None is set: a warning each (not NODE_BIN, it has a default), at its line; both servers load.
    const unset = diagnostics.filter((d) => d.code === 'unset_variable');
    expect(unset.map((d) => [d.severity, d.path, d.line])).toEqual([
      ['warning', 'servers.local.args[0]', 6],
      ['warning', 'servers.local.env.API_KEY', 7],
      ['warning', 'servers.local.cwd', 8],
      ['warning', 'servers.remote.url', 10],
      ['warning', 'servers.remote.url', 10],
      ['warning', 'servers.remote.headers.Authorization', 11],
    ]);
    expect(unset[0]?.message).toContain(`"args[0]" of server "local" uses \${VARS_TOKEN}`);
    expect(unset[0]?.message).toContain('export VARS_TOKEN=');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it(`a malformed \${ is an error at its file:line:column naming the field; the other server loads`, () => {
    const { servers, diagnostics, file } = load([
      '{ "servers": {',
      '  "ok": { "command": "node" },',
      `  "open": { "command": "node", "args": ["a", "\${UNCLOSED"] },`,
      `  "badname": { "url": "https://x.example/\${1ABC}" }`,
      '} }',
    ]);
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    const errors = diagnostics.filter((d) => d.code === 'invalid_variable');
    expect(errors.map(({ file: f, path, line, column }) => ({ f, path, line, column }))).toEqual([
      { f: file, path: 'servers.open.args[1]', line: 3, column: 46 },
      { f: file, path: 'servers.badname.url', line: 4, column: 23 },
    ]);
    expect(errors[0]?.message).toMatch(/"args\[1\]" of server "open" has a "\$\{" that no "\}"/);
    expect(errors[1]?.message).toContain(`\${NAME:-default}`);
  });

  it('envFile is env_file, relative to the directory of the file it is written in', () => {
    const { servers, diagnostics } = load([
      '{ "servers": { "s": { "command": "node", "envFile": "secrets/.env" } } }',
    ]);
    expect(diagnostics).toEqual([]);
    const [config] = servers;
    expect(config?.transport === 'stdio' && config.envFile).toBe(join(dir, 'secrets', '.env'));
  });

  it('a host given in code is used as written: no variable read in it', () => {
    const load = parseMcpServerEntries(
      { h: { command: 'node', args: [`\${NOT_EXPANDED}`, '$$'] } },
      { origin: 'host', baseDir: dir },
    );
    expect(load.diagnostics).toEqual([]);
    expect(load.servers[0]?.variables).toBeUndefined();
  });

  it('the fingerprint changes with a variable, holds no value, and is the same for the same value', () => {
    const [config] = load([
      `{ "servers": { "s": { "command": "node", "env": { "K": "\${VARS_FP}" } } } }`,
    ]).servers;
    if (config === undefined) throw new Error('not loaded');
    const unset = fingerprint(config, {});
    const one = fingerprint(config, { VARS_FP: 'value-one' });
    expect(fingerprint(config, { VARS_FP: 'value-one' })).toBe(one);
    expect(fingerprint(config, { VARS_FP: 'value-two' })).not.toBe(one);
    expect(unset).not.toBe(one);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
  });
});

/** Starts the file's servers in a registry; returns every surface and the registry's statuses. */
async function connect(file: string, servers: ReturnType<typeof load>['servers']) {
  const logger = memoryLogger();
  const registry = new McpRegistry({ logger, schemaCache: null, reconnectDelaysMs: [] });
  const seen: McpServerStatus[] = [];
  registry.onStatus((status) => seen.push(status));
  const toolError: string[] = [];
  try {
    const statuses = await registry.connectAll(servers, 'user');
    // `echo` fails with all it was started with as its error; `die` prints it again and exits,
    // so the server ends `failed` with it in its stderr tail.
    const tools = registry.tools().filter((t) => /__(echo|die)$/.test(t.name));
    for (const tool of tools) {
      await tool.execute({}, { signal: new AbortController().signal }).then(
        () => {
          throw new Error(`${tool.name} succeeded`);
        },
        (error: unknown) => toolError.push(messageOf(error)),
      );
    }
    const died = new Set(tools.map((t) => t.name.split('__')[1]));
    await expect
      .poll(
        () => registry.statuses().filter((s) => died.has(s.name) && s.state === 'failed').length,
      )
      .toBe(died.size);
    seen.push(...registry.statuses());
    return {
      statuses,
      surfaces: {
        ...statusSurfaces(seen),
        toolError,
        log: logger.lines.flatMap((line) => strings([line.message, line.fields])),
      },
      file,
    };
  } finally {
    await registry.disconnectAll();
  }
}

describe(`starting a server with \${VAR} and env_file`, () => {
  it('expands from the environment at start, reads env_file, and fails only the server whose variable is unset', async () => {
    const secrets = {
      VARS_TOKEN: 'tok-from-env-5j2q9',
      VARS_API_KEY: 'key-from-env-8h3w1',
      VARS_NODE: process.execPath,
      VARS_DIR: dir,
    };
    setEnv(secrets);
    writeFileSync(
      join(dir, 'server.env'),
      [
        '# the file of secrets',
        'FILE_SECRET="file-secret-4k7m2"',
        'API_KEY=loses-to-the-entry',
        'export FILE_TOKEN=file-token-9x8c7 # a comment',
        '',
      ].join('\r\n'),
    );
    const dump = join(dir, 'dump.json');
    const { servers, diagnostics, file } = load([
      '{',
      '  "servers": {',
      '    "good": {',
      `      "command": "\${VARS_NODE}",`,
      `      "args": [${json(FIXTURE)}, "--mode=serve", "--dump=${dump}", "--token=\${VARS_TOKEN}",`,
      `        "--price=$$5", "--level=\${VARS_LEVEL:-info}", "$HOME"],`,
      `      "env": { "API_KEY": "\${VARS_API_KEY}", "PLAIN": "plain-value" },`,
      '      "env_file": "server.env",',
      `      "cwd": "\${VARS_DIR}"`,
      '    },',
      '    // this one needs a variable nobody set',
      `    "missing": { "command": "node", "args": [${json(FIXTURE)}, "--key=\${VARS_NEVER_SET}"] }`,
      '  }',
      '}',
    ]);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const warning = diagnostics.find((d) => d.code === 'unset_variable');
    expect(warning).toMatchObject({ file, path: 'servers.missing.args[1]', line: 12 });
    expect(warning?.message).toContain('VARS_NEVER_SET');

    const { statuses, surfaces } = await connect(file, servers);
    const good = statuses.find((s) => s.name === 'good');
    // As connectAll settled it (it died later, by its tool `die`).
    const missing = statuses.find((s) => s.name === 'missing');
    expect(good?.state).toBe('connected');
    expect(missing).toMatchObject({ state: 'failed', error: { code: 'env_unset' } });
    if (missing?.state !== 'failed') throw new Error('unreachable');
    expect(missing.error.message).toContain(`"args[1]" uses \${VARS_NEVER_SET}`);

    // What the child was started with, from its own dump.
    const started = JSON.parse(readFileSync(dump, 'utf8')) as {
      argv: string[];
      cwd: string;
      env: Record<string, string>;
    };
    expect(started.argv.slice(2)).toEqual([
      '--token=tok-from-env-5j2q9',
      '--price=$5',
      '--level=info',
      '$HOME',
    ]);
    expect(started.cwd).toBe(dir);
    expect(started.env).toMatchObject({
      API_KEY: 'key-from-env-8h3w1',
      PLAIN: 'plain-value',
      FILE_SECRET: 'file-secret-4k7m2',
      FILE_TOKEN: 'file-token-9x8c7',
    });

    // The child echoed all of it to stderr and in the tool's error: none of it came out.
    expect(surfaces.stderrTail.join('\n')).toContain('<echo>');
    expect(surfaces.toolError.join('\n')).toContain('<echo>');
    const placed: Placed[] = [
      { value: secrets.VARS_TOKEN, kind: 'credential', field: `args \${VARS_TOKEN}` },
      { value: secrets.VARS_API_KEY, kind: 'credential', field: `env \${VARS_API_KEY}` },
      { value: 'file-secret-4k7m2', kind: 'credential', field: 'env_file FILE_SECRET' },
      { value: 'file-token-9x8c7', kind: 'credential', field: 'env_file FILE_TOKEN' },
    ];
    assertNoLeak(surfaces, placed);
  }, 60_000);

  it('an env_file of a hundred values: not one of them comes out, the first ones included', async () => {
    const values = Array.from(
      { length: 100 },
      (_, i) => `many-secret-${String(i).padStart(3, '0')}-zq`,
    );
    writeFileSync(join(dir, 'many.env'), values.map((v, i) => `V${i}=${v}\n`).join(''));
    const { servers, file } = load([
      '{ "servers": { "many": {',
      `  "command": ${json(process.execPath)}, "args": [${json(FIXTURE)}, "--mode=serve"],`,
      '  "env_file": "many.env" } } }',
    ]);
    const { surfaces } = await connect(file, servers);
    expect(surfaces.stderrTail.join('\n')).toContain('<echo>');
    assertNoLeak(
      surfaces,
      values.map((value, i) => ({ value, kind: 'credential', field: `env_file V${i}` })),
    );
  }, 60_000);

  it('each start reads the environment of that moment: a reconnect after the variable changed sends the new value', async () => {
    const dump = join(dir, 'dump.json');
    setEnv({ VARS_ROTATING: 'first-value-1a2b3c' });
    const { servers } = load([
      '{ "servers": { "s": {',
      `  "command": ${json(process.execPath)},`,
      `  "args": [${json(FIXTURE)}, "--mode=serve", "--dump=${dump}", "--key=\${VARS_ROTATING}"] } } }`,
    ]);
    const argOf = () => (JSON.parse(readFileSync(dump, 'utf8')) as { argv: string[] }).argv.at(-1);
    const registry = new McpRegistry({ schemaCache: null, reconnectDelaysMs: [] });
    try {
      const [first] = await registry.connectAll(servers, 'user');
      expect(first?.state).toBe('connected');
      expect(argOf()).toBe('--key=first-value-1a2b3c');
      process.env.VARS_ROTATING = 'second-value-4d5e6f';
      expect((await registry.reconnect('s')).state).toBe('connected');
      expect(argOf()).toBe('--key=second-value-4d5e6f');
      delete process.env.VARS_ROTATING;
      const gone = await registry.reconnect('s');
      expect(gone).toMatchObject({ state: 'failed', error: { code: 'env_unset' } });
    } finally {
      await registry.disconnectAll();
    }
  }, 60_000);

  it('an env_file that is a FIFO, missing or huge fails its server at once naming the file', async () => {
    execFileSync('mkfifo', [join(dir, 'fifo.env')]);
    writeFileSync(join(dir, 'huge.env'), `A=${'x'.repeat(1024 * 1024)}\n`);
    const { servers, file } = load([
      '{ "servers": {',
      `  "fifo": { "command": "node", "args": [${json(FIXTURE)}], "env_file": "fifo.env" },`,
      `  "gone": { "command": "node", "args": [${json(FIXTURE)}], "env_file": "sub/gone.env" },`,
      `  "huge": { "command": "node", "args": [${json(FIXTURE)}], "env_file": "huge.env" },`,
      `  "fine": { "command": ${json(process.execPath)}, "args": [${json(FIXTURE)}, "--mode=serve"] }`,
      '} }',
    ]);
    const { statuses } = await connect(file, servers);
    const byName = new Map(statuses.map((s) => [s.name, s]));
    expect(byName.get('fine')?.state).toBe('connected');
    expect(byName.get('fifo')).toMatchObject({
      state: 'failed',
      error: { code: 'env_file_unreadable' },
    });
    expect(byName.get('gone')).toMatchObject({
      state: 'failed',
      error: { code: 'env_file_unreadable' },
    });
    const message = (name: string) => {
      const status = byName.get(name);
      return status?.state === 'failed' ? status.error.message : '';
    };
    expect(message('fifo')).toContain(`${join(dir, 'fifo.env')} is not a regular file`);
    expect(message('gone')).toContain(`${join(dir, 'sub', 'gone.env')} does not exist`);
    expect(byName.get('huge')).toMatchObject({
      state: 'failed',
      error: { code: 'env_file_unreadable' },
    });
    expect(message('huge')).toContain(`${join(dir, 'huge.env')} is larger than 1 MiB`);
  }, 60_000);

  it('remote: the url and headers are expanded when sent, and no surface says them', async () => {
    const http = await echoingHttpServer();
    try {
      const base = http.url.replace(/\/mcp$/, '');
      setEnv({
        VARS_BASE: base,
        VARS_KEY: 'query-key-3n5b8',
        VARS_BEARER: 'bearer-tok-6v1z4',
      });
      const { servers, file } = load([
        '{ "servers": { "echo": { "type": "http",',
        `  "url": "\${VARS_BASE}/mcp?api_key=\${VARS_KEY}",`,
        `  "headers": { "Authorization": "Bearer \${VARS_BEARER}", "X-Cost": "$$1" } } } }`,
      ]);
      const { statuses, surfaces } = await connect(file, servers);
      expect(statuses[0]?.state).toBe('failed');
      const sent = http.requests[0];
      expect(sent?.url).toBe('/mcp?api_key=query-key-3n5b8');
      expect(sent?.headers.authorization).toBe('Bearer bearer-tok-6v1z4');
      expect(sent?.headers['x-cost']).toBe('$1');
      // The server echoed the request in its answer, which the failure quotes.
      expect(surfaces.statusMessage.join('\n')).toContain('<echo> POST');
      assertNoLeak(surfaces, [
        { value: 'query-key-3n5b8', kind: 'credential', field: `url \${VARS_KEY}` },
        { value: 'bearer-tok-6v1z4', kind: 'credential', field: `headers \${VARS_BEARER}` },
      ]);
    } finally {
      await http.close();
    }
  }, 60_000);
});

describe('values a start cannot use, and many of them', () => {
  it('an env_file of 80,000 values, each with a space: the server connects and not one of them comes out', async () => {
    // Each value is a needle in three spellings (as written, in JSON, URL-encoded): 240,000 of
    // them, past what a call takes as arguments.
    const values = Array.from({ length: 80_000 }, (_, i) => `a b${base62(i)}`);
    const envFile = values.map((value, i) => `K${base62(i)}=${value}\n`).join('');
    expect(envFile.length).toBeLessThan(1024 * 1024);
    writeFileSync(join(dir, 'many.env'), envFile);
    const { servers, file } = load([
      '{ "servers": { "many": {',
      `  "command": ${json(process.execPath)}, "args": [${json(FIXTURE)}, "--mode=serve"],`,
      '  "env_file": "many.env" } } }',
    ]);
    const { statuses, surfaces } = await connect(file, servers);
    expect(statuses[0]?.state).toBe('connected');
    // The server printed all of them (in its stderr, its tool's error, and the stderr of its
    // death); every one is blanked: `a b` and three letters or digits, as written or encoded.
    expect(surfaces.toolError.join('\n')).toContain('<echo>');
    const leaked = Object.values(surfaces)
      .flat()
      .flatMap((text) => /a(?: |%20)b[A-Za-z0-9]{3}/.exec(text) ?? []);
    expect(leaked).toEqual([]);
  }, 120_000);

  it('a NUL in an env_file value fails that server naming the variable and the file, never the value', async () => {
    writeFileSync(join(dir, 'nul.env'), 'GOOD=fine-value\nBAD=before\0after-secret-7q\n');
    const { servers, file } = load([
      '{ "servers": {',
      `  "nul": { "command": ${json(process.execPath)}, "args": [${json(FIXTURE)}, "--mode=serve"], "env_file": "nul.env" },`,
      `  "fine": { "command": ${json(process.execPath)}, "args": [${json(FIXTURE)}, "--mode=serve"] }`,
      '} }',
    ]);
    const { statuses } = await connect(file, servers);
    expect(statuses.find((s) => s.name === 'fine')?.state).toBe('connected');
    const nul = statuses.find((s) => s.name === 'nul');
    expect(nul).toMatchObject({ state: 'failed', error: { code: 'env_value_invalid' } });
    const message = nul?.state === 'failed' ? nul.error.message : '';
    expect(message).toContain(`the value of BAD in its env_file ${join(dir, 'nul.env')}`);
    expect(message).toContain('NUL character');
    expect(message).not.toMatch(/"command"|"cwd"|after-secret/);
  }, 60_000);

  it('a line break a variable puts in a header fails the start naming the header and the variable; nothing is sent', async () => {
    const http = await echoingHttpServer();
    try {
      setEnv({ VARS_CRLF_TOKEN: 'crlf-secret-4t9w\r\nX-Injected: yes' });
      const { servers, file } = load([
        '{ "servers": { "crlf": { "type": "http",',
        `  "url": ${json(http.url)},`,
        `  "headers": { "Authorization": "Bearer \${VARS_CRLF_TOKEN}" } } } }`,
      ]);
      const { statuses, surfaces } = await connect(file, servers);
      expect(statuses[0]).toMatchObject({ state: 'failed', error: { code: 'env_value_invalid' } });
      const message = statuses[0]?.state === 'failed' ? statuses[0].error.message : '';
      expect(message).toBe(
        `MCP server "crlf" was not started: "headers.Authorization" uses \${VARS_CRLF_TOKEN}, and the value holds a line break, which a header cannot carry. Set VARS_CRLF_TOKEN to a value without it.`,
      );
      expect(http.requests).toEqual([]);
      assertNoLeak(surfaces, [
        { value: 'crlf-secret-4t9w', kind: 'credential', field: `headers \${VARS_CRLF_TOKEN}` },
      ]);
    } finally {
      await http.close();
    }
  }, 60_000);

  it(`a default that holds a variable (\${A:-\${B}}) is an error naming the field, never a default of "\${B"`, () => {
    const { servers, diagnostics } = load([
      '{ "servers": {',
      `  "nested": { "command": "node", "args": ["--key=\${VARS_A:-\${VARS_B}}"] },`,
      '  "ok": { "command": "node" }',
      '} }',
    ]);
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    const [error] = diagnostics.filter((d) => d.code === 'invalid_variable');
    expect(error).toMatchObject({ severity: 'error', path: 'servers.nested.args[0]', line: 2 });
    expect(error?.message).toContain(
      `"args[0]" of server "nested" has "\${VARS_A:-\${VARS_B}}", a default that holds another variable`,
    );
    expect(error?.message).toContain(`write a plain default (\${VARS_A:-value}), or set VARS_A`);
  });
});

/** Three letters or digits for `i` under 238,328: short distinct keys and values. */
function base62(i: number): string {
  const digits = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [i % 62, Math.floor(i / 62) % 62, Math.floor(i / 3844) % 62]
    .map((d) => digits[d])
    .join('');
}

describe(`logins of a server whose url has a \${VAR}`, () => {
  it('are found and removed under the url a start expands, and none is found while it is unset', async () => {
    const store = new TokenStore({ dir: join(dir, 'oauth') });
    const url = 'https://mcp.vars.example.com/mcp';
    // A client and no tokens: nothing to revoke, so no request leaves this machine.
    await store.save({
      serverUrl: url,
      issuer: 'https://auth.vars.example.com',
      client: { client_id: 'client-1' },
      authorizationServerUrl: 'https://auth.vars.example.com',
    });
    const [config] = load([
      `{ "servers": { "r": { "type": "http", "url": "https://\${VARS_LOGIN_HOST}/mcp" } } }`,
    ]).servers;
    if (config === undefined) throw new Error('not loaded');
    await expect(storedLoginOf({ config, store })).resolves.toBeUndefined();
    setEnv({ VARS_LOGIN_HOST: 'mcp.vars.example.com' });
    await expect(storedLoginOf({ config, store })).resolves.toMatchObject({
      issuer: 'https://auth.vars.example.com',
    });
    await expect(logoutFromServer({ config, store })).resolves.toMatchObject({ removed: 1 });
    await expect(store.load(url)).resolves.toBeUndefined();
  });
});
