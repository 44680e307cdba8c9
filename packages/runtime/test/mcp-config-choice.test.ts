// Turning servers and tools off and on in a hand-written mcp.json (comments, CRLF, aliases,
// camelCase, one-line and multi-line entries): the exact text of each change, its message and
// line, off-then-on giving back the original bytes, the refusals naming file:line, and
// setServerChoice on real files — a missing one, a refused one left alone, two calls at once.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchesToolPattern, parseMcpConfig } from '@epoch-agent/plugin-mcp/config';
import { type ParseError, parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isMcpConfigWriteError,
  type McpConfigWriteErrorCode,
  setServerChoice,
} from '../src/config-edit/index.js';
import {
  type ChoiceEdit,
  type ChoicePlan,
  type ChoiceTarget,
  planChoice,
} from '../src/config-edit/plan-choice.js';

const FILE = '/home/me/.epoch/mcp.json';

// Line numbers of the seed, as the messages give them.
const SEED = [
  '// my servers', // 1
  '{', // 2
  '  "servers": {', // 3
  '    // work account', // 4
  '    "github": {', // 5
  '      "type": "stdio",', // 6
  '      "command": "npx", // from npm', // 7
  '      "args": ["-y", "@modelcontextprotocol/server-github"]', // 8
  '    },', // 9
  '    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "connectTimeout": 30 },', // 10
  '    "legacy": {', // 11
  '      "command": "legacy-mcp",', // 12
  '      "disabled": false,', // 13
  '      "include_tools": ["search_*", "read_file"],', // 14
  '      "exclude_tools": ["search_secrets"], /* keep */', // 15
  '    },', // 16
  '  },', // 17
  '}', // 18
  '',
].join('\r\n');

const user = (name: string): ChoiceTarget => ({ kind: 'user', name });
const override = (name: string): ChoiceTarget => ({ kind: 'override', name });
const server = (enabled: boolean): ChoiceEdit => ({ kind: 'server', enabled });
const tools = (enabled: boolean, ...names: string[]): ChoiceEdit => ({
  kind: 'tools',
  tools: names,
  enabled,
});

function plan(text: string, target: ChoiceTarget, edit: ChoiceEdit): ChoicePlan {
  const result = planChoice(text, FILE, target, edit);
  if (!result.ok) throw result.error;
  expect(parses(result.value.text)).toBe(true);
  return result.value;
}

function refused(text: string, target: ChoiceTarget, edit: ChoiceEdit) {
  const result = planChoice(text, FILE, target, edit);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function parses(text: string): boolean {
  const errors: ParseError[] = [];
  parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true });
  const load = parseMcpConfig(text, FILE);
  return errors.length === 0 && !load.diagnostics.some((d) => d.code === 'syntax_error');
}

/** Off, then on again: the text between, and the original back. */
function roundTrip(text: string, target: ChoiceTarget, off: ChoiceEdit): ChoicePlan {
  const disabled = plan(text, target, off);
  expect(disabled.changed).toBe(true);
  const enabled = plan(disabled.text, target, { ...off, enabled: true });
  expect(enabled.text).toBe(text);
  return disabled;
}

