// The whole `epoch mcp` command line in real processes, against the reference server over stdio,
// SSE and Streamable HTTP (127.0.0.1) and our own fixture: add -> list -> get -> tools -> call ->
// remove on a hand-written file with comments, CRLF line endings and aliases, which must come back
// byte for byte. Then every exit code of `epoch mcp call`, plain and with --json.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVERYTHING_ENTRY,
  fixtureServerArgs,
  freeLoopbackPort,
  type RunningEverything,
  startEverything,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

/** The fixture server's `cli` tools (echo, fail, image, slow, whoami): arguments after node. */
const TOOL_SERVER = fixtureServerArgs('cli');
const SECRET = 'sk-e2e-must-never-print-42';

let dir: string;
const remotes: RunningEverything[] = [];
let sseUrl: string;
let httpUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-e2e-'));
  remotes.push(...(await Promise.all([startEverything('sse'), startEverything('http')])));
  for (const { endpoint } of remotes) {
    if (endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
    if (endpoint.transport === 'sse') sseUrl = endpoint.url;
    else httpUrl = endpoint.url;
  }
});

afterAll(async () => {
  await Promise.all(remotes.map((remote) => remote.stop()));
  await rm(dir, { recursive: true, force: true });
});

// Written by hand: comments, CRLF, `type` and `connectTimeout` for aliases, a trailing comma.
const ORIGINAL = [
  '// my MCP servers',
  '{',
  '  "servers": {',
  '    /* written by hand */',
  '    "mine": {',
  '      "type": "stdio",',
  `      "command": ${JSON.stringify(process.execPath)},`,
  `      "args": ${JSON.stringify(TOOL_SERVER)},`,
  '      "connectTimeout": 20, // seconds',
  '    },',
  '  },',
  '}',
  '',
].join('\r\n');

/**
 * An EPOCH_HOME of its own for each block of tests: the blocks run at the same time, and what one
 * block's commands cache or record there (tool lists, the protocol last met) is never the other's.
 */
function homeOf(name: string): Record<string, string> {
  return { EPOCH_HOME: join(dir, `home-${name}`) };
}

/** `epoch <two words> --config FILE <rest>`: the option before any `--`, which ends epoch's own. */
function runOn(file: string, env: Record<string, string>) {
  return (...argv: string[]) =>
    epoch([...argv.slice(0, 2), '--config', file, ...argv.slice(2)], env);
}

