// runtime.login connects as the runtime's servers do: the host's headersHelper function is asked
// for the login's check too, and an entry's `headers_helper` (a program epoch runs) only once what
// the server runs is approved. On real sockets: an MCP server with its own authorization server on
// 127.0.0.1 that lets in a request carrying its key and otherwise answers 401 with its OAuth
// metadata; the helper is a real node script.
import { isMcpError, type McpHeadersHelper } from '@epoch-agent/plugin-mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HelperScript, helperScript } from '../../plugin-mcp/test/support/helper-script.js';
import {
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from '../../plugin-mcp/test/support/oauth-grant-server.js';
import { rejection, useRuntimeHome } from './runtime-helpers.js';

const KEY = 'gateway-key-9f27c0d4e1b8';
const t = useRuntimeHome();
let server: RunningOAuthGrantServer;
let helper: HelperScript;

beforeEach(async () => {
  server = await startOAuthGrantServer({
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethods: ['none'],
    keyHeader: ['X-Api-Key', KEY],
  });
  helper = await helperScript(t.home.dir);
});
afterEach(() => server.stop());

const handlers = {
  onAuthorizationUrl: () => {},
  // The browser: follows the authorization endpoint's redirect to the login's callback.
  openUrl: async (url: string) => void (await fetch(url)).body?.cancel(),
  timeoutMs: 20_000,
};

describe('runtime.login', () => {
  it("asks the host's headersHelper for its check: a server its key lets in needs no login", async () => {
    await t.home.writeUserConfig({ keyed: { type: 'http', url: server.url } });
    const asked: string[] = [];
    const headersHelper: McpHeadersHelper = ({ server: name, url, reason }) => {
      asked.push(`${name} ${url} ${reason}`);
      return { 'X-Api-Key': KEY };
    };
    const runtime = await t.build({ connectOnly: [], registry: { headersHelper } });
    const error = await rejection(runtime.login('keyed', handlers));
    expect(isMcpError(error, 'login_not_needed')).toBe(true);
    expect((error as Error).message).toContain('MCP server "keyed" needs no login');
    expect(server.authorizations).toEqual([]);
    expect(asked).toEqual([`keyed ${server.url} connect`]);
  });

  it("runs a plugin server's headers_helper only once it is approved: before, nothing runs or is sent", async () => {
    await helper.print({ 'X-Api-Key': KEY });
    const entry = { type: 'http', url: server.url, headers_helper: helper.words };
    await t.home.writePluginConfig('tp', { keyed: entry });
    const runtime = await t.build({ connectOnly: [] });
    const held = await rejection(runtime.login('tp__keyed', handlers));
    expect(isMcpError(held, 'needs_approval')).toBe(true);
    expect((held as Error).message).toContain('MCP server "tp__keyed" waits for approval');
    expect(await helper.runs()).toEqual([]);
    expect(server.requests).toEqual([]);

    // Approving it starts it (its helper runs for that connection); the login then runs it too.
    await runtime.approveServer('tp__keyed');
    const error = await rejection(runtime.login('tp__keyed', handlers));
    expect(isMcpError(error, 'login_not_needed')).toBe(true);
    expect(server.authorizations).toEqual([]);
    expect(await helper.runs()).toEqual(['connect', 'connect']);
  });
});
