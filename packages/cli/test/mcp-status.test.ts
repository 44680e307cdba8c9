// `epoch mcp status` against real servers: the reference server over stdio (spawned by the command
// under test) and over Streamable HTTP on 127.0.0.1 (started by the testkit), a command that does not
// exist, and one that crashes after writing to stderr. Config files live in a temp dir, EPOCH_HOME
// too.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVERYTHING_ENTRY,
  FIXTURE_SERVER,
  type RunningEverything,
  startEverything,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from './processes.js';
import { runCli } from './run-cli.js';

const SECRET = 'sk-live-status-must-not-print-7';
// Put on the stdio server's command line so the test can find its process afterwards.
const MARKER = `epoch-status-test-${randomUUID()}`;

let dir: string;
let previousHome: string | undefined;
let remote: RunningEverything | undefined;
let remoteUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-status-'));
  previousHome = process.env.EPOCH_HOME;
  process.env.EPOCH_HOME = join(dir, 'home');
  remote = await startEverything('http');
  if (remote.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
  remoteUrl = remote.endpoint.url;
});

afterAll(async () => {
  try {
    await remote?.stop();
  } finally {
    if (previousHome === undefined) delete process.env.EPOCH_HOME;
    else process.env.EPOCH_HOME = previousHome;
    await rm(dir, { recursive: true, force: true });
  }
});

const local = () => ({
  command: process.execPath,
  args: [EVERYTHING_ENTRY, 'stdio', MARKER],
  env: { API_KEY: SECRET },
  connect_timeout: 20,
});
const http = () => ({
  type: 'http',
  url: remoteUrl,
  headers: { Authorization: `Bearer ${SECRET}` },
  connect_timeout: 20,
});
const missing = { command: `epoch-no-such-command-${randomUUID()}` };
// Prints its token to stderr and dies before answering: the status must show stderr, not the token.
const crashing = {
  command: process.execPath,
  args: [
    '-e',
    'console.error("cannot start: token " + process.env.TOKEN + " rejected"); process.exit(3)',
  ],
  env: { TOKEN: SECRET },
};

async function configFile(servers: Record<string, unknown>): Promise<string> {
  const file = join(dir, `mcp-${randomUUID()}.json`);
  await writeFile(file, JSON.stringify({ servers }, null, 2));
  return file;
}

const status = (file: string, ...flags: string[]) =>
  runCli(['mcp', 'status', '--config', file, ...flags], {
    env: { EPOCH_HOME: join(dir, 'home') },
    columns: 80,
  });