describe('a server off and on', () => {
  it('adds "enabled": false after the last field of a multi-line entry, in its indentation and CRLF', () => {
    const off = roundTrip(SEED, user('github'), server(false));
    expect(off.text).toBe(
      SEED.replace(
        '"@modelcontextprotocol/server-github"]\r\n',
        '"@modelcontextprotocol/server-github"],\r\n      "enabled": false\r\n',
      ),
    );
    expect(off.changes).toEqual([{ line: 9, text: 'added "enabled": false', changed: true }]);
    const on = plan(off.text, user('github'), server(true));
    expect(on.changes).toEqual([{ line: 9, text: 'removed "enabled": false', changed: true }]);
  });

  it('keeps a one-line entry on its line', () => {
    const off = roundTrip(SEED, user('remote'), server(false));
    expect(off.text).toBe(
      SEED.replace('"connectTimeout": 30 }', '"connectTimeout": 30, "enabled": false }'),
    );
    expect(off.changes).toEqual([{ line: 10, text: 'added "enabled": false', changed: true }]);
  });

  it('flips the "disabled" alias and keeps it', () => {
    const off = roundTrip(SEED, user('legacy'), server(false));
    expect(off.text).toBe(SEED.replace('"disabled": false', '"disabled": true'));
    expect(off.changes).toEqual([{ line: 13, text: 'set "disabled": true', changed: true }]);
    expect(plan(off.text, user('legacy'), server(true)).changes).toEqual([
      { line: 13, text: 'set "disabled": false', changed: true },
    ]);
  });

  it('sets an "enabled" already there, and says when there is nothing to do', () => {
    const text = '{ "servers": { "a": { "command": "x", "enabled": true } } }';
    const off = plan(text, user('a'), server(false));
    expect(off.text).toBe(text.replace('true', 'false'));
    expect(off.changes).toEqual([{ line: 1, text: 'set "enabled": false', changed: true }]);
    // Absent is the default: turning it on again takes the field out, not back to true.
    expect(plan(off.text, user('a'), server(true)).text).toBe(
      '{ "servers": { "a": { "command": "x" } } }',
    );
    const again = plan(off.text, user('a'), server(false));
    expect(again).toEqual({
      text: off.text,
      changed: false,
      changes: [{ line: 1, text: 'server "a" is already off ("enabled": false)', changed: false }],
    });
    expect(plan(SEED, user('github'), server(true)).changes).toEqual([
      { line: 5, text: 'server "github" is already on', changed: false },
    ]);
  });

  it('keeps a BOM and an entry that is empty', () => {
    const text = '\uFEFF{"servers": {"a": {}}}';
    const off = roundTrip(text, user('a'), server(false));
    expect(off.text).toBe('\uFEFF{"servers": {"a": {"enabled": false}}}');
  });
});

describe('tools off and on', () => {
  it('creates exclude_tools in the entry, and appends to it', () => {
    const off = roundTrip(SEED, user('github'), tools(false, 'delete_repo', 'fork_repo'));
    expect(off.text).toBe(
      SEED.replace(
        '"@modelcontextprotocol/server-github"]\r\n',
        '"@modelcontextprotocol/server-github"],\r\n      "exclude_tools": ["delete_repo", "fork_repo"]\r\n',
      ),
    );
    expect(off.changes).toEqual([
      { line: 9, text: 'added "exclude_tools": ["delete_repo"]', changed: true },
      { line: 9, text: 'added "fork_repo" to "exclude_tools"', changed: true },
    ]);
    const on = plan(off.text, user('github'), tools(true, 'fork_repo', 'delete_repo'));
    expect(on.changes).toEqual([
      { line: 9, text: 'removed "fork_repo" from "exclude_tools"', changed: true },
      { line: 9, text: 'removed "exclude_tools": ["delete_repo"]', changed: true },
    ]);
  });

  it('writes excludeTools in an entry written in camelCase', () => {
    const off = roundTrip(SEED, user('remote'), tools(false, 'fetch'));
    expect(off.text).toBe(
      SEED.replace('"connectTimeout": 30 }', '"connectTimeout": 30, "excludeTools": ["fetch"] }'),
    );
  });

  it('appends to a list that has a trailing comma and a comment after it', () => {
    const off = roundTrip(SEED, user('legacy'), tools(false, 'search_code'));
    expect(off.text).toBe(SEED.replace('["search_secrets"]', '["search_secrets", "search_code"]'));
    expect(off.changes).toEqual([
      { line: 15, text: 'added "search_code" to "exclude_tools"', changed: true },
    ]);
  });

  it('says when a tool is already off or on, and adds one left out of include_tools', () => {
    expect(
      plan(SEED, user('legacy'), tools(false, 'search_secrets', 'write_file')).changes,
    ).toEqual([
      {
        line: 15,
        text: '"search_secrets" is already off ("exclude_tools" names it)',
        changed: false,
      },
      {
        line: 14,
        text: '"write_file" is already off ("include_tools" leaves it out)',
        changed: false,
      },
    ]);
    expect(plan(SEED, user('legacy'), tools(true, 'read_file')).changes).toEqual([
      { line: 11, text: '"read_file" is already on', changed: false },
    ]);
    const on = plan(SEED, user('legacy'), tools(true, 'write_file'));
    expect(on.text).toBe(SEED.replace('"read_file"]', '"read_file", "write_file"]'));
    expect(on.changes).toEqual([
      { line: 14, text: 'added "write_file" to "include_tools"', changed: true },
    ]);
  });

  it('takes out every copy of a name, and keeps the list when others are left', () => {
    const text = '{"servers": {"a": {"command": "x", "exclude_tools": ["t", "u", "t"]}}}';
    const on = plan(text, user('a'), tools(true, 't'));
    expect(on.text).toBe('{"servers": {"a": {"command": "x", "exclude_tools": ["u"]}}}');
    expect(on.changes.map((c) => c.text)).toEqual([
      'removed "t" from "exclude_tools"',
      'removed "t" from "exclude_tools"',
    ]);
  });

  it('reads "*" in a list element as any run of characters', () => {
    const cases: [string, string, boolean][] = [
      ['search_*', 'search_code', true],
      ['search_*', 'search_', true],
      ['search_*', 'research_x', false],
      ['*_repo', 'delete_repo', true],
      ['a*b*c', 'a-b-b-c', true],
      ['a*b*c', 'a-c-b', false],
      ['a*a', 'a', false],
      ['*', '', true],
      ['read.file', 'readxfile', false],
    ];
    for (const [pattern, tool, expected] of cases) {
      expect(matchesToolPattern(pattern, tool), `${pattern} ~ ${tool}`).toBe(expected);
    }
  });

  it('writes a name with quotes, backslashes and unicode as JSON', () => {
    const name = 'say "hi"\\ 😀 \u2028';
    const off = roundTrip(SEED, user('github'), tools(false, name));
    const value = parse(off.text) as { servers: { github: { exclude_tools: string[] } } };
    expect(value.servers.github.exclude_tools).toEqual([name]);
  });
});

