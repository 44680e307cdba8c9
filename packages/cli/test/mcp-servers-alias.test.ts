// A file pasted from Claude Desktop keeps its servers under `mcpServers`: the real `epoch` reads
// it as `servers` (list, status with a real server, a field's problem at its own line), `add`,
// `disable` and `enable` write under the key the file uses and `remove` and `enable` undo them byte
// for byte, and a file with both keys is an error naming the file that no command edits.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
let config: string;
let env: Record<string, string>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-mcp-servers-'));
  config = join(dir, 'claude_desktop_config.json');
  env = { EPOCH_HOME: join(dir, 'home'), NO_COLOR: '1' };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Claude Desktop's file: two spaces, `mcpServers`, one server that runs and one with a typo. */
function desktopFile(): string {
  const ok = JSON.stringify(fixtureServerEntry('cli'));
  return [
    '{',
    '  "mcpServers": {',
    `    "tools": ${ok},`,
    '    "broken": {',
    '      "command": 5',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

describe('a file whose servers are under "mcpServers"', () => {
  it('is read as "servers": listed, started, and a problem is told at its line', async () => {
    await writeFile(config, desktopFile());
    const list = await epoch(['mcp', 'list', '--config', config], env);
    expect(list.out).toContain('tools');
    expect(list.out + list.err).not.toContain('not a top-level field');
    // The typo is at line 5 of the file, where the person must change it.
    expect(list.out + list.err).toMatch(/claude_desktop_config\.json:5:\d+.*command/);

    const status = await epoch(['mcp', 'status', '--json', '--config', config], env);
    const servers = (JSON.parse(status.out) as { servers: { name: string; state: string }[] })
      .servers;
    expect(servers).toEqual([expect.objectContaining({ name: 'tools', state: 'connected' })]);
  }, 60_000);

  it('add writes under "mcpServers", and remove gives the file back as it was', async () => {
    const before = desktopFile().replace(/ {4}"broken": \{\n {6}"command": 5\n {4}\}\n/, '');
    await writeFile(config, before.replace('},\n  }', '}\n  }'));
    const original = await readFile(config, 'utf8');
    const { command, args } = fixtureServerEntry('cli');
    const add = await epoch(
      ['mcp', 'add', 'more', '--config', config, '--', command, ...args],
      env,
    );
    expect(add.code).toBe(0);
    const added = await readFile(config, 'utf8');
    expect(added).not.toContain('"servers"');
    const parsed = JSON.parse(added) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(parsed.mcpServers)).toEqual(['tools', 'more']);

    const remove = await epoch(['mcp', 'remove', 'more', '--config', config], env);
    expect(remove.code).toBe(0);
    expect(await readFile(config, 'utf8')).toBe(original);
  }, 60_000);

  it('disable and enable, of the server and of one tool, edit its entry there and undo it', async () => {
    const before = desktopFile().replace(/ {4}"broken": \{\n {6}"command": 5\n {4}\}\n/, '');
    await writeFile(config, before.replace('},\n  }', '}\n  }'));
    const original = await readFile(config, 'utf8');
    const entry = async () =>
      (JSON.parse(await readFile(config, 'utf8')) as { mcpServers: Record<string, object> })
        .mcpServers.tools;
    for (const [off, expected] of [
      [['tools'], { enabled: false }],
      [['tools', '--tool', 'echo'], { exclude_tools: ['echo'] }],
    ] as const) {
      const disable = await epoch(['mcp', 'disable', ...off, '--config', config], env);
      expect(disable.code, disable.err).toBe(0);
      expect(await entry()).toMatchObject(expected);
      const enable = await epoch(['mcp', 'enable', ...off, '--config', config], env);
      expect(enable.code, enable.err).toBe(0);
      expect(await readFile(config, 'utf8')).toBe(original);
    }
  }, 60_000);

  it('with "servers" too is an error naming the file; edits are refused and change nothing', async () => {
    const both = desktopFile().replace('{\n', '{\n  "servers": {},\n');
    await writeFile(config, both);
    const list = await epoch(['mcp', 'list', '--config', config], env);
    const said = list.out + list.err;
    expect(said).toMatch(/claude_desktop_config\.json:\d+:\d+/);
    expect(said).toContain('both "servers" and "mcpServers"');
    expect(said).toContain('(tools, broken) is not loaded');

    const add = await epoch(
      ['mcp', 'add', 'more', '--config', config, '--', process.execPath, '-e', '1'],
      env,
    );
    expect(add.code).not.toBe(0);
    expect(add.err).toContain(`${config} has both "servers" and "mcpServers"`);
    expect(await readFile(config, 'utf8')).toBe(both);
  }, 60_000);
});
