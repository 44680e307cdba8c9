// Who may talk to epoch web: a POST there writes a command that epoch runs, so it listens on
// 127.0.0.1 only and refuses a foreign Host (DNS rebinding), a foreign Origin, and any /api call
// without this launch's key. One test per refusal, each proving nothing was done; and close(),
// which must leave no server process and no open port behind.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { mcpConfigPath } from '@epoch-agent/infra';
import { listeningAddresses } from '@epoch-agent/testkit';
import { isWebError, type McpView, startWeb } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyHandoffs } from '../src/key-handoff.js';
import {
  ANNOTATED_SERVER,
  fixtureEntry,
  processesWith,
  rawRequest,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const execFileAsync = promisify(execFile);

let web: TestWeb;
let file: string;
let original: string;
const newServer = { name: 'added', transport: 'stdio', command: process.execPath, args: ['-v'] };

beforeAll(async () => {
  file = mcpConfigPath();
  original = `${JSON.stringify({ servers: { words: fixtureEntry(ANNOTATED_SERVER) } }, null, 2)}\n`;
  await writeFile(file, original);
  web = await startTestWeb();
  await web.settled();
});

afterAll(async () => {
  await web?.close();
});

async function userServers(): Promise<string[]> {
  const view = (await (await web.api('/api/mcp')).json()) as McpView;
  return view.groups.user.map((s) => s.name);
}

describe('where epoch web can be reached', () => {
  it('listens on 127.0.0.1 only, and its URL carries the key in the fragment, which no request sends', () => {
    expect(listeningAddresses(web.port)).toEqual(['127.0.0.1']);
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a Host that is not the loopback name and its port (DNS rebinding), for the API and the page', async () => {
    const auth = { authorization: `Bearer ${web.token}` };
    for (const host of [
      'rebind.example',
      `rebind.example:${web.port}`,
      `127.0.0.1:${web.port + 1}`,
      'localhost',
      `127.0.0.2:${web.port}`,
    ]) {
      for (const path of ['/api/mcp', '/']) {
        const answer = await rawRequest(web.port, { path, headers: { host, ...auth } });
        expect(answer.status, `${host} ${path}`).toBe(403);
        expect(JSON.parse(answer.body).error.code).toBe('forbidden_host');
      }
    }
    const post = await rawRequest(web.port, {
      method: 'POST',
      path: '/api/mcp',
      headers: { host: 'rebind.example', 'content-type': 'application/json', ...auth },
      body: JSON.stringify(newServer),
    });
    expect(post.status).toBe(403);
    expect(await readFile(file, 'utf8')).toBe(original);
    for (const host of [`127.0.0.1:${web.port}`, `localhost:${web.port}`]) {
      const answer = await rawRequest(web.port, { path: '/api/mcp', headers: { host, ...auth } });
      expect(answer.status, host).toBe(200);
    }
  });

  it("refuses another site's Origin before anything runs: nothing is written", async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${web.port + 1}`]) {
      const response = await web.api('/api/mcp', {
        method: 'POST',
        json: newServer,
        headers: { origin },
      });
      expect(response.status, origin).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'forbidden_origin',
      );
    }
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await userServers()).toEqual(['words']);
  });

  it("refuses another site's Origin for the on/off switches too: the server keeps running, its tools offered", async () => {
    for (const path of ['/api/mcp/words/enabled', '/api/mcp/words/tools/lookup/enabled']) {
      const response = await web.api(path, {
        method: 'PUT',
        json: { enabled: false },
        headers: { origin: 'http://evil.example' },
      });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'forbidden_origin',
      );
    }
    expect(await readFile(file, 'utf8')).toBe(original);
    const view = (await (await web.api('/api/mcp')).json()) as McpView;
    expect(view.groups.user[0]).toMatchObject({ status: { state: 'connected', toolsOff: 0 } });
    expect(view.groups.user[0]?.tools.map((t) => t.serverName)).toEqual(['lookup', 'forget']);
  });

  it('every /api call needs the key of this launch; the page itself does not, and forbids framing', async () => {
    const bare = (path: string, init: RequestInit = {}) => fetch(`${web.origin}${path}`, init);
    const cases: [Response, string][] = [
      [await bare('/api/mcp'), 'missing_token'],
      [await bare(`/api/mcp?token=${web.token}`), 'missing_token'],
      [await bare('/api/events'), 'missing_token'],
      // A server's output (its log messages, its stderr) is the page's only.
      [await bare('/api/mcp/words/output'), 'missing_token'],
      [
        await bare('/api/mcp', { headers: { authorization: 'Bearer not-the-key' } }),
        'invalid_token',
      ],
      [
        await bare('/api/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: web.origin },
          body: JSON.stringify(newServer),
        }),
        'missing_token',
      ],
      [await bare('/api/mcp/words', { method: 'DELETE' }), 'missing_token'],
      [
        await bare('/api/mcp/words/enabled', {
          method: 'PUT',
          headers: { 'content-type': 'application/json', origin: web.origin },
          body: JSON.stringify({ enabled: false }),
        }),
        'missing_token',
      ],
    ];
    for (const [response, code] of cases) {
      expect(response.status, response.url).toBe(401);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toContain('URL epoch printed');
    }
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await userServers()).toEqual(['words']);

    const page = await bare('/');
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(web.token);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("another launch has another key: this one's is refused there", async () => {
    const other = await startTestWeb();
    try {
      expect(other.token).not.toBe(web.token);
      const response = await fetch(`${other.origin}/api/mcp`, {
        headers: { authorization: `Bearer ${web.token}` },
      });
      expect(response.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('a one-time address carries no key, leads to the page with the key once, and is refused after that', async () => {
    const once = new URL(web.oneTimeUrl());
    expect(once.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\/[A-Za-z0-9_-]{43}$/);
    expect(once.href).not.toContain(web.token);
    expect(web.oneTimeUrl()).not.toBe(once.href);

    const first = await fetch(once, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const page = new URL(first.headers.get('location') ?? '', once);
    expect(page.href).toBe(web.url);
    const api = await fetch(new URL('/api/mcp', page), {
      headers: { authorization: `Bearer ${page.hash.slice('#token='.length)}` },
    });
    expect(api.status).toBe(200);

    for (const used of [once.href, `${web.origin}/open/made-up`, `${web.origin}/open/`]) {
      const again = await fetch(used, { redirect: 'manual' });
      expect(again.status, used).not.toBe(303);
      expect(await again.text()).not.toContain(web.token);
    }
    const refused = await fetch(once, { redirect: 'manual' });
    expect(refused.status).toBe(410);
    expect(await refused.text()).toContain('URL `epoch web` printed');
  });

  // Another user: needs root to be one (setpriv). CI runs as root.
  it.skipIf(process.getuid?.() !== 0)(
    'a one-time address asked for by another local user is refused, and stays good for ours',
    async () => {
      const once = web.oneTimeUrl();
      const script = `fetch(${JSON.stringify(once)}, { redirect: 'manual' }).then(async (r) => console.log(r.status, await r.text()))`;
      // Not spawnSync: the page is served by this very process.
      const other = await execFileAsync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script],
        { encoding: 'utf8' },
      );
      expect(other.stderr).toBe('');
      expect(other.stdout).toMatch(/^403 /);
      expect(other.stdout).not.toContain(web.token);
      const ours = await fetch(once, { redirect: 'manual' });
      expect(ours.status).toBe(303);
      expect(ours.headers.get('location')).toContain(web.token);
    },
  );

  it('a one-time id past its time is refused', () => {
    const handoffs = new KeyHandoffs({ ttlMs: 0 });
    expect(handoffs.take(handoffs.mint())).toBe(false);
    const good = new KeyHandoffs();
    const id = good.mint();
    expect(good.take(id)).toBe(true);
    expect(good.take(id)).toBe(false);
  });

  it('a port in use is port_in_use, and nothing is started', async () => {
    const error = await startWeb({ port: web.port }).catch((e: unknown) => e);
    expect(isWebError(error, 'port_in_use')).toBe(true);
    expect((error as Error).message).toContain(`127.0.0.1:${web.port}`);
    expect((error as Error).message).toContain('--port');
  });
});

describe('close', () => {
  it('ends the event streams, stops listening and reaps every server process', async () => {
    const marker = `--marker=${process.pid}-${Date.now()}`;
    const other = join(dirname(file), 'other-mcp.json');
    await writeFile(
      other,
      JSON.stringify({
        servers: { marked: { command: process.execPath, args: [...ANNOTATED_SERVER, marker] } },
      }),
    );
    const closing = await startTestWeb({ configFile: other });
    try {
      await closing.settled();
      expect(processesWith(marker)).toHaveLength(1);
      const events = await closing.api('/api/events');
      const reader = events.body?.getReader();
      await closing.close();
      // The stream ends (or breaks) instead of hanging.
      await expect(drain(reader)).resolves.toBeUndefined();
      await expect(fetch(`${closing.origin}/`)).rejects.toThrow();
      expect(processesWith(marker)).toEqual([]);
    } finally {
      await closing.close();
    }
  });
});

async function drain(reader: ReadableStreamDefaultReader<Uint8Array> | undefined): Promise<void> {
  try {
    while (!(await reader?.read())?.done) {
      // the views sent before the end
    }
  } catch {
    // A connection cut by close() is an end too.
  }
}
