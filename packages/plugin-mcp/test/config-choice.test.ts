// Reading what a server offers the model: `enabled` (and its alias `disabled`), `include_tools` and
// `exclude_tools` in both spellings, checked like every other field, and the user's `overrides` of
// plugins' and the host's servers, which may say nothing else.
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../src/config/index.js';
import { offersTool } from '../src/config/tool-choice.js';
import type { McpServerChoice } from '../src/types.js';

function choiceOf(entry: string): McpServerChoice {
  const load = parseMcpConfig(`{ "servers": { "s": { "command": "x", ${entry} } } }`, 'mcp.json');
  const [server] = load.servers;
  if (server === undefined) throw new Error(JSON.stringify(load.diagnostics));
  return server.choice;
}

const patterns = (list: McpServerChoice['excludeTools'] | undefined) =>
  list?.map(({ pattern }) => pattern);

describe('enabled and its alias disabled', () => {
  it.each([
    ['"enabled": false', false],
    ['"enabled": true', true],
    ['"disabled": true', false],
    ['"disabled": false', true],
    ['"timeout": 5', true],
  ])('%s: enabled is %s', (entry, enabled) => {
    expect(choiceOf(entry).enabled).toBe(enabled);
  });

  it('both, contradicting: "enabled" wins, with a warning at "disabled"', () => {
    const load = parseMcpConfig(
      '{ "servers": { "s": { "command": "x", "enabled": true, "disabled": true } } }',
      'mcp.json',
    );
    expect(load.servers[0]?.choice.enabled).toBe(true);
    expect(load.diagnostics).toMatchObject([
      {
        severity: 'warning',
        code: 'alias_conflict',
        path: 'servers.s.disabled',
        line: 1,
        column: 56,
      },
    ]);
  });

  it('not a boolean: an error naming the field, and the server is not loaded', () => {
    const load = parseMcpConfig(
      '{ "servers": { "s": { "command": "x", "enabled": "no" } } }',
      'mcp.json',
    );
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toMatchObject([
      { severity: 'error', code: 'invalid_type', path: 'servers.s.enabled', file: 'mcp.json' },
    ]);
    expect(load.diagnostics[0]?.message).toContain('enabled must be true or false');
  });
});

describe('include_tools and exclude_tools', () => {
  it('both spellings, each pattern with where it is written', () => {
    const choice = choiceOf('"includeTools": ["read_*"], "exclude_tools": ["read_secret"]');
    expect(patterns(choice.includeTools)).toEqual(['read_*']);
    expect(choice.excludeTools).toEqual([
      {
        pattern: 'read_secret',
        at: { file: 'mcp.json', path: 'servers.s.exclude_tools[0]', line: 1, column: 85 },
      },
    ]);
    expect(choiceOf('"excludeTools": ["a"]').excludeTools[0]?.at.path).toBe(
      'servers.s.excludeTools[0]',
    );
  });

  it.each([
    ['"exclude_tools": "write_file"', 'servers.s.exclude_tools', 'must be a list of tool names'],
    ['"include_tools": ["a", 3]', 'servers.s.include_tools[1]', 'must be a tool name as a string'],
  ])('%s: an error at %s', (entry, path, message) => {
    const load = parseMcpConfig(`{ "servers": { "s": { "command": "x", ${entry} } } }`, 'mcp.json');
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toMatchObject([{ severity: 'error', path }]);
    expect(load.diagnostics[0]?.message).toContain(message);
  });

  it('a misspelt field: a did-you-mean', () => {
    const load = parseMcpConfig(
      '{ "servers": { "s": { "command": "x", "exclude_tool": ["a"] } } }',
      'mcp.json',
    );
    expect(load.diagnostics[0]?.message).toContain('Did you mean "exclude_tools"?');
  });

  it('matching: exact names, * globs anywhere, exclude winning, the resource pair by its names', () => {
    const choice = choiceOf(
      '"include_tools": ["read_*", "*_resource*", "list_*s", "get"], "exclude_tools": ["read_secret*", "list_resources"]',
    );
    const offered = [
      'read_file',
      'read_secret',
      'read_secret_2',
      'read_resource',
      'list_resources',
      'list_tags',
      'get',
      'get_all',
      'write',
    ].filter((name) => offersTool(choice, name));
    expect(offered).toEqual(['read_file', 'read_resource', 'list_tags', 'get']);
  });

  it('a hostile pattern of many stars matches in linear steps, not exponential backtracking', () => {
    const pattern = `${'*a'.repeat(2000)}b`;
    const choice = choiceOf(`"exclude_tools": [${JSON.stringify(pattern)}]`);
    // Answered at once; a backtracking regular expression would not finish.
    expect(offersTool(choice, 'a'.repeat(3000))).toBe(true);
  });
});

describe('overrides', () => {
  it('entries for plugin and host servers, each field optional', () => {
    const load = parseMcpConfig(
      [
        '{',
        '  "overrides": {',
        '    "weather__forecast": { "disabled": true },',
        '    "acme__search": { "excludeTools": ["delete_*"] }',
        '  }',
        '}',
      ].join('\n'),
      'mcp.json',
    );
    expect(load.diagnostics).toEqual([]);
    expect(load.overrides).toMatchObject([
      { server: 'weather__forecast', enabled: false, at: { line: 3, column: 5 } },
      { server: 'acme__search', excludeTools: [{ pattern: 'delete_*' }] },
    ]);
    expect(load.overrides[1]).not.toHaveProperty('enabled');
  });

  it('a server setting in an override: ignored with a warning that says what can be set', () => {
    const load = parseMcpConfig(
      '{ "overrides": { "acme__search": { "command": "evil", "enabled": false, "enable": 1 } } }',
      'mcp.json',
    );
    expect(load.overrides).toMatchObject([{ server: 'acme__search', enabled: false }]);
    expect(load.diagnostics).toMatchObject([
      { severity: 'warning', code: 'unknown_field', path: 'overrides.acme__search.command' },
      { severity: 'warning', code: 'unknown_field', path: 'overrides.acme__search.enable' },
    ]);
    expect(load.diagnostics[0]?.message).toContain(
      'keeps the settings its plugin or host gives it',
    );
    expect(load.diagnostics[1]?.message).toContain('Did you mean "enabled"?');
  });

  it('not an object: an error, the servers still load', () => {
    const load = parseMcpConfig(
      '{ "servers": { "s": { "command": "x" } }, "overrides": ["acme__search"] }',
      'mcp.json',
    );
    expect(load.servers).toHaveLength(1);
    expect(load.diagnostics).toMatchObject([
      { severity: 'error', code: 'invalid_type', path: 'overrides' },
    ]);
  });
});
