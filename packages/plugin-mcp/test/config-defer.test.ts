// Reading how a server's tools reach the model — its `defer` (true, false or "auto", both
// spellings) — and the file's top-level `tool_budget_tokens`, checked like every other field:
// a wrong value is a diagnostic at its file:line, never a failed start.
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../src/config/index.js';

const entry = (fields: string) => `{ "servers": { "s": { "command": "x", ${fields} } } }`;

describe('defer', () => {
  it.each([
    ['"timeout": 5', 'auto'],
    ['"defer": true', true],
    ['"defer": false', false],
    ['"defer": "auto"', 'auto'],
  ])('%s: defer is %s', (fields, defer) => {
    expect(parseMcpConfig(entry(fields), 'mcp.json').servers[0]?.defer).toBe(defer);
  });

  it('a string other than "auto": an error at its line, and the server is not loaded', () => {
    const load = parseMcpConfig(
      '{ "servers": {\n  "s": { "command": "x",\n    "defer": "yes" } } }',
      'mcp.json',
    );
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toMatchObject([
      { severity: 'error', code: 'invalid_type', path: 'servers.s.defer', line: 3, column: 14 },
    ]);
    expect(load.diagnostics[0]?.message).toContain('defer must be true, false or "auto"');
  });
});

describe('tool_budget_tokens', () => {
  it('a whole number of tokens, in either spelling; absent when not written', () => {
    expect(parseMcpConfig('{ "tool_budget_tokens": 5000 }', 'mcp.json').toolBudgetTokens).toBe(
      5000,
    );
    expect(parseMcpConfig('{ "toolBudgetTokens": 0 }', 'mcp.json').toolBudgetTokens).toBe(0);
    const load = parseMcpConfig('{ "servers": {} }', 'mcp.json');
    expect(load.toolBudgetTokens).toBeUndefined();
    expect(load.diagnostics).toEqual([]);
  });

  it.each([
    ['"20k"', 'invalid_type', 'must be a whole number of tokens'],
    ['1.5', 'invalid_type', 'it holds a fraction'],
    ['-1', 'out_of_range', 'from 0 to 1,000,000'],
    ['2000000', 'out_of_range', 'from 0 to 1,000,000'],
  ])(
    '%s: an error at its line, the default kept, the servers still loaded',
    (value, code, text) => {
      const load = parseMcpConfig(
        `{\n  "servers": { "s": { "command": "x" } },\n  "tool_budget_tokens": ${value}\n}`,
        'mcp.json',
      );
      expect(load.servers).toHaveLength(1);
      expect(load.toolBudgetTokens).toBeUndefined();
      expect(load.diagnostics).toMatchObject([
        {
          severity: 'error',
          code,
          path: 'tool_budget_tokens',
          file: 'mcp.json',
          line: 3,
          column: 25,
        },
      ]);
      expect(load.diagnostics[0]?.message).toContain(text);
    },
  );

  it('both spellings: snake_case is used, with a warning at the camelCase one', () => {
    const load = parseMcpConfig(
      '{ "tool_budget_tokens": 100, "toolBudgetTokens": 200 }',
      'mcp.json',
    );
    expect(load.toolBudgetTokens).toBe(100);
    expect(load.diagnostics).toMatchObject([
      { severity: 'warning', code: 'duplicate_field', path: 'toolBudgetTokens', column: 30 },
    ]);
  });
});
