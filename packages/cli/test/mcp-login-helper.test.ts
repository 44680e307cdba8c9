// `epoch mcp login` of a server whose `headers_helper` gives it a key: the login's first check
// sends what the helper prints, as every connection of the server does, so a server the key lets
// in needs no login; and a helper that waits for approval is not run by a login either. On real
// sockets (an MCP server with its own authorization server on 127.0.0.1, which answers 401 with
// its OAuth metadata to a request without the key) and a real helper script.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type HelperScript, helperScript } from '../../plugin-mcp/test/support/helper-script.js';
import {
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from '../../plugin-mcp/test/support/oauth-grant-server.js';
import { type CliRun, runCli } from './run-cli.js';

const KEY = 'gateway-key-3a61f8e02c7d';
let dir: string;
let server: RunningOAuthGrantServer;
let helper: HelperScript;
let previousHome: string | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-login-helper-'));
  // The home of the plugins and the logins, which the runtime finds in process.env.
  previousHome = process.env.EPOCH_HOME;
  process.env.EPOCH_HOME = dir;
  server = await startOAuthGrantServer({
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethods: ['none'],
    keyHeader: ['X-Api-Key', KEY],
  });
  helper = await helperScript(dir);
  await helper.print({ 'X-Api-Key': KEY });
});
afterEach(async () => {
  if (previousHome === undefined) delete process.env.EPOCH_HOME;
  else process.env.EPOCH_HOME = previousHome;
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const entry = () => ({ type: 'http', url: server.url, headers_helper: helper.words });

async function login(name: string): Promise<CliRun> {
  const file = join(dir, 'mcp.json');
  const run = await runCli(['mcp', 'login', name, '--config', file], {
    // The browser: follows the authorization endpoint's redirect to the login's callback.
    openUrl: async (url) => void (await fetch(url)).body?.cancel(),
  });
  expect(run.out + run.err).not.toContain(KEY);
  return run;
}

it('a server the key its headers_helper prints lets in needs no login: nothing is asked of the browser', async () => {
  await writeFile(join(dir, 'mcp.json'), JSON.stringify({ servers: { keyed: entry() } }));
  const run = await login('keyed');
  expect(run.err).toContain(
    'MCP server "keyed" needs no login: it answered without one and lists 1 tool. Nothing was stored.',
  );
  expect(run.code).toBe(2);
  expect(run.out).not.toContain('Open this URL');
  expect(server.authorizations).toEqual([]);
  expect(await helper.runs()).toEqual(['connect']);
});

it("a plugin server's headers_helper not approved is not run by a login: nothing is sent, approve it first", async () => {
  await writeFile(join(dir, 'mcp.json'), JSON.stringify({ servers: {} }));
  await mkdir(join(dir, 'plugins', 'tp'), { recursive: true });
  await writeFile(
    join(dir, 'plugins', 'tp', 'mcp.json'),
    JSON.stringify({ servers: { keyed: entry() } }),
  );
  const run = await login('tp__keyed');
  expect(run.err).toContain('MCP server "tp__keyed" waits for approval of what it would run');
  expect(run.err).toContain('approve it with "epoch mcp approve tp__keyed"');
  expect(run.code).toBe(1);
  expect(await helper.runs()).toEqual([]);
  expect(server.requests).toEqual([]);
});
