import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const SECRET = 'sk-live-do-not-print-42';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { env });

async function configFile(text: string): Promise<string> {
  const file = join(dir, 'mcp.json');
  await writeFile(file, text);
  return file;
}

const mixed = `{
  // one good server per transport, one broken one
  "servers": {
    "fs": { "command": "npx", "args": ["-y", "server-fs", "--api-key=${SECRET}", "--token", "${SECRET}"], "env": { "API_KEY": "${SECRET}" } },
    "events": { "url": "https://user:${SECRET}@sse.example.com/sse?token=${SECRET}" },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer ${SECRET}" } },
    "broken": { "command": "x", "timeout": "30" },
  },
}`;

describe('epoch mcp list', () => {
  it('prints a table of the servers it understood and the diagnostics, secrets redacted', async () => {
    const file = await configFile(mixed);
    const { code, out } = await run(['mcp', 'list', '--config', file]);
    expect(code).toBe(1);
    expect(out).toMatch(/^NAME\s+SOURCE\s+TRANSPORT\s+CHOICE\s+TOOLS\s+TARGET$/m);
    expect(out).toMatch(
      /^fs\s+user\s+stdio\s+all tools\s+-\s+npx -y server-fs --api-key=<redacted> --token <redacted>$/m,
    );
    expect(out).toMatch(
      /^events\s+user\s+sse\s+all tools\s+-\s+https:\/\/user:\*\*\*@sse\.example\.com\/sse\?token=\*\*\*$/m,
    );
    expect(out).toMatch(
      /^remote\s+user\s+http\s+all tools\s+-\s+https:\/\/mcp\.example\.com\/mcp$/m,
    );
    expect(out).not.toMatch(/^broken/m);
    expect(out).toContain(`${file}:7:`);
    expect(out).toContain('servers.broken.timeout');
    expect(out).not.toContain(SECRET);
  });

  it('--json prints the same content as JSON, secrets redacted', async () => {
    const file = await configFile(mixed);
    const { code, out } = await run(['mcp', 'list', '--config', file, '--json']);
    expect(code).toBe(1);
    const parsed = JSON.parse(out);
    expect(parsed.file).toBe(file);
    expect(parsed.servers.map((s: { name: string }) => s.name)).toEqual(['fs', 'events', 'remote']);
    expect(parsed.servers[0].env).toEqual({ API_KEY: '<redacted>' });
    expect(parsed.servers[2].headers).toEqual({ Authorization: '<redacted>' });
    expect(parsed.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'servers.broken.timeout', line: 7 }),
    );
    expect(out).not.toContain(SECRET);
  });

  it('quotes an argument as a shell would need it, so the command can be read and pasted', async () => {
    const file = await configFile(
      JSON.stringify({
        servers: {
          fs: { command: 'npx', args: ['-y', 'server-fs', '/home/me/My Documents', "it's", ''] },
        },
      }),
    );
    const { out } = await run(['mcp', 'list', '--config', file]);
    expect(out).toMatch(
      /^fs\s+user\s+stdio\s+all tools\s+-\s+npx -y server-fs '\/home\/me\/My Documents' 'it'\\''s' ''$/m,
    );
  });

  it('exits 0 for a file without errors, warnings included', async () => {
    const file = await configFile(
      '{ "servers": { "a": { "command": "x", "conect_timeout": 5 } } }',
    );
    const { code, out } = await run(['mcp', 'list', '--config', file]);
    expect(code).toBe(0);
    expect(out).toContain('warning');
    expect(out).toContain('connect_timeout');
  });

  it('reads the active profile of EPOCH_HOME when --config is not given', async () => {
    await rm(dir, { recursive: true });
    const home = join(dir, 'home');
    const { code, out } = await run(['mcp', 'list'], { EPOCH_HOME: home, EPOCH_PROFILE: 'work' });
    expect(code).toBe(0);
    expect(out).toContain(
      `No MCP servers: ${join(home, 'profiles', 'work', 'mcp.json')} does not exist ("epoch mcp add" creates it)`,
    );
  });

  it('rejects an unknown command and a bad profile name with exit code 2', async () => {
    expect((await run(['mcp', 'lst'])).code).toBe(2);
    const bad = await run(['mcp', 'list'], { EPOCH_HOME: dir, EPOCH_PROFILE: '../x' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('EPOCH_PROFILE');
  });

  it('the epoch binary sets the exit code', async () => {
    const file = await configFile(mixed);
    const result = await promisify(execFile)(process.execPath, [
      bin,
      'mcp',
      'list',
      '--config',
      file,
    ]).catch((error: { code: number; stdout: string }) => error);
    expect('code' in result ? result.code : 0).toBe(1);
    expect(result.stdout).toContain('servers.broken.timeout');
  });
});