/** The lines under `Tools of <server> (n):`, up to the next blank line. */
function toolLines(out: string, server: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`Tools of ${server} (`));
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('epoch mcp status', () => {
  it('shows connected and failed servers, each failure with its reason, and the tools of the connected ones', async () => {
    const file = await configFile({ local: local(), remote: http(), missing, crashing });
    const { code, out, err } = await status(file);

    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toMatch(/^NAME\s+SOURCE\s+TRANSPORT\s+STATE\s+PROTOCOL\s+TOOLS$/m);
    const count = (server: string) =>
      Number(
        out.match(new RegExp(`^${server}\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+(\\d+)$`, 'm'))?.[1],
      );
    expect(out).toMatch(/^local\s+user\s+stdio\s+connected\s+20\d\d-\d\d-\d\d\s+\d+$/m);
    expect(out).toMatch(/^remote\s+user\s+http\s+connected\s+20\d\d-\d\d-\d\d\s+\d+$/m);
    // The reason sits indented right under the failed row.
    expect(out).toMatch(
      /^missing\s+user\s+stdio\s+failed\s+-\s+0\n {2}MCP server "missing".*not found on PATH/m,
    );
    expect(out).toMatch(
      /^crashing\s+user\s+stdio\s+failed\s+-\s+0\n {2}MCP server "crashing".*\n {2}stderr \(last lines\):\n {4}cannot start: token .* rejected$/m,
    );

    // The tools lists match the TOOLS column, names prefixed, one line each within 80 columns.
    for (const server of ['local', 'remote']) {
      const lines = toolLines(out, server);
      expect(lines.length).toBeGreaterThan(2);
      expect(lines.length).toBe(count(server));
      expect(out).toContain(`Tools of ${server} (${lines.length}):`);
      for (const line of lines) {
        expect(line).toMatch(new RegExp(`^ {2}mcp__${server}__\\S+`));
        expect([...line].length).toBeLessThanOrEqual(80);
      }
    }
    expect(toolLines(out, 'local')).toContainEqual(
      expect.stringMatching(/^ {2}mcp__local__echo\s+Echoes back the input string$/),
    );
    // A long description is cut, and says so.
    expect(toolLines(out, 'local')).toContainEqual(
      expect.stringMatching(/^ {2}mcp__local__gzip-file-as-resource\s+Compresses .*…$/),
    );
    expect(toolLines(out, 'missing')).toEqual([]);
    expect(out).toContain(
      '2 of 4 MCP servers connected; not connected: missing (failed), crashing (failed).',
    );

    expect(out).not.toContain(SECRET);
    // It disconnected before returning: no process of the stdio server is left.
    expect(await processesWith(MARKER)).toEqual([]);
  });

  it('exits 0 when every server connects and the file has no errors, warnings included', async () => {
    const file = await configFile({ local: { ...local(), conect_timeout: 5 }, remote: http() });
    const { code, out } = await status(file);
    expect(code).toBe(0);
    expect(out).toMatch(/^local\s+user\s+stdio\s+connected\s+20\d\d-\d\d-\d\d\s+\d+$/m);
    expect(out).toMatch(/^remote\s+user\s+http\s+connected\s+20\d\d-\d\d-\d\d\s+\d+$/m);
    expect(out).toContain('servers.local.conect_timeout');
    expect(out).toContain('connect_timeout');
    expect(out).toContain('All 2 MCP servers connected.');
    expect(out).not.toContain(SECRET);
  });

  it('exits 1 when the file has an error, even though every server it kept connected', async () => {
    const file = await configFile({ remote: http(), broken: { command: 'x', timeout: '30' } });
    const { code, out } = await status(file);
    expect(code).toBe(1);
    expect(out).toMatch(/^remote\s+user\s+http\s+connected\s+20\d\d-\d\d-\d\d\s+\d+$/m);
    expect(out).not.toMatch(/^broken/m);
    expect(out).toContain('servers.broken.timeout');
    expect(out).toContain('The MCP server connected.');
  });

  it('--json prints each status with its tool names, and the diagnostics, without secrets', async () => {
    const file = await configFile({
      remote: http(),
      missing,
      broken: { command: 'x', timeout: '30' },
    });
    const { code, out } = await status(file, '--json');
    expect(code).toBe(1);
    const parsed = JSON.parse(out);
    expect(parsed.file).toBe(file);
    expect(parsed.servers).toEqual([
      expect.objectContaining({
        name: 'remote',
        source: 'user',
        transport: 'http',
        state: 'connected',
        tools: expect.arrayContaining(['mcp__remote__echo', 'mcp__remote__get-sum']),
      }),
      expect.objectContaining({
        name: 'missing',
        transport: 'stdio',
        state: 'failed',
        error: expect.objectContaining({ code: 'command_not_found' }),
        tools: [],
      }),
    ]);
    expect(parsed.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'servers.broken.timeout' }),
    );
    expect(out).not.toContain(SECRET);
  });

  it("a connect that times out gets the command's advice: the line of mcp.json that sets connect_timeout", async () => {
    // The timeout is what this test is about: the server never answers initialize.
    const stuck = {
      command: process.execPath,
      args: [FIXTURE_SERVER, '--never-start'],
      connect_timeout: 1,
    };
    const file = await configFile({ stuck });
    const line =
      (await readFile(file, 'utf8'))
        .split('\n')
        .findIndex((text) => text.includes('"connect_timeout"')) + 1;
    const { code, out } = await status(file);
    expect(code).toBe(1);
    expect(out).toMatch(/^stuck\s+user\s+stdio\s+failed/m);
    // The status says what happened; the command adds where to change it.
    expect(out).toContain('a longer connect timeout');
    expect(out).toContain(`raise "connect_timeout" for it at ${file}:${line}.`);
  });

  it('says so when the file defines no servers, and exits 0', async () => {
    const file = await configFile({});
    const { code, out } = await status(file);
    expect(code).toBe(0);
    expect(out).toBe(`No MCP servers in ${file} or in installed plugins.\n`);
  });
});
