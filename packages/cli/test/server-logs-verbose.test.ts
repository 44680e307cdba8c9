// `--verbose` of `epoch mcp call` and `status`: a server's log messages on stderr, escaped, at the
// level its entry's `log_level` asks for — from a 2026-07-28 server on the official server SDK
// (testkit's modern-server.mjs `--trace`), which sends none to a request that does not ask — and
// nothing of them without the flag.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MODERN_SERVER } from '@epoch-agent/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let file: string;

beforeAll(async () => {
  file = join(process.env.EPOCH_HOME as string, 'mcp.json');
  const server = { command: process.execPath, args: [MODERN_SERVER, '--trace'] };
  await writeFile(
    file,
    JSON.stringify({ servers: { chatty: server, quiet: { ...server, log_level: 'error' } } }),
  );
});

const log = (server: string, level: string, message: string, ...more: string[]) =>
  runCli([
    'mcp',
    'call',
    '--config',
    file,
    server,
    'log',
    '--arg',
    `level=${level}`,
    '--arg',
    `message=${message}`,
    ...more,
  ]);

describe('epoch mcp call --verbose', () => {
  it("prints the server's log messages on stderr, its control characters shown", async () => {
    const run = await log('chatty', 'warning', 'disk \x1b[31mnearly\x1b[0m full', '--verbose');
    expect(run.code).toBe(0);
    expect(run.out).toContain('logged');
    expect(run.err).toBe(
      '[warning] MCP server "chatty" (modern-server): disk \\x1b[31mnearly\\x1b[0m full\n',
    );
  });

  it('prints none without --verbose', async () => {
    const run = await log('chatty', 'warning', 'not shown');
    expect(run.code).toBe(0);
    expect(run.err).toBe('');
  });

  it("asks the server from the entry's log_level on: below it, nothing is sent", async () => {
    const below = await log('quiet', 'warning', 'below error', '--verbose');
    expect(below.code).toBe(0);
    expect(below.err).toBe('');
    const at = await log('quiet', 'error', 'at error', '--verbose');
    expect(at.err).toBe('[error] MCP server "quiet" (modern-server): at error\n');
  });
});
