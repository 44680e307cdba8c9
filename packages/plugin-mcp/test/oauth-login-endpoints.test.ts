// Where a login may send the user: the authorization endpoint comes from a remote server's
// metadata, and an OS opener hands a `file:`, `smb:` or `ms-msdt:` URL to whatever program the
// system registered for it. Only https://, and http:// on this machine, is opened; anything else
// ends the login at discovery, before a client is registered or a browser opened. And the Windows
// opener is no shell: no character of a URL reaches cmd.exe.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { loginToServer } from '../src/oauth/login.js';
import { isBrowserUrl, openInBrowser, windowsOpenCommand } from '../src/oauth/open-url.js';
import { fakeOpener } from './support/fake-opener.js';
import {
  type OAuthGrantServerOptions,
  type RunningOAuthGrantServer,
  startOAuthGrantServer,
} from './support/oauth-grant-server.js';
import { ownLogins } from './support/own-logins.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('which URLs go to a browser', () => {
  it('https://, and http:// to a loopback host; nothing else', () => {
    const opened = [
      'https://auth.example/authorize?x=1',
      'http://127.0.0.1:8080/callback',
      'http://localhost:3000/',
      'http://[::1]:9/',
    ];
    const refused = [
      'http://127.0.0.2/authorize',
      'http://auth.example/authorize',
      'http://10.0.0.1/',
      'file:///etc/passwd?x=1',
      'file://localhost/etc/passwd',
      'smb://attacker.example/share',
      'ms-msdt:/id PCWDiagnostic /skip force',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://localhost/',
      // A name under .localhost resolves wherever /etc/hosts or DNS says.
      'http://app.localhost/',
    ];
    for (const url of opened) expect(isBrowserUrl(new URL(url)), url).toBe(true);
    for (const url of refused) expect(isBrowserUrl(new URL(url)), url).toBe(false);
  });

  it('on Windows, rundll32 from System32 with the re-serialized URL as one argument, whatever it holds', () => {
    const hostile = [
      'https://evil.example/a|calc.exe&b?x=1',
      'https://evil.example/?a=1&b=2^&c=3',
      'https://evil.example/%PATH%/%USERPROFILE%?v=%COMSPEC%',
      'https://evil.example/a"b"&calc.exe&"',
      'https://evil.example/a<b>c?d=<e>#<f>',
      'https://evil.example/a\ncalc.exe\r\n&b\tc',
      'https://evil.example/!PATH!?x=!y!',
      'https://evil.example/a b?c d#e f',
      'http://127.0.0.1:9/&|^%x%!"<>',
    ];
    for (const text of hostile) {
      const url = new URL(text);
      const { file, args } = windowsOpenCommand(url, 'C:\\Windows');
      expect(file).toBe('C:\\Windows\\System32\\rundll32.exe');
      expect(args).toEqual(['url.dll,FileProtocolHandler', url.href]);
      // Node quotes a Windows argument only for a space, tab or quote; the URL has none, so the
      // command line holds it exactly, and no shell is there to read `&`, `|`, `^`, `%`, `!`.
      expect(url.href, text).not.toMatch(/[\s"<>]/);
      // Re-serializing kept what the URL means: the same query, in the same order.
      expect([...new URL(args[1] ?? '').searchParams]).toEqual([...url.searchParams]);
    }
  });

  it('openInBrowser refuses what is not a browser URL without running the opener, and runs it with the URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'epoch-open-url-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const opener = await fakeOpener(dir);
    const path = process.env.PATH;
    process.env.PATH = opener.env.PATH;
    cleanups.push(() => {
      process.env.PATH = path;
    });
    for (const url of ['file:///etc/passwd', 'smb://x/y', 'ms-msdt:/id x', 'http://127.0.0.2/']) {
      await expect(openInBrowser(url), url).rejects.toThrow('only https://');
    }
    expect(await opener.runs()).toEqual([]);
    await openInBrowser('https://auth.example/a|b&c?x=%V%');
    expect(await opener.firstRun()).toEqual(['https://auth.example/a|b&c?x=%V%']);
  });
});

describe('a login whose authorization server names an endpoint no one may be sent to', () => {
  async function grantServer(options: OAuthGrantServerOptions): Promise<RunningOAuthGrantServer> {
    const server = await startOAuthGrantServer({ grantTypes: ['authorization_code'], ...options });
    cleanups.push(() => server.stop());
    return server;
  }

  /** A login with a configured client (so no registration could stop it first); its outcome. */
  async function login(server: RunningOAuthGrantServer) {
    const logins = ownLogins();
    cleanups.push(() => logins.remove());
    const config = remoteConfig('hostile', 'http', server.url, {
      oauth: { clientId: 'app' },
      timeoutMs: 20_000,
      connectTimeoutMs: 20_000,
    });
    const sent: string[] = [];
    const page = new AbortController();
    const error = await loginToServer({
      config,
      store: logins.store,
      signal: page.signal,
      onAuthorizationUrl: (url) => {
        sent.push(url);
        page.abort(new Error('the browser would be sent now'));
      },
      openUrl: async (url) => {
        sent.push(url);
      },
    }).catch((e: unknown) => e);
    return { error: error as Error, sent };
  }

  const hostile: Array<[OAuthGrantServerOptions, string]> = [
    [{ authorizationEndpoint: 'file:///etc/passwd?x=1' }, 'authorization_endpoint (file:)'],
    [{ authorizationEndpoint: 'smb://attacker.example/share' }, '(smb://attacker.example)'],
    [{ authorizationEndpoint: 'ms-msdt:/id PCWDiagnostic /skip force' }, '(ms-msdt:)'],
    [{ authorizationEndpoint: 'http://127.0.0.2:1/authorize' }, '(http://127.0.0.2:1)'],
    [{ tokenEndpoint: 'http://auth.example/token' }, 'token_endpoint (http://auth.example)'],
  ];
  for (const [options, shown] of hostile) {
    it(`is refused at discovery: ${JSON.stringify(options)}`, async () => {
      const server = await grantServer(options);
      const { error, sent } = await login(server);
      expect(isMcpError(error, 'login_failed'), error.message).toBe(true);
      expect(error.message).toContain('"hostile" refused before opening a browser');
      expect(error.message).toContain(shown);
      expect(error.message).toContain('https://');
      expect(sent).toEqual([]);
      // The probe and discovery only: no registration, no token request.
      const others = server.requests
        .map((r) => `${r.method} ${r.path}`)
        .filter((r) => r !== 'POST /mcp' && !r.startsWith('GET /.well-known/'));
      expect(others).toEqual([]);
    });
  }

  it('an https:// or loopback http:// endpoint gets as far as the browser', async () => {
    for (const authorizationEndpoint of [
      'https://auth.example/authorize',
      'http://localhost:1/authorize',
    ]) {
      const { error, sent } = await login(await grantServer({ authorizationEndpoint }));
      expect(error.message).toBe('the browser would be sent now');
      expect(sent[0]?.startsWith(`${authorizationEndpoint}?`)).toBe(true);
    }
  });
});
