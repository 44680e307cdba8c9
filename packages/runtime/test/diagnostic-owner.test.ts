// The entry a diagnostic's field path names, as the infra formats paths: what the page and
// `epoch mcp get` match a diagnostic to its server by (diagnostic-places.test.ts covers the match).
import { describe, expect, it } from 'vitest';
import { diagnosticEntry } from '../src/servers/diagnostic-owner.js';

describe('diagnosticEntry', () => {
  it('reads the entry of a path as the infra formats it', () => {
    expect(diagnosticEntry('servers.github.args[1]')).toEqual({ list: 'servers', key: 'github' });
    expect(diagnosticEntry('servers["my.server"].url')).toEqual({
      list: 'servers',
      key: 'my.server',
    });
    expect(diagnosticEntry('overrides.acme__search')).toEqual({
      list: 'overrides',
      key: 'acme__search',
    });
    expect(diagnosticEntry('tool_budget_tokens')).toBeUndefined();
    expect(diagnosticEntry('')).toBeUndefined();
  });
});
