// Choosing what the model gets, from the command line, in real `epoch` processes: disable and
// enable (a server, single tools, a plugin's server through "overrides") on a hand-written file with
// comments, CRLF and aliases, which comes back byte for byte; what list, status, tools and call
// then say about a disabled server and an off tool, with the command that turns it on; and no
// process started for a disabled server.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_SERVER, fixtureServerArgs } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';
import { processesWith, recordedPids } from './processes.js';

/** The fixture server's script: its default catalog is the `pid` tools. */
const PID_SERVER = FIXTURE_SERVER;
/** The fixture server's `cli` tools (echo, fail, image, slow, whoami): arguments after node. */
const TOOL_SERVER = fixtureServerArgs('cli');

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-choice-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh EPOCH_HOME with `text` as its mcp.json; `plugins` as installed plugins' files. */
async function home(text: string, plugins: Record<string, unknown> = {}) {
  const root = join(dir, randomUUID());
  await mkdir(root, { recursive: true });
  const file = join(root, 'mcp.json');
  await writeFile(file, text);
  const pluginFiles: Record<string, string> = {};
  for (const [plugin, servers] of Object.entries(plugins)) {
    await mkdir(join(root, 'plugins', plugin), { recursive: true });
    pluginFiles[plugin] = join(root, 'plugins', plugin, 'mcp.json');
    await writeFile(pluginFiles[plugin], JSON.stringify({ servers }, null, 2));
  }
  const run = (...argv: string[]) => epoch(argv, { EPOCH_HOME: root });
  return { file, pluginFiles, run };
}

// Written by hand: comments, CRLF, `type`, camelCase `connectTimeout`, `"disabled": false`, a
// trailing comma.
const ORIGINAL = [
  '// my MCP servers', // 1
  '{', // 2
  '  "servers": {', // 3
  '    /* written by hand */', // 4
  '    "files": {', // 5
  '      "type": "stdio",', // 6
  `      "command": ${JSON.stringify(process.execPath)},`, // 7
  `      "args": [${JSON.stringify(PID_SERVER)}, "--tool=read_file", "--tool=delete_file"],`, // 8
  '      "connectTimeout": 20, // seconds', // 9
  '      "disabled": false,', // 10
  '    },', // 11
  '  },', // 12
  '}', // 13
  '',
].join('\r\n');

