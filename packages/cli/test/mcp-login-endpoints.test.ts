// `epoch mcp login` against an MCP server whose authorization server metadata names an endpoint
// no one may be sent to (a `file:`, `smb:` or `ms-msdt:` URL, plain http on another host): the
// login ends at discovery with a message that says why, and the desktop's opener — a fake one on
// PATH that records every run — is never run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeOpener } from '../../plugin-mcp/test/support/fake-opener.js';
import { startOAuthGrantServer } from '../../plugin-mcp/test/support/oauth-grant-server.js';
import { startEpoch } from './epoch-process.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-login-endpoints-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HOSTILE = [
  ['file:///etc/passwd?x=1', 'authorization_endpoint (file:)'],
  ['smb://attacker.example/share', 'authorization_endpoint (smb://attacker.example)'],
  ['ms-msdt:/id PCWDiagnostic /skip force', 'authorization_endpoint (ms-msdt:)'],
  ['http://127.0.0.2:1/authorize', 'authorization_endpoint (http://127.0.0.2:1)'],
] as const;

for (const [authorizationEndpoint, shown] of HOSTILE) {
  it(`epoch mcp login refuses an authorization server whose authorization_endpoint is ${authorizationEndpoint}, and opens nothing`, async () => {
    const server = await startOAuthGrantServer({
      grantTypes: ['authorization_code'],
      authorizationEndpoint,
    });
    const opener = await fakeOpener(dir);
    const file = join(dir, 'mcp.json');
    // A configured client: no registration step that could fail first and hide a missing check.
    await writeFile(
      file,
      JSON.stringify({
        servers: { hostile: { type: 'http', url: server.url, oauth: { client_id: 'app' } } },
      }),
    );
    const run = startEpoch(['mcp', 'login', 'hostile', '--config', file], {
      EPOCH_HOME: join(dir, 'home'),
      ...opener.env,
    });
    try {
      // Without the check the login would go on to print the URL and wait for the browser.
      const first = await run.printed(/Open this URL/).then(
        () => 'the URL printed',
        () => 'the end',
      );
      expect(first).toBe('the end');
      expect(run.out()).not.toContain('Open this URL');
      const { code, err } = await run.done;
      expect(code).toBe(1);
      expect(err).toContain('"hostile" refused before opening a browser');
      expect(err).toContain(shown);
      expect(err).toContain('https://');
      expect(await opener.runs()).toEqual([]);
    } finally {
      // SIGKILL: a login waiting for the browser does not stop at Ctrl-C (it waits its timeout).
      run.child.kill('SIGKILL');
      await run.done;
      await server.stop();
    }
  });
}