async function configFile(text: string): Promise<string> {
  const file = join(dir, `mcp-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, text);
  return file;
}

// The two blocks run at the same time, each its tests one after another: much of their time is
// waiting on processes and servers (a reconnect's series of tries most of all), and each block has
// its own files and EPOCH_HOME.
describe.concurrent('epoch mcp, end to end on a hand-written file', () => {
  // Each add connects its server for real (a live check, never the schema cache), and so does each
  // command after it: the reference server many times over, on a busy machine.
  it.sequential('add (three transports and add-json) -> list -> get -> tools -> call -> remove leaves the file byte-identical', async () => {
    const file = await configFile(ORIGINAL);
    const run = runOn(file, homeOf('edits'));

    // add: stdio with env and a server argv that has its own dash options, sse, http with a header.
    const stdio = await run(
      'mcp',
      'add',
      'ref-stdio',
      '-e',
      `API_KEY=${SECRET}`,
      '--',
      process.execPath,
      EVERYTHING_ENTRY,
      'stdio',
    );
    expect(stdio.err).toBe('');
    expect(stdio.code).toBe(0);
    expect(stdio.out).toContain(`Added ref-stdio (stdio) to ${file}.`);
    expect(stdio.out).toMatch(/It connects: \d+ tools/);
    expect(stdio.out).toMatch(
      /written by hand in that file .*: cwd, env_file, timeout, max_total_timeout, connect_timeout/,
    );
    const sse = await run('mcp', 'add', 'ref-sse', '--transport', 'sse', sseUrl);
    expect(sse.code).toBe(0);
    expect(sse.out).toContain(`Added ref-sse (sse) to ${file}.`);
    expect(sse.out).toMatch(/It connects/);
    const http = await run(
      'mcp',
      'add',
      'ref-http',
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${SECRET}`,
      httpUrl,
    );
    expect(http.code).toBe(0);
    // Written from --header, so not among the fields left to write by hand.
    expect(http.out).toMatch(/by hand .*: headers_helper, oauth, timeout/);
    expect(http.out).not.toMatch(/\bheaders\b(?!_)/);
    const json = await run(
      'mcp',
      'add-json',
      'fixture',
      JSON.stringify({ command: process.execPath, args: [...TOOL_SERVER], timeout: 30 }),
    );
    expect(json.code).toBe(0);
    expect(json.out).toContain('Added fixture (stdio)');

    // The file: the original plus the four entries, nothing else changed.
    const edited = await readFile(file, 'utf8');
    expect(
      edited.startsWith('// my MCP servers\r\n{\r\n  "servers": {\r\n    /* written by hand */'),
    ).toBe(true);
    expect(edited).toContain('"connectTimeout": 20, // seconds\r\n');
    expect(edited.replaceAll('\r\n', '')).not.toContain('\n');

    // list: every server, SOURCE, targets; never a secret.
    const list = await run('mcp', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^NAME\s+SOURCE\s+TRANSPORT\s+CHOICE\s+TOOLS\s+TARGET$/m);
    for (const name of ['mine', 'ref-stdio', 'ref-sse', 'ref-http', 'fixture']) {
      expect(list.out).toMatch(new RegExp(`^${name}\\s+user\\s+`, 'm'));
    }

    // get: fields with where they are written, defaults, the alias it was written as.
    const get = await run('mcp', 'get', 'mine');
    expect(get.code).toBe(0);
    expect(get.out).toMatch(/^transport\s+line 6 \(as "type"\)\s+stdio$/m);
    expect(get.out).toMatch(/^connect_timeout\s+line 9 \(as "connectTimeout"\)\s+20 s$/m);
    expect(get.out).toMatch(/^timeout\s+default\s+300 s$/m);
    expect(get.out).toContain('protocol: not known yet (it has not connected with this config)');
    const getJson = await run('mcp', 'get', 'ref-http', '--json');
    const shown = JSON.parse(getJson.out) as { fields: { field: string; value: unknown }[] };
    expect(shown.fields.find((f) => f.field === 'headers')?.value).toEqual({
      Authorization: '<redacted>',
    });

    // tools: names the model sees, annotations, parameters, context cost.
    const tools = await run('mcp', 'tools');
    expect(tools.code).toBe(0);
    expect(tools.out).toMatch(/^mine \(user, stdio\): 5 tools, about [\d,]+ tokens of context/m);
    expect(tools.out).toMatch(/^ {2}mcp__mine__echo {2}Echo {2}\[read-only\]$/m);
    expect(tools.out).toMatch(/^ {6}text: string \(required\) — what to say$/m);
    expect(tools.out).toMatch(/^ {2}mcp__mine__fail {2}\[destructive\]$/m);
    for (const name of ['ref-stdio', 'ref-sse', 'ref-http']) {
      expect(tools.out).toMatch(new RegExp(`^ {2}mcp__${name}__echo `, 'm'));
    }
    expect(tools.out).toMatch(/^In all: \d+ tools from 5 servers/m);
    const one = await run('mcp', 'tools', 'ref-http', '--json');
    expect(one.code).toBe(0);
    const [server] = (JSON.parse(one.out) as { servers: { name: string; tools: unknown[] }[] })
      .servers;
    expect(server?.name).toBe('ref-http');
    expect(server?.tools.length).toBeGreaterThan(5);
    // get never connects: the protocol is the one the last connection (tools, above) met.
    const met = await run('mcp', 'get', 'mine');
    expect(met.out).toContain(
      'protocol: MCP 2025-11-25 (initialize handshake), as it last connected',
    );
    const metJson = JSON.parse((await run('mcp', 'get', 'mine', '--json')).out);
    expect(metJson.protocol).toEqual({ era: 'legacy', version: '2025-11-25' });

    // call: on every transport, by the raw name and by the model's name.
    for (const name of ['ref-stdio', 'ref-sse', 'ref-http']) {
      const call = await run('mcp', 'call', name, 'echo', '--arg', 'message=hello there');
      expect(call.err).toBe('');
      expect(call.code).toBe(0);
      expect(call.out).toBe('Echo: hello there\n');
    }
    const byModelName = await run(
      'mcp',
      'call',
      'mine',
      'mcp__mine__echo',
      '--arg',
      'text=007',
      '--args',
      '{"times": 2}',
    );
    expect(byModelName.out).toBe('007007\n');
    const image = await run('mcp', 'call', 'fixture', 'image');
    expect(image.out).toBe('[image image/png, 3 bytes]\n');

    for (const output of [stdio, http, list, get, getJson, tools, one]) {
      expect(output.out + output.err).not.toContain(SECRET);
    }

    // remove: all four, and the file is what it was, byte for byte.
    for (const name of ['ref-stdio', 'ref-sse', 'ref-http', 'fixture']) {
      const removed = await run('mcp', 'remove', name);
      expect(removed.code).toBe(0);
      expect(removed.out).toBe(`Removed ${name} from ${file}.\n`);
    }
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  }, 120_000);

  it.sequential('refuses a duplicate name, a bad name and a broken file, writing nothing', async () => {
    const file = await configFile(ORIGINAL);
    const env = homeOf('edits');
    const run = runOn(file, env);
    const duplicate = await run('mcp', 'add', 'mine', '--', 'node');
    expect(duplicate.code).toBe(2);
    expect(duplicate.err).toContain('server "mine" is already in');
    const bad = await run('mcp', 'add', 'my:server', '--', 'node');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('can only use letters, digits, "_" and "-"');
    // Before the command word, an option is epoch's: one it does not know is an error.
    const swallowed = await run('mcp', 'add', 'files', '-y', 'npx', 'pkg');
    expect(swallowed.code).toBe(2);
    expect(swallowed.err).toContain(
      'unknown option "-y"; if it is for the server\'s own command, put it after the command word: epoch mcp add <name> <command> -y ...',
    );
    const url = await run('mcp', 'add', 'far', 'https://mcp.example.com/mcp');
    expect(url.code).toBe(2);
    expect(url.err).toContain('--transport http');
    const invalid = await run('mcp', 'add-json', 'x', '{"command": "node", "timeot": 5}');
    expect(invalid.code).toBe(2);
    expect(invalid.err).toContain('servers.x.timeot');
    expect(invalid.err).toContain('Did you mean "timeout"?');
    // One string over the bound every front end shares (ENTRY_LIMITS): refused, naming the field.
    const entry = { command: 'node', args: ['-y', 'x'.repeat(70_000)] };
    const long = await run('mcp', 'add-json', 'x', JSON.stringify(entry));
    expect(long.code).toBe(2);
    expect(long.err).toContain(
      'servers.x.args[1] is 70000 bytes; one field may hold at most 64 KiB (65536 bytes)',
    );
    expect(long.err).not.toContain('xxxx');
    // Read as the page's "Add from JSON" reads it: a snippet of several servers is not one entry,
    // and an entry copied from the page still holds its secrets' placeholders.
    const several = await run('mcp', 'add-json', 'x', '{"mcpServers": {"a": {}, "b": {}}}');
    expect(several.code).toBe(2);
    expect(several.err).toContain('"mcpServers" holds 2 servers; give one server at a time.');
    const copied = JSON.stringify({
      y: { command: 'node', env: { API_KEY: '<secret: env.API_KEY>' } },
    });
    const placeholder = await run('mcp', 'add-json', 'x', copied);
    expect(placeholder.code).toBe(2);
    expect(placeholder.err).toContain('env.API_KEY is a placeholder of a copied secret');
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);

    const broken = await configFile('{ "servers": { "a": { "command": "x" ');
    const onBroken = await runOn(broken, env)('mcp', 'add', 'b', '--', 'node');
    expect(onBroken.code).toBe(1);
    expect(onBroken.err).toContain('syntax error');
    expect(await readFile(broken, 'utf8')).toBe('{ "servers": { "a": { "command": "x" ');
  });

  it.sequential('a plugin server is listed with its source and cannot be removed; the message says where it comes from', async () => {
    const home = join(dir, 'plugin-home');
    const pluginFile = join(home, 'plugins', 'weather', 'mcp.json');
    await rm(home, { recursive: true, force: true });
    await import('node:fs/promises').then(({ mkdir }) =>
      mkdir(join(home, 'plugins', 'weather'), { recursive: true }),
    );
    await writeFile(
      pluginFile,
      JSON.stringify({
        servers: { forecast: { command: process.execPath, args: [...TOOL_SERVER] } },
      }),
    );
    const file = await configFile(ORIGINAL);
    const list = await epoch(['mcp', 'list', '--config', file], { EPOCH_HOME: home });
    expect(list.out).toMatch(/^weather__forecast\s+plugin\s+stdio\s+/m);
    const removed = await epoch(['mcp', 'remove', 'weather__forecast', '--config', file], {
      EPOCH_HOME: home,
    });
    expect(removed.code).toBe(1);
    expect(removed.err).toContain(`plugin "weather" (${pluginFile})`);
    // A plugin's server starts only once approved: listed, never started.
    const status = await epoch(['mcp', 'status', '--config', file], { EPOCH_HOME: home });
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/^weather__forecast\s+plugin\s+stdio\s+needsApproval\s+-\s+-$/m);
    expect(status.out).toContain('epoch mcp approve weather__forecast');
    expect(status.out).not.toContain('mcp__weather__forecast__echo');
    // A plugin's server starts once approved (README, "Trust"): --yes approves it, as a script would.
    const approved = await epoch(['mcp', 'status', '--yes', '--config', file], {
      EPOCH_HOME: home,
    });
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(
      /^weather__forecast\s+plugin\s+stdio\s+connected\s+2025-11-25\s+5$/m,
    );
    expect(approved.out).toContain('mcp__weather__forecast__echo');
  });
});

