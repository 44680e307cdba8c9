// What each entry of the built package loads, seen by a module hook in a fresh Node process: the
// root entry none of the SDK, zod, cross-spawn or the code of connections, stdio and OAuth (they
// load when a connection, a login or a cached schema needs them); `./stdio` is the Node-only part,
// as the SDK keeps its own at `./stdio`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// Runs in the hooks thread: tells the main thread every module URL that is loaded.
const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  port.postMessage(url);
  return next(url, context);
}`;

/** Every module URL that importing `specifier` (then running `after`) loads, in a fresh process. */
function loadedBy(specifier: string, after = ''): string[] {
  const script = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const loaded = [];
// One last module, loaded after the rest: its URL is the last message (a port keeps the order).
const END = 'data:text/javascript,export{}';
const ended = new Promise((resolve) => port1.on('message', (url) => (url === END ? resolve() : loaded.push(url))));
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), {
  data: { port: port2 },
  transferList: [port2],
});
const entry = await import(${JSON.stringify(specifier)});
${after}
await import(END);
await ended;
port1.close();
process.stdout.write(JSON.stringify(loaded));
`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`node exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

const HEAVY = [
  '/node_modules/@modelcontextprotocol/',
  '/node_modules/zod/',
  '/node_modules/cross-spawn/',
  '/plugin-mcp/dist/server-connection.js',
  '/plugin-mcp/dist/stdio.js',
  '/plugin-mcp/dist/transport/remote.js',
  '/plugin-mcp/dist/oauth/login.js',
];

describe('entry points of @epoch-agent/plugin-mcp', () => {
  it('the root entry, and reading a config with it, load no SDK, zod, or connection code', () => {
    const loaded = loadedBy(
      '@epoch-agent/plugin-mcp',
      `const { servers } = entry.parseMcpConfig('{"servers":{"a":{"command":"x"},"b":{"url":"https://h/mcp"}}}', 'f');
       if (servers.length !== 2) throw new Error('the config did not load');`,
    );
    expect(loaded.some((url) => url.endsWith('/plugin-mcp/dist/index.js'))).toBe(true);
    expect(loaded.filter((url) => HEAVY.some((heavy) => url.includes(heavy)))).toEqual([]);
  });

  it('./stdio is the Node-only part: the transport that reaps a process tree, without OAuth', () => {
    const loaded = loadedBy(
      '@epoch-agent/plugin-mcp/stdio',
      `if (typeof entry.StdioTransport !== 'function' || typeof entry.closeTransportAndReap !== 'function') {
         throw new Error('missing exports: ' + Object.keys(entry).join(', '));
       }`,
    );
    expect(loaded.some((url) => url.endsWith('/plugin-mcp/dist/transport/reap.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/plugin-mcp/dist/oauth/'))).toEqual([]);
  });
});
