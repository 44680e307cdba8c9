// `epoch mcp login` against an authorization server that attacks the terminal: its
// error_description clears the screen and prints a fake "Logged in", or its token endpoint
// answers a 50 kB or a 2 MB body that is not JSON (the SDK quotes it as "Raw body"). What the
// login prints (the built bin, the SDK's own console warnings included) has every control
// character visible and is cut to a few kB, with a note of what was cut; 2 MB is not even read.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawControls } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';
import { type HostileAuthServer, startHostileAuthServer } from './hostile-auth-server.js';
import { loginBrowser } from './login-browser.js';

const HOSTILE_FILE = new URL('./fixtures/hostile-text.json', import.meta.url);

let dir: string;
let file: string;
let hostile: string;
let server: HostileAuthServer;

beforeAll(async () => {
  hostile = JSON.parse(await readFile(HOSTILE_FILE, 'utf8')).text;
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-login-hostile-'));
  server = await startHostileAuthServer({ status: 500, contentType: 'text/plain', body: '' });
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({ servers: { hostile: { type: 'http', url: server.mcpUrl } } }),
  );
});

afterAll(async () => {
  try {
    await server?.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * `epoch mcp login hostile` as a process; the URL it prints is followed as a browser would. PATH
 * is empty, so the process opens no real browser (xdg-open is not found, the printed URL is the way).
 */
async function login() {
  const epoch = startEpoch(['mcp', 'login', 'hostile', '--config', file], {
    EPOCH_HOME: join(dir, 'home'),
    PATH: join(dir, 'no-bin'),
  });
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /^ {2}(http\S+)$/m.exec(epoch.out())?.[1];
      if (found !== undefined) resolve(found);
    };
    epoch.child.stdout?.on('data', look);
    void epoch.done.then(() => reject(new Error(`no URL printed: ${epoch.out()}${epoch.err()}`)));
  });
  await loginBrowser().openUrl(url);
  return epoch.done;
}

describe('epoch mcp login against a hostile authorization server', () => {
  it('shows its error_description with the escapes visible', async () => {
    server.answer = {
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'invalid_grant', error_description: hostile }),
    };
    const { code, out, err } = await login();
    expect(code).toBe(1);
    expect(rawControls(out)).toEqual([]);
    expect(rawControls(err)).toEqual([]);
    expect(err).toContain('\\x1b[2J\\x1b[H');
    expect(err).not.toMatch(/^Logged in/m);
  });

  it('cuts a 50 kB body to a few kB and says how much was cut', async () => {
    server.answer = {
      status: 500,
      contentType: 'text/plain',
      body: `${hostile}${'x'.repeat(50_000)}`,
    };
    const { code, out, err } = await login();
    expect(code).toBe(1);
    expect(rawControls(out)).toEqual([]);
    expect(rawControls(err)).toEqual([]);
    expect(err.length).toBeLessThan(4096);
    expect(err).toMatch(/… \[4\d,\d{3} more characters not shown\]/);
  });

  it('says a web page is one instead of printing its HTML', async () => {
    server.answer = {
      status: 500,
      contentType: 'text/html',
      body: `<!DOCTYPE html>\n<html><head><title>Error</title></head><body><pre>${hostile}</pre></body></html>`,
    };
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(rawControls(err)).toEqual([]);
    expect(err).toContain('(an HTML page)');
    expect(err).not.toMatch(/<html|<body|<title|<pre/i);
  });

  it('does not read a 2 MB body, and says so in a line', async () => {
    server.answer = {
      status: 500,
      contentType: 'text/html',
      body: `<html>${hostile}${'x'.repeat(2 * 1024 * 1024)}</html>`,
    };
    const { code, err } = await login();
    expect(code).toBe(1);
    expect(rawControls(err)).toEqual([]);
    expect(err.length).toBeLessThan(1024);
    expect(err).toContain('answered with more than 64 KiB');
  });
});
