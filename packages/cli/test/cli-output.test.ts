// What `epoch mcp` prints, held to a person's terminal and a script's pipe (issue 30, items 10 to
// 12): `get` within 80 columns with its server's problems; widths in terminal cells (CJK is 2);
// descriptions whole in a pipe; `--config` in a directory that does not exist; `call --arg` names
// the schema does not have, and integers; the model's name beside the server's; names past 64
// characters; `login` of a server that needs none; `--transport streamable-http` and `sse` at a
// Streamable HTTP endpoint; TERM=dumb; counts said in words.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fixtureServerArgs, type RunningEverything, startEverything } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellWidth } from '../src/render/cells.js';
import { EPOCH_BIN, epoch } from './epoch-process.js';
import { runCli } from './run-cli.js';

let dir: string;
let env: Record<string, string>;
let remote: RunningEverything;
let httpUrl: string;

// A tool name long enough that its description passes any terminal, and two the provider rules
// rename: one with an umlaut, one in Japanese (two cells a character).
const LONG_TOOL = `lookup_${'x'.repeat(70)}`;
const JAPANESE_TOOL = '検索ツールはとても長い説明を持っていて端末の幅を超えてしまうかもしれません';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-output-'));
  env = { EPOCH_HOME: join(dir, 'home') };
  remote = await startEverything('http');
  if (remote.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
  httpUrl = remote.endpoint.url;
});

afterAll(async () => {
  await remote?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function configFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

const uni = () =>
  JSON.stringify({
    command: process.execPath,
    args: fixtureServerArgs(
      'pid',
      '--tool=grüße',
      `--tool=${JAPANESE_TOOL}`,
      `--tool=${LONG_TOOL}`,
    ),
  });

describe('epoch mcp get', () => {
  it('fits 80 columns: a footnote for the inferred transport, long values wrapped, its own problems under it', async () => {
    const file = await configFile(
      'get.json',
      `{
  "servers": {
    "files": {
      "command": "node",
      "args": ["/a/rather/long/path/to/some/server/that/is/installed/somewhere/dist/index.js", "--root", "/home/someone/projects"],
      "conect_timeout": 20
    },
    "other": { "command": "node", "colour": "blue" }
  }
}
`,
    );
    const { code, out } = await runCli(['mcp', 'get', 'files', '--config', file], {
      columns: 80,
      env,
    });
    expect(code).toBe(0);
    const lines = out.split('\n');
    // The first line names the file, whatever its length; every other line fits.
    for (const line of lines.slice(1)) expect(cellWidth(line)).toBeLessThanOrEqual(80);
    expect(out).toMatch(/^transport {2,}inferred \[1\] {2,}stdio$/m);
    expect(out).toContain('[1] no "transport": a url means sse, none means stdio');
    // A value longer than its column goes on under it, not past the edge.
    const args = lines.findIndex((line) => line.startsWith('args '));
    const valueAt = lines[args]?.indexOf('"/a/rather') ?? -1;
    expect(valueAt).toBeGreaterThan(0);
    expect(lines[args + 1]?.slice(0, valueAt).trim()).toBe('');
    expect(out).toMatch(/^max_output_tokens {2,}default {2,}25000 tokens$/m);
    // Its own problem, not the other server's.
    expect(out).toContain('1 problem:');
    expect(out).toContain('servers.files.conect_timeout');
    expect(out).not.toContain('colour');
  });

  it('in a pipe: no wrapping, the whole value on its line', async () => {
    const file = join(dir, 'get.json');
    const run = await epoch(['mcp', 'get', 'files', '--config', file], env);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^args .*"--root" "\/home\/someone\/projects"$/m);
  });
});

describe('widths in cells, and descriptions whole in a pipe', () => {
  it('status on an 80-column terminal: descriptions start in one column and end within 80 cells', async () => {
    const entry = {
      command: process.execPath,
      args: fixtureServerArgs('pid', '--tool=grüße', `--tool=${JAPANESE_TOOL}`),
    };
    const file = await configFile('cjk.json', JSON.stringify({ servers: { uni: entry } }));
    const { code, out } = await runCli(['mcp', 'status', '--config', file], { columns: 80, env });
    expect(code).toBe(0);
    const toolLines = out.split('\n').filter((line) => line.startsWith('  mcp__uni__'));
    expect(toolLines).toHaveLength(3);
    for (const line of toolLines) expect(cellWidth(line)).toBeLessThanOrEqual(80);
    // The Japanese description is cut by cells, not characters: within 80 cells, and most of them.
    const japanese = toolLines.find((line) => line.includes('検索'));
    expect(japanese).toMatch(/…$/);
    expect(cellWidth(japanese ?? '')).toBeGreaterThanOrEqual(79);
    // Every description begins at the same cell.
    const starts = toolLines.map((line) => cellWidth(/^ {2}\S+ +/.exec(line)?.[0] ?? ''));
    expect(new Set(starts).size).toBe(1);
  });

  it('tools: the server’s own name beside a renamed one; a warning for names past 64 characters; whole in a pipe, cut on a terminal', async () => {
    const file = await configFile('uni.json', `{ "servers": { "uni": ${uni()} } }`);
    const piped = await epoch(['mcp', 'tools', 'uni', '--config', file], env);
    expect(piped.code).toBe(0);
    expect(piped.out).toContain('(on the server: grüße)');
    expect(piped.out).toContain(`(on the server: ${JAPANESE_TOOL})`);
    // The long description is whole in a pipe.
    expect(piped.out).toContain(`      ${LONG_TOOL} of pid-server\n`);
    expect(piped.out).toMatch(
      /Warning: 1 tool name of uni is longer than 64 characters, the most some model providers/,
    );
    expect(piped.out).toContain('uni (user, stdio): 4 tools,');

    const terminal = await runCli(['mcp', 'tools', 'uni', '--config', file], { columns: 60, env });
    const description = terminal.out
      .split('\n')
      .find((line) => line.includes(`${LONG_TOOL.slice(0, 20)}`) && line.startsWith('      '));
    expect(description).toMatch(/…$/);
    expect(cellWidth(description ?? '')).toBe(60);
  });
});

describe('--config and missing files', () => {
  it('a file in a directory that does not exist: a usage error, and no directory made', async () => {
    const missing = join(dir, 'no', 'such', 'dir');
    const file = join(missing, 'mcp.json');
    const add = await epoch(['mcp', 'add', 'x', '--config', file, '--', 'node', '-e', '1'], env);
    expect(add.code).toBe(2);
    expect(add.err).toContain(`--config ${file}: the directory ${missing} does not exist`);
    expect(existsSync(join(dir, 'no'))).toBe(false);
    const json = await epoch(['mcp', 'list', '--json', '--config', file], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.err).error).toMatchObject({ code: 'usage', exit: 2 });
  });

  it('list of a file that does not exist says so', async () => {
    const file = join(dir, 'not-written-yet.json');
    const run = await epoch(['mcp', 'list', '--config', file], env);
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      `No MCP servers: ${file} does not exist ("epoch mcp add" creates it)`,
    );
  });
});

