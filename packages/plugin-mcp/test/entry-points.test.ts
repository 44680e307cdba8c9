// What each entry of the built package loads, in a fresh Node process: the root entry none of the
// SDK, zod, cross-spawn or the code of connections, stdio and OAuth (they load when a connection, a
// login or a cached schema needs them); `./config` reads configs on four files; `./stdio` is
// the Node-only part, as the SDK keeps its own at `./stdio`, and spawns a server before the SDK has
// loaded (the first connect of a process starts its server while the SDK loads), and loads no ajv:
// the outputSchema check loads it, with the first result that needs it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureServerEntry, type LoadedModules, modulesLoadedBy } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const FIXTURE = fixtureServerEntry('pid');

/** A server whose `wrong` tool breaks its own outputSchema. */
const RESULT_SHAPES = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/result-shapes-server.mjs', import.meta.url))],
};

const CONFIG_TEXT = JSON.stringify({
  servers: { a: { command: 'x' }, b: { url: 'https://h/mcp', oauth: { client_id: 'c' } } },
});

/** What importing `specifier` and running `then` (with the module as `entry`) loads. */
function loadedBy(specifier: string, then: string): readonly string[] {
  return run(specifier, then).urls;
}

function run(specifier: string, then: string): LoadedModules {
  const script = `const entry = await import(${JSON.stringify(specifier)});\n${then}`;
  const ran = modulesLoadedBy(['--input-type=module', '-e', script], { cwd: ROOT });
  if (ran.status !== 0) throw new Error(`node exited ${ran.status}: ${ran.stderr}`);
  return ran;
}

function readsTwoServers(): string {
  return `const { servers } = entry.parseMcpConfig(${JSON.stringify(CONFIG_TEXT)}, 'f');
if (servers.length !== 2) throw new Error('the config did not load');`;
}

// The package's code as Node loads it: scripts/bundle.mjs's bundle/, entries and chunks, the
// third-party code inside them (a chunk per package: the SDK's carries zod). A dependency loaded
// from node_modules would be one that escaped the bundle.
const SDK = '/plugin-mcp/bundle/chunks/modelcontextprotocol-client.js';
const HEAVY = [
  '/node_modules/',
  SDK,
  '/plugin-mcp/bundle/chunks/cross-spawn.js',
  '/plugin-mcp/bundle/chunks/connection.js',
  '/plugin-mcp/bundle/stdio.js',
  '/plugin-mcp/bundle/chunks/remote.js',
  '/plugin-mcp/bundle/chunks/login.js',
];

// OAuth's own chunks: what a login, a refresh and a stored token load.
const OAUTH = ['login.js', 'logout.js', 'refresh.js', 'token-file.js', 'oauth-fetch.js'];

const heavy = (urls: readonly string[]) =>
  urls.filter((url) => HEAVY.some((part) => url.includes(part)));

/**
 * The loaded files of ours that hold ajv's code, found by a message of ajv's own: whichever chunk
 * the bundle puts it in, the test finds it.
 */
const holdingAjv = (urls: readonly string[]) =>
  urls.filter(
    (url) =>
      url.includes('/plugin-mcp/bundle/') &&
      readFileSync(fileURLToPath(url), 'utf8').includes('ajv implementation error'),
  );

