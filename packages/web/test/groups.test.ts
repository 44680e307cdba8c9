// The page renders servers group by group, so a source without a group would vanish from it with
// no error (the seed's MCP_GROUPS pitfall: an array with `satisfies` compiled without a group).
// The groups, and the looks of the states, are Records over their unions: a missing key is a
// compile error. The `@ts-expect-error` lines are the test — `npm test` type-checks this file and
// fails if any of them stops being an error.
import type { McpServerSource, McpServerState } from '@epoch-agent/runtime';
import type { McpGroups } from '@epoch-agent/web';
import { describe, expect, it } from 'vitest';
import { MCP_GROUPS, type McpGroup } from '../page/groups.js';
import { STATE_LOOKS, type StateLook } from '../page/states.js';

describe('the connectors page groups', () => {
  it('a group table without a group for some source does not compile', () => {
    // @ts-expect-error: no `plugin` or `project` group; their servers would never be shown
    const missing: McpGroups<McpGroup> = { user: MCP_GROUPS.user, host: MCP_GROUPS.host };
    const extra: McpGroups<McpGroup> = {
      ...MCP_GROUPS,
      // @ts-expect-error: a group for a source that does not exist
      marketplace: MCP_GROUPS.user,
    };
    expect(Object.keys(missing)).toEqual(['user', 'host']);
    expect(Object.keys(extra)).toContain('marketplace');
  });

  it('a state without a look does not compile', () => {
    const { disabled: _left, ...rest } = STATE_LOOKS;
    // @ts-expect-error: no look for `disabled`; such a server would show no word
    const missing: Record<McpServerState, StateLook> = rest;
    expect(missing).not.toHaveProperty('disabled');
  });

  it('has a group for every source, in the order the page shows them', () => {
    const sources: Record<McpServerSource, true> = {
      user: true,
      project: true,
      host: true,
      plugin: true,
    };
    expect(Object.keys(MCP_GROUPS)).toEqual(Object.keys(sources));
  });
});