describe('overrides of plugin and host servers', () => {
  it('creates "overrides" with the entry, and takes both out again', () => {
    const off = roundTrip(SEED, override('acme__search'), server(false));
    expect(off.text).toBe(
      SEED.replace(
        '    },\r\n  },\r\n}',
        '    },\r\n  },\r\n  "overrides": {\r\n    "acme__search": {\r\n      "enabled": false\r\n    }\r\n  },\r\n}',
      ),
    );
    expect(off.changes).toEqual([
      { line: 20, text: 'added "enabled": false, in a new "overrides"', changed: true },
    ]);
    expect(plan(off.text, override('acme__search'), server(true)).changes).toEqual([
      {
        line: 20,
        text: 'removed "enabled": false, and with it "overrides" (nothing else was in it)',
        changed: true,
      },
    ]);
  });

  it('adds an entry next to the others, and a field to one already there', () => {
    const text =
      '{\n\t"servers": {},\n\t"overrides": {\n\t\t"acme__search": { "enabled": false }\n\t}\n}\n';
    const off = roundTrip(text, override('myplugin__fs'), tools(false, 'write_file'));
    expect(off.text).toBe(
      text.replace(
        '{ "enabled": false }\n',
        '{ "enabled": false },\n\t\t"myplugin__fs": {\n\t\t\t"exclude_tools": ["write_file"]\n\t\t}\n',
      ),
    );
    expect(off.changes).toEqual([
      { line: 6, text: 'added "exclude_tools": ["write_file"], in a new override', changed: true },
    ]);
    const more = roundTrip(text, override('acme__search'), tools(false, 'query'));
    expect(more.text).toBe(
      text.replace('"enabled": false }', '"enabled": false, "exclude_tools": ["query"] }'),
    );
  });

  it('undoes a sequence of changes in reverse order to the original bytes', () => {
    const steps: [ChoiceTarget, ChoiceEdit][] = [
      [override('myplugin__fs'), tools(false, 'write_file')],
      [override('myplugin__fs'), server(false)],
      [override('acme__search'), server(false)],
      [user('legacy'), server(false)],
      [override('myplugin__fs'), tools(false, 'move_file')],
    ];
    let text = SEED;
    for (const [target, edit] of steps) text = plan(text, target, edit).text;
    for (const [target, edit] of steps.reverse()) {
      text = plan(text, target, { ...edit, enabled: true }).text;
    }
    expect(text).toBe(SEED);
  });

  it('keeps an override left empty when it holds a comment of the user', () => {
    const text = '{"overrides": {"acme__search": {"enabled": false /* until the outage ends */}}}';
    const on = plan(text, override('acme__search'), server(true));
    expect(on.text).toBe('{"overrides": {"acme__search": { /* until the outage ends */}}}');
    const note = '{"overrides": {/* plugins */ "acme__search": {"enabled": false}}}';
    expect(plan(note, override('acme__search'), server(true)).text).toBe(
      '{"overrides": {/* plugins */ }}',
    );
  });

  it('turning on what no override turns off changes nothing', () => {
    expect(plan(SEED, override('acme__search'), server(true))).toEqual({
      text: SEED,
      changed: false,
      changes: [{ line: 1, text: 'the override of "acme__search" is already on', changed: false }],
    });
  });
});