describe.concurrent('epoch mcp call exit codes', () => {
  let file: string;
  let refusing: Server;

  beforeAll(async () => {
    // Answers every request 401, as a server that wants a login does.
    refusing = createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="test"' }).end();
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.address() as AddressInfo;
    const closed = await freeLoopbackPort();
    file = await configFile(
      JSON.stringify({
        servers: {
          tools: { command: process.execPath, args: [...TOOL_SERVER] },
          locked: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
          gone: { type: 'http', url: `http://127.0.0.1:${closed}/mcp` },
          missing: { command: 'epoch-test-no-such-command' },
        },
      }),
    );
  });

  afterAll(async () => {
    await new Promise((resolve) => refusing.close(resolve));
  });

  const call = (...argv: string[]) => runOn(file, homeOf('calls'))('mcp', 'call', ...argv);

  it.sequential('0 when the tool answers', async () => {
    const run = await call('tools', 'echo', '--arg', 'text=hi');
    expect([run.code, run.out, run.err]).toEqual([0, 'hi\n', '']);
  });

  it.sequential('1 when the tool reports an error: its output on stdout, the error on stderr', async () => {
    const run = await call('tools', 'fail');
    expect(run.code).toBe(1);
    expect(run.out).toBe('it broke\n');
    expect(run.err).toContain('tool "fail" of MCP server "tools" reported an error');
    const json = await call('tools', 'fail', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ isError: true });
    expect(JSON.parse(json.err)).toMatchObject({ error: { code: 'tool_error', exit: 1 } });
  });

  it.sequential('2 for a wrong command line: unknown server, unknown tool, a missing or mistyped argument', async () => {
    const unknownServer = await call('nope', 'echo');
    expect(unknownServer.code).toBe(2);
    expect(unknownServer.err).toContain('there is no MCP server "nope"');
    expect(unknownServer.err).toContain('tools, locked, gone, missing');
    const unknownTool = await call('tools', 'nope');
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.err).toContain(
      'has no tool "nope" (its tools: echo, fail, image, slow, whoami)',
    );
    const missingArg = await call('tools', 'echo');
    expect(missingArg.code).toBe(2);
    expect(missingArg.err).toContain('needs text (string)');
    const badNumber = await call('tools', 'echo', '--arg', 'text=a', '--arg', 'times=many');
    expect(badNumber.code).toBe(2);
    expect(badNumber.err).toContain('--arg times must be a number');
    const noTool = await call('tools');
    expect(noTool.code).toBe(2);
    expect(noTool.err).toContain('missing <tool>');
    // With --json a wrong command line is one JSON object on stderr too.
    for (const argv of [
      ['nope', 'echo', '--json'],
      ['tools', 'echo', '--json', '--frob'],
    ]) {
      const json = await call(...argv);
      expect(json.code).toBe(2);
      expect(json.err.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(json.err)).toMatchObject({ error: { code: 'usage', exit: 2 } });
    }
  });

  it.sequential('3 when the server needs a login', async () => {
    const run = await call('locked', 'anything');
    expect(run.code).toBe(3);
    expect(run.err).toContain('epoch mcp login locked');
    // The status's words, then the command's advice on a line of its own, out of the table's indent.
    expect(run.err).toMatch(/needs a login.*\nRun "epoch mcp login locked" to sign in again/);
    const json = await call('locked', 'anything', '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.err)).toMatchObject({ error: { code: 'needsLogin', exit: 3 } });
  });

  it.sequential('4 when the server cannot be reached: nothing listens, the command does not exist', async () => {
    const gone = await call('gone', 'anything');
    expect(gone.code).toBe(4);
    expect(gone.err).toContain('MCP server "gone" failed to connect');
    const missing = await call('missing', 'anything', '--json');
    expect(missing.code).toBe(4);
    const error = JSON.parse(missing.err) as { error: { exit: number; message: string } };
    expect(error.error.exit).toBe(4);
    expect(error.error.message).toContain('not found');
    // One JSON object and nothing else.
    expect(missing.err.trim().split('\n')).toHaveLength(1);
  });

  it.sequential('reconnect: 0 connected, 3 needs a login, 4 unreachable, each with its state', async () => {
    const reconnect = (name: string) => runOn(file, homeOf('calls'))('mcp', 'reconnect', name);
    const ok = await reconnect('tools');
    expect([ok.code, ok.out]).toEqual([0, 'tools: connected, 5 tools\n']);
    const locked = await reconnect('locked');
    expect(locked.code).toBe(3);
    // The status's words, then the command's advice on a line of its own.
    expect(locked.out).toMatch(
      /^locked: needsLogin\n {2}.*needs a login.*\n {2}Run "epoch mcp login locked"/,
    );
    const gone = await reconnect('gone');
    expect(gone.code).toBe(4);
    expect(gone.out).toMatch(/^gone: failed; it did not connect in \d+ tries\.\n/);
  });
});