describe('epoch mcp disable / enable on a hand-written file', () => {
  it('a server off and on: the message names file and line, and the file comes back byte for byte', async () => {
    const { file, run } = await home(ORIGINAL);

    const off = await run('mcp', 'disable', 'files');
    expect([off.code, off.err]).toEqual([0, '']);
    expect(off.out).toBe(`Disabled files in ${file}:10 (set "disabled": true).\n`);
    expect(await readFile(file, 'utf8')).toBe(
      ORIGINAL.replace('"disabled": false', '"disabled": true'),
    );
    const again = await run('mcp', 'disable', 'files');
    expect(again.code).toBe(0);
    expect(again.out).toBe(
      `Nothing changed in ${file}:10: server "files" is already off ("disabled": true).\n`,
    );

    const on = await run('mcp', 'enable', 'files');
    expect([on.code, on.err]).toEqual([0, '']);
    expect(on.out).toBe(`Enabled files in ${file}:10 (set "disabled": false).\n`);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it('single tools off and on: one line per change with file:line, the file back byte for byte', async () => {
    const { file, run } = await home(ORIGINAL);

    const off = await run(
      'mcp',
      'disable',
      'files',
      '--tool',
      'delete_file',
      '--tool',
      'read_file',
    );
    expect([off.code, off.err]).toEqual([0, '']);
    expect(off.out).toBe(
      [
        'Disabled tools of files:',
        // The entry writes camelCase (connectTimeout), so the new list is excludeTools.
        `  ${file}:11: added "excludeTools": ["delete_file"]`,
        `  ${file}:11: added "read_file" to "excludeTools"`,
        '',
      ].join('\n'),
    );
    const edited = await readFile(file, 'utf8');
    expect(edited).toContain('\r\n      "excludeTools": ["delete_file", "read_file"],\r\n');
    expect(edited.replaceAll('\r\n', '')).not.toContain('\n');
    const again = await run('mcp', 'disable', 'files', '--tool', 'read_file');
    expect(again.out).toBe(
      `Nothing changed for tools of files:\n  ${file}:11: "read_file" is already off ("excludeTools" names it)\n`,
    );

    const on = await run(
      'mcp',
      'enable',
      'files',
      '--tool',
      'read_file',
      '--tool',
      'delete_file',
      '--json',
    );
    expect([on.code, on.err]).toEqual([0, '']);
    expect(JSON.parse(on.out)).toEqual({
      file,
      line: 11,
      changes: [
        { line: 11, text: 'removed "read_file" from "excludeTools"', changed: true },
        { line: 11, text: 'removed "excludeTools": ["delete_file"]', changed: true },
      ],
      changed: true,
    });
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
  });

  it("a plugin's server and tools through overrides: the user's file only, back byte for byte", async () => {
    const forecast = { command: process.execPath, args: [PID_SERVER, '--tool=alerts'] };
    const { file, pluginFiles, run } = await home(ORIGINAL, { weather: { forecast } });
    const pluginText = await readFile(pluginFiles.weather ?? '', 'utf8');

    const off = await run('mcp', 'disable', 'weather__forecast');
    expect([off.code, off.err]).toEqual([0, '']);
    expect(off.out).toMatch(
      new RegExp(
        `^Disabled weather__forecast in ${file}:\\d+ \\(added "enabled": false, in a new "overrides"\\)\\.\\n$`,
      ),
    );
    const tool = await run('mcp', 'disable', 'weather__forecast', '--tool', 'alerts');
    expect(tool.out).toMatch(
      new RegExp(`^Disabled tools of weather__forecast:\\n {2}${file}:\\d+: `),
    );
    const list = await run('mcp', 'list');
    expect(list.out).toMatch(/^weather__forecast\s+plugin\s+stdio\s+disabled\s+/m);
    // get: the choice rows point into the user's overrides, not at the plugin's defaults.
    const get = await run('mcp', 'get', 'weather__forecast');
    // Which file and line is a numbered note under the table, so the FROM column stays narrow.
    const note = (n: string) => new RegExp(`^\\[${n}\\] your "overrides" at ([^\\n]+)$`, 'm');
    expect(get.out).toMatch(/^enabled\s+overrides \[(\d)\]\s+false$/m);
    expect(get.out).toMatch(/^exclude_tools\s+overrides \[(\d)\]\s+"alerts"$/m);
    const enabledNote = /^enabled\s+overrides \[(\d)\]/m.exec(get.out)?.[1] ?? '';
    const excludeNote = /^exclude_tools\s+overrides \[(\d)\]/m.exec(get.out)?.[1] ?? '';
    expect(note(enabledNote).exec(get.out)?.[1]).toMatch(new RegExp(`^${file}:\\d+$`));
    expect(note(excludeNote).exec(get.out)?.[1]).toMatch(
      new RegExp(`^${file}:\\d+, added to the entry's$`),
    );
    expect(get.out).toMatch(/^include_tools\s+default\s+-$/m);
    expect(await readFile(pluginFiles.weather ?? '', 'utf8')).toBe(pluginText);

    // Turning the tool on while the server is off says that the server is off too.
    const toolOn = await run('mcp', 'enable', 'weather__forecast', '--tool', 'alerts');
    expect(toolOn.code).toBe(0);
    expect(toolOn.out).toContain(
      'weather__forecast itself is turned off: turn it on with "epoch mcp enable weather__forecast".',
    );
    const on = await run('mcp', 'enable', 'weather__forecast');
    expect(on.out).toContain(`Enabled weather__forecast in ${file}:`);
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expect(await readFile(pluginFiles.weather ?? '', 'utf8')).toBe(pluginText);
  });

  it('refusals: an unknown server (did-you-mean) and a "*" tool name are exit 2, a tool off by a pattern exit 1, nothing written', async () => {
    const text = ORIGINAL.replace(
      '"disabled": false,',
      '"disabled": false, "exclude_tools": ["write_*"],',
    );
    const { file, run } = await home(text);

    const unknown = await run('mcp', 'disable', 'flies');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'epoch mcp disable: there is no MCP server "flies" (did you mean "files"?).\n',
    );
    const unknownJson = await run('mcp', 'enable', 'flies', '--json');
    expect(JSON.parse(unknownJson.err)).toMatchObject({
      error: { code: 'unknown_server', exit: 2, server: 'flies' },
    });
    const starred = await run('mcp', 'disable', 'files', '--tool', 'read_*');
    expect(starred.code).toBe(2);
    expect(starred.err).toContain('tool name "read_*" holds "*"');
    const empty = await run('mcp', 'disable', 'files', '--tool', '');
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('--tool takes a tool name; one of them is empty');
    const modelName = await run('mcp', 'disable', 'files', '--tool', 'mcp__files__read_file');
    expect(modelName.code).toBe(2);
    expect(modelName.err).toContain(
      `--tool takes a tool's name on its server ("read_file"), not the name the model sees ("mcp__files__read_file")`,
    );
    const pattern = await run('mcp', 'enable', 'files', '--tool', 'write_file');
    expect(pattern.code).toBe(1);
    expect(pattern.err).toContain(
      `${file}:10: "write_file" is turned off by the pattern "write_*"`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);

    // A file that does not load has no servers: its error is named, and it is the file's fault.
    const broken = await home('{ "servers": { "files": { "command": "x" ');
    const onBroken = await broken.run('mcp', 'disable', 'files');
    expect(onBroken.code).toBe(1);
    expect(onBroken.err).toContain('The files have errors, which may be why:');
    expect(onBroken.err).toContain(`${broken.file}:1:`);
    expect(await readFile(broken.file, 'utf8')).toBe('{ "servers": { "files": { "command": "x" ');
  });

  it('is in the help and the list of commands', async () => {
    const { run } = await home(ORIGINAL);
    const overview = await run('--help');
    expect(overview.out).toMatch(/^ {2}epoch mcp disable +turn a server off/m);
    expect(overview.out).toMatch(/^ {2}epoch mcp enable +turn a server/m);
    const help = await run('mcp', 'disable', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: epoch mcp disable <name> \[--tool TOOL\]\.\.\. \[--json\]$/m);
    expect(help.out).toMatch(/^ {6}--tool TOOL +one tool, by its name on the server/m);
    expect(help.out).toContain('epoch mcp disable github --tool delete_repo --tool fork_repo');
  });
});

describe('a disabled server and off tools in the other commands', () => {
  // `off` is never started: tool-server records every start of it in its PID_FILE, and the tag
  // on its command line finds any process of it in /proc.
  const tag = `--tag=${randomUUID()}`;
  let pidFile: string;
  let run: Awaited<ReturnType<typeof home>>['run'];

  beforeAll(async () => {
    pidFile = join(dir, `pids-${randomUUID()}`);
    const servers = {
      off: {
        command: process.execPath,
        args: [...TOOL_SERVER, tag],
        env: { PID_FILE: pidFile },
        enabled: false,
      },
      on: {
        command: process.execPath,
        args: [PID_SERVER, '--tool=read_file', '--tool=delete_file'],
        exclude_tools: ['delete_file'],
      },
    };
    ({ run } = await home(JSON.stringify({ servers }, null, 2)));
  });

  it('list shows the choice as the file writes it, and --json the config choice', async () => {
    const list = await run('mcp', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^NAME\s+SOURCE\s+TRANSPORT\s+CHOICE\s+TOOLS\s+TARGET$/m);
    expect(list.out).toMatch(/^off\s+user\s+stdio\s+disabled\s+-\s+\S/m);
    expect(list.out).toMatch(/^on\s+user\s+stdio\s+all tools but delete_file\s+\S/m);
    const json = await run('mcp', 'list', '--json');
    const { servers } = JSON.parse(json.out) as {
      servers: { name: string; choice: { enabled: boolean } }[];
    };
    expect(servers.map(({ name, choice }) => [name, choice.enabled])).toEqual([
      ['off', false],
      ['on', true],
    ]);
  });

  it('list counts the tools of the last connection under the choice now, without connecting', async () => {
    expect((await run('mcp', 'list')).out).toMatch(
      /^on\s+user\s+stdio\s+all tools but delete_file\s+-\s/m,
    );
    // `tools` connects the way the agent does, and so leaves the list it got in the schema cache.
    expect((await run('mcp', 'tools', 'on')).code).toBe(0);
    const list = await run('mcp', 'list');
    expect(list.out).toMatch(/^on\s+user\s+stdio\s+all tools but delete_file\s+2, 1 off\s/m);
    expect(list.out).toMatch(/^off\s+user\s+stdio\s+disabled\s+-\s/m);
    expect(list.out).toContain('TOOLS: of the list each server gave when it last connected');
  });

  it('status: disabled and not started, the other with "N, M off", its off tool marked; exit 0', async () => {
    const status = await run('mcp', 'status');
    expect(status.err).toBe('');
    expect(status.code).toBe(0);
    expect(status.out).toMatch(
      /^off\s+user\s+stdio\s+disabled\s+-\s+-\n {2}turned off; turn it on with "epoch mcp enable off"$/m,
    );
    expect(status.out).toMatch(/^on\s+user\s+stdio\s+connected\s+2025-11-25\s+2, 1 off$/m);
    expect(status.out).toContain(
      [
        'Tools of on (2, 1 off):',
        '  mcp__on__whoami       whoami of pid-server',
        '  mcp__on__read_file    read_file of pid-server',
        '  mcp__on__delete_file  (off) delete_file of pid-server',
        'Turn a tool marked (off) back on with: epoch mcp enable on --tool delete_file',
      ].join('\n'),
    );
    expect(status.out).toContain('The MCP server connected; turned off: off.');
    expect(recordedPids(pidFile)).toEqual([]);
    expect(await processesWith(tag)).toEqual([]);

    const json = await run('mcp', 'status', '--json');
    const { servers } = JSON.parse(json.out) as { servers: Record<string, unknown>[] };
    expect(servers[0]).toMatchObject({ name: 'off', state: 'disabled', toolCount: 0, tools: [] });
    expect(servers[1]).toMatchObject({
      name: 'on',
      state: 'connected',
      toolCount: 2,
      toolsOff: 1,
      tools: ['mcp__on__whoami', 'mcp__on__read_file'],
      offTools: ['mcp__on__delete_file'],
    });
    expect(servers[1]?.offContextTokens).toBeGreaterThan(0);
    expect(recordedPids(pidFile)).toEqual([]);
  });

  it('tools: the cost counts only offered tools and says what the off ones would add; they come last, marked (off)', async () => {
    const tools = await run('mcp', 'tools', 'on');
    expect(tools.code).toBe(0);
    const json = await run('mcp', 'tools', 'on', '--json');
    const [server] = (
      JSON.parse(json.out) as {
        servers: {
          contextTokens: number;
          offContextTokens: number;
          tools: { name: string }[];
          offTools: { name: string }[];
        }[];
      }
    ).servers;
    if (server === undefined) throw new Error('no server in the output');
    const figure = (n: number) => n.toLocaleString('en-US');
    expect(tools.out).toMatch(
      new RegExp(
        `^on \\(user, stdio\\): 2 tools, about ${figure(server.contextTokens)} tokens of context per request; 1 tool off would add about ${figure(server.offContextTokens)}$`,
        'm',
      ),
    );
    expect(server.tools.map(({ name }) => name)).toEqual(['mcp__on__whoami', 'mcp__on__read_file']);
    expect(server.offTools.map(({ name }) => name)).toEqual(['mcp__on__delete_file']);
    const heads = tools.out.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(heads).toEqual([
      '  mcp__on__whoami',
      '  mcp__on__read_file',
      '  mcp__on__delete_file (off)',
    ]);
    expect(tools.out).toContain(
      'Turn a tool marked (off) back on with: epoch mcp enable on --tool delete_file',
    );

    // Every server: the disabled one is shown as such, and is no failure.
    const all = await run('mcp', 'tools');
    expect(all.code).toBe(0);
    expect(all.out).toContain('off (user, stdio): disabled\n');
    expect(all.out).toMatch(/^In all: 2 tools from 2 servers, .*; 1 tool off would add about /m);

    // With every tool on, the list costs what the two parts did (each rounded up to a token).
    const whole = await home(
      JSON.stringify({
        servers: {
          on: {
            command: process.execPath,
            args: [PID_SERVER, '--tool=read_file', '--tool=delete_file'],
          },
        },
      }),
    );
    const wholeJson = await whole.run('mcp', 'tools', 'on', '--json');
    const [allOn] = (JSON.parse(wholeJson.out) as { servers: { contextTokens: number }[] }).servers;
    const sum = server.contextTokens + server.offContextTokens;
    expect(Math.abs((allOn?.contextTokens ?? 0) - sum)).toBeLessThanOrEqual(1);
  });

  it('call and tools on the disabled server, and call of the off tool: exit 2 with the command that turns it on', async () => {
    const call = await run('mcp', 'call', 'off', 'echo', '--arg', 'text=hi');
    expect(call.code).toBe(2);
    expect(call.err).toContain('MCP server "off" is turned off.');
    expect(call.err).toContain('epoch mcp enable off');
    const tools = await run('mcp', 'tools', 'off');
    expect(tools.code).toBe(2);
    expect(tools.out).toBe(
      'off (user, stdio): disabled\n  turned off; turn it on with "epoch mcp enable off"\n\n',
    );
    const reconnect = await run('mcp', 'reconnect', 'off');
    expect(reconnect.code).toBe(2);
    expect(reconnect.err).toContain('epoch mcp enable off');

    for (const name of ['delete_file', 'mcp__on__delete_file']) {
      const offTool = await run('mcp', 'call', 'on', name);
      expect(offTool.code).toBe(2);
      expect(offTool.err).toBe(
        'epoch mcp call: tool "delete_file" of MCP server "on" is turned off (include_tools / exclude_tools), so the model is not offered it. Turn it on with: epoch mcp enable on --tool delete_file\n',
      );
    }
    const json = await run('mcp', 'call', 'on', 'delete_file', '--json');
    expect(JSON.parse(json.err)).toMatchObject({ error: { code: 'tool_off', exit: 2 } });
    expect(recordedPids(pidFile)).toEqual([]);
    expect(await processesWith(tag)).toEqual([]);
  });

  it('turned on, the same server starts: the checks above would have seen it', async () => {
    const on = await run('mcp', 'enable', 'off');
    expect(on.code).toBe(0);
    const status = await run('mcp', 'status');
    expect(status.out).toMatch(/^off\s+user\s+stdio\s+connected\s+2025-11-25\s+5$/m);
    expect(recordedPids(pidFile)).toHaveLength(1);
  });
});

describe('unknown names in the tool lists', () => {
  it('status prints the warning at its file:line with a did-you-mean, and still exits 0', async () => {
    const text = [
      '{',
      '  "servers": {',
      '    "files": {',
      `      "command": ${JSON.stringify(process.execPath)},`,
      `      "args": [${JSON.stringify(PID_SERVER)}, "--tool=delete_file"],`,
      '      "exclude_tools": ["delete_fle"]',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const { file, run } = await home(text);
    const status = await run('mcp', 'status');
    expect(status.code).toBe(0);
    expect(status.out).toContain(
      `  ${file}:6:25: warning: servers.files.exclude_tools[0]: "delete_fle" in exclude_tools of server "files" matches none of the 2 tools it offers, so it turns nothing off. Did you mean "delete_file"?`,
    );
    const json = await run('mcp', 'status', '--json');
    expect(JSON.parse(json.out)).toMatchObject({
      diagnostics: [{ code: 'unknown_tool', line: 6, column: 25 }],
    });
  });
});