describe('refusals', () => {
  function expectRefusal(
    text: string,
    target: ChoiceTarget,
    edit: ChoiceEdit,
    code: McpConfigWriteErrorCode,
  ) {
    const error = refused(text, target, edit);
    expect(error.code).toBe(code);
    expect(error.file).toBe(FILE);
    return error;
  }

  it('an unknown server, listing the names there are', () => {
    const error = expectRefusal(SEED, user('gihub'), server(false), 'unknown_server');
    expect(error.message).toContain('"gihub"');
    expect(error.message).toContain('its servers: github, remote, legacy');
  });

  it('a tool off by a pattern, naming the pattern and its line', () => {
    const text =
      '{\n  "servers": {\n    "gh": {\n      "command": "x",\n      "exclude_tools": ["delete_*"]\n    }\n  }\n}\n';
    const error = expectRefusal(
      text,
      user('gh'),
      tools(true, 'delete_repo'),
      'excluded_by_pattern',
    );
    expect(error.message).toContain(`${FILE}:5:`);
    expect(error.message).toContain('"delete_*"');
    expect(error.message).toContain('Edit that pattern');
    expect(error.field).toBe('servers.gh.exclude_tools[0]');
    // Off already: nothing to add.
    expect(plan(text, user('gh'), tools(false, 'delete_repo')).changed).toBe(false);
  });

  it('a field of the wrong type, at its file:line', () => {
    const text =
      '{\n  "servers": {\n    "a": {\n      "command": "x",\n      "enabled": "no",\n      "exclude_tools": "x"\n    }\n  }\n}\n';
    const enabled = expectRefusal(text, user('a'), server(false), 'invalid_value');
    expect(enabled.message).toContain(`${FILE}:5: "enabled" must be true or false`);
    expect(enabled.field).toBe('servers.a.enabled');
    const list = expectRefusal(text, user('a'), tools(false, 't'), 'invalid_value');
    expect(list.message).toContain(`${FILE}:6: "exclude_tools" must be a list of tool names`);
    const element = '{"servers": {"a": {"command": "x", "include_tools": ["a", 3]}}}';
    expect(expectRefusal(element, user('a'), tools(true, 't'), 'invalid_value').field).toBe(
      'servers.a.include_tools[1]',
    );
    const entry = '{"servers": {"a": []}}';
    expectRefusal(entry, user('a'), server(false), 'invalid_value');
    expectRefusal('{"overrides": []}', override('p__a'), server(false), 'invalid_shape');
  });

  it('both spellings of one field', () => {
    const text = '{"servers": {"a": {\n"exclude_tools": [],\n"excludeTools": []}}}';
    const error = expectRefusal(text, user('a'), tools(false, 't'), 'invalid_value');
    expect(error.message).toContain(
      `${FILE}:3: server "a" has both "exclude_tools" (line 2) and "excludeTools"`,
    );
    const flags = '{"servers": {"a": {"enabled": true, "disabled": false}}}';
    expectRefusal(flags, user('a'), server(false), 'invalid_value');
  });

  it('a tool name that would be a pattern, and an override name no server can have', () => {
    expectRefusal(SEED, user('github'), tools(false, 'delete_*'), 'invalid_name');
    expectRefusal(SEED, override('a b'), server(false), 'invalid_name');
  });

  it('a file that does not parse', () => {
    expectRefusal('{"servers": {', user('a'), server(false), 'syntax_error');
  });
});