describe('epoch mcp call --arg', () => {
  it('warns of a name the schema does not have, with a did-you-mean, and refuses 3.5 for an integer', async () => {
    const file = await configFile(
      'call.json',
      JSON.stringify({
        servers: { t: { command: process.execPath, args: fixtureServerArgs('cli') } },
      }),
    );
    const typo = await epoch(
      ['mcp', 'call', 't', 'echo', '--arg', 'text=hi', '--arg', 'tmes=2', '--config', file],
      env,
    );
    expect(typo.code).toBe(0);
    expect(typo.err).toContain(
      'warning: tool "mcp__t__echo" has no parameter "tmes"; did you mean "times"? It is sent as given. Its parameters: text, times',
    );
    const half = await epoch(
      ['mcp', 'call', 't', 'echo', '--arg', 'text=hi', '--arg', 'times=3.5', '--config', file],
      env,
    );
    expect(half.code).toBe(2);
    expect(half.err).toContain('--arg times must be a whole number (its schema says integer)');
  });
});

describe('remote servers', () => {
  it('login of a server that needs none says so, stores nothing, and exits 2', async () => {
    const file = await configFile(
      'open.json',
      JSON.stringify({ servers: { open: { type: 'http', url: httpUrl } } }),
    );
    const run = await epoch(['mcp', 'login', 'open', '--config', file], env);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /MCP server "open" needs no login: it answered without one and lists \d+ tools\. Nothing was stored\./,
    );
    expect(run.err).not.toContain('<html');
    const oauth = join(env.EPOCH_HOME ?? '', 'oauth');
    expect(existsSync(oauth) ? await readdir(oauth) : []).toEqual([]);
  });

  it('add --transport streamable-http is http; --transport sse at a Streamable HTTP endpoint is told to use http', async () => {
    const file = join(dir, 'added.json');
    const http = await epoch(
      ['mcp', 'add', 'streamy', '--transport', 'streamable-http', httpUrl, '--config', file],
      env,
    );
    expect(http.code).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).servers.streamy.transport).toBe('http');
    const sse = await epoch(
      ['mcp', 'add', 'wrong', '--transport', 'sse', httpUrl, '--config', file],
      env,
    );
    expect(`${sse.out}${sse.err}`).toMatch(
      /is a Streamable HTTP endpoint, not SSE\..*The entry of server "wrong" at .*added\.json:\d+ says SSE: make its transport "http"\./,
    );
  });
});

// The progress lines' redraw: up N lines, then clear below.
const CURSOR_MOVES = new RegExp(`${String.fromCharCode(27)}\\[\\d*F`);

describe('TERM=dumb', () => {
  // Through a real pseudo-terminal (util-linux `script`): a server slow to start keeps the live
  // progress on screen for several redraws.
  const inTerminal = async (term: string) => {
    const file = await configFile(
      'slow.json',
      JSON.stringify({
        servers: {
          slow: { command: process.execPath, args: fixtureServerArgs('pid', '--slow-start=1500') },
        },
      }),
    );
    const command = [process.execPath, EPOCH_BIN, 'mcp', 'status', '--config', file]
      .map((word) => `'${word}'`)
      .join(' ');
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...env, TERM: term, NO_COLOR: '1' },
    });
    return stdout;
  };

  it('gets no cursor movement; a capable terminal does (so the check can fail)', async () => {
    const dumb = await inTerminal('dumb');
    expect(dumb).toContain('slow ');
    expect(dumb).not.toMatch(CURSOR_MOVES);
    const xterm = await inTerminal('xterm');
    expect(xterm).toMatch(CURSOR_MOVES);
  });
});
