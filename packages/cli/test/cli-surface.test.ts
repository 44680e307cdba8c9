// The command line itself, in process: help for the table and for each command, unknown commands
// and options, and the live progress lines while servers start — drawn on a terminal only, in
// colour unless NO_COLOR, never with --json.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const ESC = String.fromCharCode(27);
/** The fixture server's `cli` tools (echo, fail, image, slow, whoami): arguments after node. */
const TOOL_SERVER = fixtureServerArgs('cli');

let dir: string;
let slowFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-surface-'));
  slowFile = join(dir, 'mcp.json');
  // Answers initialize after 700 ms: long enough for several redraws of the progress line.
  const slow = { command: process.execPath, args: [...TOOL_SERVER, '--slow-start=700'] };
  await writeFile(slowFile, JSON.stringify({ servers: { slowpoke: slow } }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('help', () => {
  it('epoch --help and epoch mcp list every command with one line each', async () => {
    for (const argv of [['--help'], [], ['mcp'], ['mcp', '--help']]) {
      const { code, out } = await runCli(argv);
      expect(code).toBe(0);
      for (const command of [
        'list',
        'get',
        'add',
        'add-json',
        'remove',
        'status',
        'tools',
        'call',
        'reconnect',
        'approve',
        'diff',
        'revoke',
        'login',
        'logout',
      ]) {
        expect(out).toMatch(new RegExp(`^ {2}epoch mcp ${command} +\\S`, 'm'));
      }
      expect(out).toContain(
        'Exit codes: 0 ok, 1 failed, 2 wrong command line, 3 needs "epoch mcp login", 4 server unreachable, 130 interrupted, 141 stdout closed early (| head).',
      );
    }
  });

  it('epoch mcp <command> --help shows its usage, every option and its details', async () => {
    const { code, out } = await runCli(['mcp', 'add', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^Usage: epoch mcp add <name> \[-s user\|project\] \[-e KEY=VALUE\]\.\.\. /m,
    );
    expect(out).toMatch(/^ {2}-e, --env KEY=VALUE +an environment variable/m);
    expect(out).toMatch(/^ {2}-H, --header 'K: V' +a request header/m);
    expect(out).toMatch(/^ {6}--config FILE +the user mcp.json/m);
    expect(out).toContain(
      'epoch mcp add files npx -y @modelcontextprotocol/server-filesystem /tmp',
    );
    const call = await runCli(['mcp', 'call', '-h']);
    expect(call.out).toContain('--arg key=value');
  });

  it('an unknown command or option is exit 2 with what was expected', async () => {
    const unknown = await runCli(['mcp', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'epoch: unknown command "mcp frobnicate". Run "epoch mcp --help" for the commands.\n',
    );
    const option = await runCli(['mcp', 'list', '--frob']);
    expect(option.code).toBe(2);
    expect(option.err).toBe(
      'epoch mcp list: unknown option "--frob".\nUsage: epoch mcp list [--json]\nRun "epoch mcp list --help" for more.\n',
    );
  });
});

describe('progress while servers start', () => {
  const status = (options: Parameters<typeof runCli>[1], ...flags: string[]) =>
    runCli(['mcp', 'status', '--config', slowFile, ...flags], options);

  it('on a terminal: a live line per server still connecting, with its elapsed time, redrawn and erased', async () => {
    const { code, err, out } = await status({ errIsTerminal: true, env: {} });
    expect(code).toBe(0);
    const lines = err.match(/slowpoke {2}.*connecting… \d+\.\d s/g) ?? [];
    expect(lines.length).toBeGreaterThan(2);
    // Redrawn in place: back to the line's start and cleared, every time, and at the end.
    expect(err.split(`${ESC}[1F${ESC}[J`).length - 1).toBe(lines.length);
    expect(err.endsWith(`${ESC}[1F${ESC}[J`)).toBe(true);
    expect(err).toContain(`${ESC}[2m`);
    expect(out).toMatch(/^slowpoke\s+user\s+stdio\s+connected\s+2025-11-25\s+5$/m);
  });

  it('NO_COLOR: the same lines without colour', async () => {
    const { err } = await status({ errIsTerminal: true, env: { NO_COLOR: '1' } });
    expect(err).toMatch(/slowpoke {2}connecting… \d+\.\d s/);
    expect(err).not.toMatch(new RegExp(`${ESC}\\[\\d+m`));
  });

  it('none off a terminal, and none with --json', async () => {
    expect((await status({ errIsTerminal: false })).err).toBe('');
    const json = await status({ errIsTerminal: true }, '--json');
    expect(json.err).toBe('');
    expect(JSON.parse(json.out).servers[0].state).toBe('connected');
  });
});