describe('setServerChoice on a file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'epoch-config-choice-'));
    file = join(dir, 'mcp.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function rejection(promise: Promise<unknown>, code: McpConfigWriteErrorCode) {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!isMcpConfigWriteError(error, code))
      throw new Error(`expected ${code}, got ${String(error)}`);
    return error;
  }

  it('writes the change and says where', async () => {
    await writeFile(file, SEED);
    const result = await setServerChoice(file, user('github'), tools(false, 'delete_repo'));
    expect(result).toEqual({
      file,
      line: 9,
      changed: true,
      changes: [{ line: 9, text: 'added "exclude_tools": ["delete_repo"]', changed: true }],
    });
    const back = await setServerChoice(file, user('github'), tools(true, 'delete_repo'));
    expect(back.changed).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(SEED);
  });

  it('leaves the file alone when nothing changes or the edit is refused', async () => {
    await writeFile(file, SEED);
    const before = await stat(file);
    expect((await setServerChoice(file, user('github'), server(true))).changed).toBe(false);
    await rejection(setServerChoice(file, user('nope'), server(false)), 'unknown_server');
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(file, 'utf8')).toBe(SEED);
  });

  it('a missing file: unknown_server for a user server, created for an override', async () => {
    const error = await rejection(
      setServerChoice(file, user('a'), server(false)),
      'unknown_server',
    );
    expect(error.message).toContain('does not exist');
    const result = await setServerChoice(file, override('acme__search'), server(false));
    expect(result).toMatchObject({ file, line: 4, changed: true });
    expect(await readFile(file, 'utf8')).toBe(
      '{\n  "overrides": {\n    "acme__search": {\n      "enabled": false\n    }\n  }\n}\n',
    );
  });

  it('a choice made from what was shown is refused once the entry says otherwise, and only then', async () => {
    await writeFile(file, SEED);
    // Shown on, turned off: written.
    const off = await setServerChoice(file, user('github'), tools(false, 'x'), { shown: true });
    expect(off.changed).toBe(true);
    const written = await readFile(file, 'utf8');
    // Another page, still showing it on, turns it off again: the file moved on since it was shown.
    const error = await rejection(
      setServerChoice(file, user('github'), tools(false, 'x'), { shown: true }),
      'changed_since',
    );
    expect(error.message).toContain('server "github"');
    expect(error.message).toContain('reload');
    expect(await readFile(file, 'utf8')).toBe(written);
    // Without what was shown, "already so", as before; shown as it is, turned back: written.
    expect((await setServerChoice(file, user('github'), tools(false, 'x'))).changed).toBe(false);
    const back = await setServerChoice(file, user('github'), tools(true, 'x'), { shown: false });
    expect(back.changed).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(SEED);
    // An override is never refused so: a plugin's server may be off by the plugin's own config.
    const plugin = await setServerChoice(file, override('acme__search'), server(true), {
      shown: false,
    });
    expect(plugin.changed).toBe(false);
  });

  it('two calls at once both land', async () => {
    await writeFile(file, SEED);
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const results = await Promise.all([
      ...names.map((name) => setServerChoice(file, user('github'), tools(false, name))),
      setServerChoice(file, override('acme__search'), server(false)),
    ]);
    expect(results.every((result) => result.changed)).toBe(true);
    const value = parse(await readFile(file, 'utf8')) as {
      servers: { github: { exclude_tools: string[] } };
      overrides: unknown;
    };
    expect([...value.servers.github.exclude_tools].sort()).toEqual(names);
    expect(value.overrides).toEqual({ acme__search: { enabled: false } });
  });
});
