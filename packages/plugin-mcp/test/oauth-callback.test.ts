// The loopback callback server a browser login ends at: real HTTP on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { startCallbackServer } from '../src/oauth/callback-server.js';

const STATE = 'state-0123456789';

describe('login callback server', () => {
  it('takes the one callback with the right path and state, answers a page, and closes', async () => {
    const controller = new AbortController();
    const server = await startCallbackServer({
      server: 'gh',
      port: 0,
      state: STATE,
      signal: controller.signal,
    });
    try {
      expect(server.redirectUrl).toBe(`http://127.0.0.1:${server.port}/callback`);
      const wrongPath = await fetch(`http://127.0.0.1:${server.port}/favicon.ico`);
      expect(wrongPath.status).toBe(404);
      const wrongState = await fetch(`${server.redirectUrl}?code=forged&state=other`);
      expect(wrongState.status).toBe(400);
      expect(await wrongState.text()).toContain('Start the login again');
      const noState = await fetch(`${server.redirectUrl}?code=forged`);
      expect(noState.status).toBe(400);

      const browser = await fetch(`${server.redirectUrl}?code=the-code&state=${STATE}&iss=x`);
      expect(browser.status).toBe(200);
      expect(await browser.text()).toContain('logged in to &#34;gh&#34;');
      const params = await server.callback;
      expect(params.get('code')).toBe('the-code');
      expect(params.get('iss')).toBe('x');
      // Exactly one: nothing listens any more.
      await expect(fetch(`${server.redirectUrl}?code=again&state=${STATE}`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('an error callback with the right state ends the wait with its parameters', async () => {
    const server = await startCallbackServer({
      server: 'gh',
      port: 0,
      state: STATE,
      signal: new AbortController().signal,
    });
    try {
      const browser = await fetch(`${server.redirectUrl}?error=access_denied&state=${STATE}`);
      expect(browser.status).toBe(400);
      expect((await server.callback).get('error')).toBe('access_denied');
    } finally {
      await server.close();
    }
  });

  it('with a return URL, the callback sends the browser back there, on success and on error; a stale link still gets the page', async () => {
    const returnUrl = 'http://127.0.0.1:9/#token=page-key';
    for (const [query, param, value] of [
      [`code=the-code&state=${STATE}`, 'code', 'the-code'],
      [`error=access_denied&state=${STATE}`, 'error', 'access_denied'],
    ] as const) {
      const server = await startCallbackServer({
        server: 'gh',
        port: 0,
        state: STATE,
        signal: new AbortController().signal,
        returnUrl,
      });
      try {
        const stale = await fetch(`${server.redirectUrl}?code=old&state=other`, {
          redirect: 'manual',
        });
        expect(stale.status).toBe(400);
        expect(await stale.text()).toContain('Start the login again');
        const browser = await fetch(`${server.redirectUrl}?${query}`, { redirect: 'manual' });
        expect(browser.status).toBe(303);
        expect(browser.headers.get('location')).toBe(returnUrl);
        expect(browser.headers.get('referrer-policy')).toBe('no-referrer');
        expect((await server.callback).get(param)).toBe(value);
      } finally {
        await server.close();
      }
    }
  });

  it('aborting stops the wait with the abort reason and frees the port', async () => {
    const controller = new AbortController();
    const server = await startCallbackServer({
      server: 'gh',
      port: 0,
      state: STATE,
      signal: controller.signal,
    });
    controller.abort(new Error('too late'));
    await expect(server.callback).rejects.toThrow('too late');
    await server.close();
    // The same port can be listened on again: the login's next round reuses it.
    const again = await startCallbackServer({
      server: 'gh',
      port: server.port,
      state: STATE,
      signal: new AbortController().signal,
    });
    await again.close();
  });

  it('listens on 127.0.0.1 only, and a taken fixed port is a login_failed naming callback_port', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const error = await startCallbackServer({
        server: 'gh',
        port,
        state: STATE,
        signal: new AbortController().signal,
      }).catch((e: unknown) => e);
      expect(isMcpError(error, 'login_failed')).toBe(true);
      expect((error as Error).message).toContain('oauth.callback_port');
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
