// Ctrl-C and SIGTERM to a real `epoch mcp login` process while it waits for the browser, against a
// real authorization server (the testkit's oauth-servers.mjs). One signal ends the login with exit
// 130: the browser that finishes the login afterwards finds the callback listener closed, the code
// is never exchanged, and nothing is stored.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OAuthFixture, startOAuthFixture } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';
import { loginBrowser } from './login-browser.js';

let dir: string;
let file: string;
let fixture: OAuthFixture;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-login-interrupt-'));
  fixture = await startOAuthFixture();
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({ servers: { secured: { type: 'http', url: fixture.mcpUrl } } }),
  );
});

afterAll(async () => {
  await fixture?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('an interrupted epoch mcp login', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while it waits for the browser: the listener closes, nothing is stored, exit 130',
    async (signal) => {
      const home = join(dir, signal);
      // No browser opener on PATH: the test is the browser.
      const run = startEpoch(['mcp', 'login', 'secured', '--config', file], {
        EPOCH_HOME: home,
        PATH: dir,
      });
      try {
        await run.printed(/Waiting for the login/);
        const url = /^ {2}(http\S+)$/m.exec(run.out())?.[1];
        if (url === undefined) throw new Error(`no URL in: ${run.out()}`);
        const tokensBefore = fixture.events.filter((e) => e.event === 'token').length;
        run.child.kill(signal);
        // One signal ends it: the process exits without the browser (before the fix it waited
        // for the browser, then stored the tokens).
        const { code, out } = await run.done;
        expect(code).toBe(130);
        expect(out).not.toContain('Logged in');
        // The user finishes the login in the browser afterwards: nothing listens for the callback.
        const reached = await loginBrowser()
          .openUrl(url)
          .then(
            () => 'the callback',
            (error: unknown) => String((error as Error).cause ?? error),
          );
        expect(reached).toContain('ECONNREFUSED');
        expect(fixture.events.filter((e) => e.event === 'token').length).toBe(tokensBefore);
        expect(await readdir(join(home, 'oauth')).catch(() => [])).toEqual([]);
      } finally {
        run.child.kill('SIGKILL');
      }
    },
  );
});