describe('entry points of @epoch-agent/plugin-mcp', () => {
  it("the bundle's JavaScript is ASCII, so that Node reads each file as one byte a character", () => {
    const files = ['plugin-mcp', 'infra'].flatMap((name) => {
      const dir = join(ROOT, 'packages', name, 'bundle');
      return readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.js'))
        .map((file) => join(dir, file));
    });
    expect(files.length).toBeGreaterThan(10);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is what the test is about.
    expect(files.filter((file) => /[^\x00-\x7f]/.test(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the root entry, and reading a config with it, load no SDK, zod, or connection code', () => {
    const loaded = loadedBy('@epoch-agent/plugin-mcp', readsTwoServers());
    expect(loaded.some((url) => url.endsWith('/plugin-mcp/bundle/index.js'))).toBe(true);
    expect(heavy(loaded)).toEqual([]);
  });

  it('./config reads a config without the client, the registry or the cache', () => {
    const loaded = loadedBy('@epoch-agent/plugin-mcp/config', readsTwoServers());
    const ours = loaded.flatMap((url) => /\/plugin-mcp\/bundle\/(.+)$/.exec(url)?.[1] ?? []);
    // Which files, not in what order: the imports of one module load side by side.
    expect(ours.toSorted()).toEqual([
      'chunks/config.js',
      'chunks/jsonc-parser.js',
      'chunks/types.js',
      // `${VAR}`s: read by the loader, the fingerprint and a start, so a chunk of its own.
      'chunks/variables.js',
      'config/index.js',
    ]);
    expect(heavy(loaded)).toEqual([]);
  });

  it('./stdio is the Node-only part: the transport that reaps a process tree, without OAuth or the SDK', () => {
    const loaded = loadedBy(
      '@epoch-agent/plugin-mcp/stdio',
      `if (typeof entry.StdioTransport !== 'function' || typeof entry.closeTransportAndReap !== 'function') {
  throw new Error('missing exports: ' + Object.keys(entry).join(', '));
}`,
    );
    const ours = loaded.flatMap((url) => /\/plugin-mcp\/bundle\/(.+)$/.exec(url)?.[1] ?? []);
    expect(ours).toContain('stdio.js');
    expect(ours.filter((file) => OAUTH.some((chunk) => file === `chunks/${chunk}`))).toEqual([]);
    expect(loaded.filter((url) => url.includes(SDK) || url.includes('/node_modules/'))).toEqual([]);
  });

  // Off Windows cross-spawn hands the call to Node's spawn as it is: loading it only delayed the
  // first server's spawn.
  it.skipIf(process.platform === 'win32')(
    "a stdio server starts without cross-spawn, off Windows where it only calls Node's spawn",
    () => {
      const ran = run(
        '@epoch-agent/plugin-mcp/stdio',
        `const transport = new entry.StdioTransport({ server: { name: 'fixture', env: {}, ...${JSON.stringify(FIXTURE)} } });
await transport.start();
const pid = transport.pid;
await entry.closeTransportAndReap(transport);
console.log(JSON.stringify({ pid }));`,
      );
      expect(JSON.parse(ran.stdout).pid).toBeGreaterThan(0);
      expect(ran.urls.filter((url) => url.includes('cross-spawn'))).toEqual([]);
    },
  );

  it('./elicitation is the form rules alone, for a browser too: one file, nothing of Node or the SDK', () => {
    const loaded = loadedBy(
      '@epoch-agent/plugin-mcp/elicitation',
      `const read = entry.formFields({ type: 'object', properties: { n: { type: 'integer' } } });
if (!read.ok || !entry.checkAnswer(read.fields, { n: 1 }).ok) throw new Error('the form did not read');`,
    );
    const ours = loaded.flatMap((url) => /\/plugin-mcp\/bundle\/(.+)$/.exec(url)?.[1] ?? []);
    expect(ours).toEqual(['elicitation/form.js']);
    expect(loaded.filter((url) => url.startsWith('node:'))).toEqual([]);
    expect(heavy(loaded)).toEqual([]);
  });

  it("a process's first stdio connect spawns its server before the SDK loads, then connects, without node:http", () => {
    // The spawn prints when it happened, on the clock the module log stamps each load with: a
    // marker module imported by the spawn would itself load at a time of the loader's choosing.
    const ran = run(
      '@epoch-agent/plugin-mcp',
      `const childProcess = (await import('node:child_process')).default;
const spawn = childProcess.spawn;
childProcess.spawn = (...args) => {
  console.log(JSON.stringify({ spawnedAt: performance.timeOrigin + performance.now() }));
  return spawn(...args);
};
const config = { servers: { fixture: ${JSON.stringify(FIXTURE)} } };
const registry = new entry.McpRegistry({ schemaCache: null });
const [status] = await registry.connectAll(entry.parseMcpConfig(JSON.stringify(config), 'f').servers, 'user');
await registry.disconnectAll();
if (status.state !== 'connected') throw new Error(JSON.stringify(status));`,
    );
    const spawns = ran.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).spawnedAt as number);
    const sdk = ran.urls.findIndex((url) => url.includes(SDK));
    expect(spawns).toHaveLength(1);
    expect(sdk).toBeGreaterThan(-1);
    expect(ran.loadedAt[sdk]).toBeGreaterThan(spawns[0] as number);
    // Its ES module facade would load undici, fetch and all, in a process that only runs stdio.
    expect(ran.urls).not.toContain('node:http');
    // ajv (the SDK's Node validator) is 15 ms of CPU that no connect needs.
    expect(holdingAjv(ran.urls)).toEqual([]);
  });

  it('the outputSchema check loads ajv with the first result that needs it, and refuses a result that breaks it', () => {
    const ran = run(
      '@epoch-agent/plugin-mcp',
      `const config = { servers: { shapes: ${JSON.stringify(RESULT_SHAPES)} } };
const registry = new entry.McpRegistry({ schemaCache: null });
const [status] = await registry.connectAll(entry.parseMcpConfig(JSON.stringify(config), 'f').servers, 'user');
if (status.state !== 'connected') throw new Error(JSON.stringify(status));
console.log(JSON.stringify({ connectedAt: performance.timeOrigin + performance.now() }));
const wrong = registry.tools().find((tool) => tool.target.name === 'wrong');
const result = await wrong.execute({}, { signal: new AbortController().signal });
await registry.disconnectAll();
console.log(JSON.stringify({ result }));`,
    );
    const [connected, called] = ran.stdout.trim().split('\n');
    const { connectedAt } = JSON.parse(connected as string) as { connectedAt: number };
    const { result } = JSON.parse(called as string) as {
      result: { isError?: boolean; content: { text: string }[] };
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(
      'returned structuredContent that does not match its outputSchema',
    );
    const ajv = holdingAjv(ran.urls);
    expect(ajv).toHaveLength(1);
    expect(ran.loadedAt[ran.urls.indexOf(ajv[0] as string)]).toBeGreaterThan(connectedAt);
  });
});
