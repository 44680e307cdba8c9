// The packages as a user gets them from npm: each one `npm pack`ed as `npm publish` would pack it,
// installed into a fresh project outside this repository (no workspace links, none of its
// node_modules), and used the way the README says: an ES module host on McpRegistry and one on
// buildRuntime calling the reference server, a CommonJS host's require(), a TypeScript host's types
// (skipLibCheck off) and a global `epoch` on PATH. Third-party dependencies come from the npm
// registry (through npm's own cache); the packages are packed and installed once for the file.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npm, packAll, ROOT, userEnv } from './packages.mjs';

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CONSUMER = new URL('./consumer/', import.meta.url);
const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];
/** Packing, two installs from a cold npm cache on a slow machine. */
const SETUP_MS = 240_000;
const STEP_MS = 60_000;

let dir: string;
let project: string;
let config: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-consumer-'));
  const tarballs = (await packAll(dir)).map((tarball) => tarball.file);

  project = join(dir, 'project');
  await cp(CONSUMER, project, { recursive: true });
  await writeFile(join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
  // The TypeScript host needs Node's types, as any Node project does: the version this repo uses.
  const rootManifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const nodeTypes = `@types/node@${rootManifest.devDependencies['@types/node']}`;
  await npm(['install', ...INSTALL_FLAGS, ...tarballs, nodeTypes], project);

  // The cli's dependencies on its siblings are met by the tarballs installed beside it, as npm
  // meets them from the registry once they are published.
  const prefix = join(dir, 'global');
  await npm(['install', '--global', '--prefix', prefix, ...INSTALL_FLAGS, ...tarballs], dir);

  config = join(dir, 'mcp.json');
  const everything = { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] };
  await writeFile(config, JSON.stringify({ servers: { everything } }));
  const home = join(dir, 'home');
  await mkdir(home);
  const { PATH = '' } = userEnv();
  env = userEnv({
    EPOCH_HOME: home,
    NO_COLOR: '1',
    PATH: `${join(prefix, 'bin')}${delimiter}${PATH}`,
  });
}, SETUP_MS);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
});

/**
 * Runs `node <script> <config>` in the project: what it printed, as JSON. Each host has an epoch
 * home of its own, so none starts from the schema cache another one left (a warm start returns
 * before the server is connected).
 */
async function host(script: string): Promise<HostOutput> {
  const home = await mkdtemp(join(dir, 'home-'));
  const { stdout } = await run(process.execPath, [script, config], {
    cwd: project,
    env: { ...env, EPOCH_HOME: home },
  });
  return JSON.parse(stdout) as HostOutput;
}

interface HostOutput {
  readonly states: string[];
  readonly result: { readonly content: { readonly text?: string }[] };
  /** Where the package was loaded from. */
  readonly from: string;
}

const SUM = [{ type: 'text', text: 'The sum of 19 and 23 is 42.' }];

describe('installed from its npm tarballs into a fresh project', () => {
  it(
    'an ES module imports McpRegistry and loadMcpConfig, connects the reference server and calls a tool',
    async () => {
      const output = await host('esm.mjs');
      expect(output.states).toEqual(['connected']);
      expect(output.result.content).toEqual(SUM);
      expect(output.from.startsWith(pathToFileURL(join(project, 'node_modules')).href)).toBe(true);
    },
    STEP_MS,
  );

  it(
    'an ES module calls the same tool through buildRuntime',
    async () => {
      const output = await host('runtime.mjs');
      expect(output.states).toEqual(['connected']);
      expect(output.result.content).toEqual(SUM);
      expect(output.from.startsWith(pathToFileURL(join(project, 'node_modules')).href)).toBe(true);
    },
    STEP_MS,
  );

  it(
    'a CommonJS module require()s the package on this Node and calls the tool',
    async () => {
      const output = await host('require.cjs');
      expect(output.states).toEqual(['connected']);
      expect(output.result.content).toEqual(SUM);
      expect(output.from.startsWith(join(project, 'node_modules'))).toBe(true);
    },
    STEP_MS,
  );

  it.each(['node16', 'bundler'])(
    'a TypeScript host type-checks with moduleResolution %s, strict, skipLibCheck off',
    async (resolution) => {
      const checked = run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], {
        cwd: project,
        env,
      });
      // tsc prints its errors on stdout: show them when it fails.
      await expect(
        checked.catch((error) => Promise.reject(new Error(error.stdout))),
      ).resolves.toBeDefined();
    },
    STEP_MS,
  );
});

describe('epoch installed globally from the cli tarball', () => {
  it(
    'epoch mcp list and epoch mcp status work on a file with the reference server',
    async () => {
      const list = await run('epoch', ['mcp', 'list', '--config', config], { env });
      expect(list.stdout).toMatch(/^everything\s+user\s+stdio\s/m);
      const status = await run('epoch', ['mcp', 'status', '--config', config], { env });
      expect(status.stdout).toContain('The MCP server connected.');
    },
    STEP_MS,
  );

  it(
    'epoch web serves its page and the page assets on 127.0.0.1',
    async () => {
      const web = spawn('epoch', ['web', '--config', config], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const url = await printedUrl(web);
        expect(url.hostname).toBe('127.0.0.1');
        const page = await fetch(new URL('/', url));
        expect(page.status).toBe(200);
        const html = await page.text();
        const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
        expect(script).toBeDefined();
        const asset = await fetch(new URL(script ?? '', url));
        expect(asset.status).toBe(200);
        expect(asset.headers.get('content-type')).toMatch(/javascript/);
        expect((await asset.text()).length).toBeGreaterThan(1_000);
      } finally {
        const exited = once(web, 'exit');
        web.kill('SIGINT');
        expect((await exited)[0]).toBe(130);
      }
    },
    STEP_MS,
  );
});

/** The page's URL, as soon as `epoch web` has printed it; rejects if it exits first. */
function printedUrl(web: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let out = '';
    web.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      if (found !== null) resolve(new URL(found[0]));
    });
    web.on('exit', (code) => reject(new Error(`epoch web exited (${code}) printing only: ${out}`)));
  });
}
