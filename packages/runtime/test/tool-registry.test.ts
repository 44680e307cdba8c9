// ToolRegistry on its own: groups set and removed whole, and collisions settled the same way
// whatever order groups arrive in, each reported with both sides, nothing dropped or replaced.
// MCP tools are built by the plugin's real adapter (toEpochTools) over a backend that records
// which server a call reached.
import { secretRedactor } from '@epoch-agent/infra';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  defaultToolResultsDir,
  type McpToolBackend,
  prefixedName,
  type ToolOutputCap,
  toEpochTools,
} from '@epoch-agent/plugin-mcp';
import type { EpochTool } from '@epoch-agent/protocol';
import { isRuntimeError, mcpGroup, ToolRegistry } from '@epoch-agent/runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const signal = new AbortController().signal;

/** The tools of MCP server `server`; calling one answers with the server and raw tool name. */
const CAP: ToolOutputCap = {
  maxTokens: () => DEFAULT_MAX_OUTPUT_TOKENS,
  dir: defaultToolResultsDir(),
  redact: secretRedactor(),
};

function serverTools(server: string, tools: readonly string[]): EpochTool[] {
  const backend: McpToolBackend = {
    callTool: async (name) => ({ content: [{ type: 'text', text: `${server}/${name}` }] }),
    listResources: async () => [],
    listResourceTemplates: async () => [],
    readResource: async () => ({ contents: [] }),
  };
  return toEpochTools({
    server,
    source: 'user',
    tools: tools.map((name) => ({ name, inputSchema: { type: 'object' as const } })),
    resources: false,
    backend,
    cap: CAP,
  });
}

function builtin(name: string): EpochTool {
  return {
    name,
    description: `built-in ${name}`,
    inputSchema: { type: 'object' },
    annotations: {},
    execute: async () => ({ content: [{ type: 'text', text: `builtin/${name}` }] }),
  };
}

async function answer(registry: ToolRegistry, name: string): Promise<string> {
  const tool = registry.get(name);
  if (tool === undefined) throw new Error(`no tool "${name}"`);
  const result = await tool.execute({}, { signal });
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

/** name -> what calling it answers, for every offered tool. */
async function nameMap(registry: ToolRegistry): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of registry.tools()) out[name] = await answer(registry, name);
  return out;
}

describe('ToolRegistry', () => {
  it('a group set to tools equal to its own is no change; another description, or defer, is', () => {
    const registry = new ToolRegistry();
    registry.setGroup(mcpGroup('gh'), serverTools('gh', ['search', 'open']));
    const changes: unknown[] = [];
    registry.onChange((change) => changes.push(change));
    // New objects (a new connection's), the same definitions: nothing to tell.
    const again = serverTools('gh', ['search', 'open']);
    registry.setGroup(mcpGroup('gh'), again);
    expect(changes).toEqual([]);
    expect(registry.get('mcp__gh__open')).toBe(again[1]);
    const [search, open] = again as [EpochTool, EpochTool];
    registry.setGroup(mcpGroup('gh'), [search, { ...open, description: 'opens an issue' }]);
    registry.setGroup(mcpGroup('gh'), [search, { ...open, description: 'opens an issue' }], {
      defer: true,
    });
    expect(changes).toEqual([
      { group: 'mcp:gh', kind: 'set', added: [], removed: [], changed: ['mcp__gh__open'] },
      { group: 'mcp:gh', kind: 'set', added: [], removed: [], changed: [] },
    ]);
  });

  it('sets, replaces and removes a group as a whole', () => {
    const registry = new ToolRegistry();
    const changes: unknown[] = [];
    registry.onChange((change) => changes.push(change));
    registry.setGroup('builtin', [builtin('read_file'), builtin('write_file')]);
    registry.setGroup(mcpGroup('gh'), serverTools('gh', ['search', 'open']));
    expect(registry.groups()).toEqual(['builtin', 'mcp:gh']);
    expect(registry.tools().map(({ name }) => name)).toEqual([
      'read_file',
      'write_file',
      'mcp__gh__search',
      'mcp__gh__open',
    ]);
    registry.setGroup(mcpGroup('gh'), serverTools('gh', ['search']));
    expect(registry.tools().map(({ name }) => name)).toEqual([
      'read_file',
      'write_file',
      'mcp__gh__search',
    ]);
    registry.removeGroup(mcpGroup('gh'));
    registry.removeGroup(mcpGroup('gh'));
    expect(registry.groups()).toEqual(['builtin']);
    expect(changes).toEqual([
      {
        group: 'builtin',
        kind: 'set',
        added: ['read_file', 'write_file'],
        removed: [],
        changed: [],
      },
      {
        group: 'mcp:gh',
        kind: 'set',
        added: ['mcp__gh__search', 'mcp__gh__open'],
        removed: [],
        changed: [],
      },
      { group: 'mcp:gh', kind: 'set', added: [], removed: ['mcp__gh__open'], changed: [] },
      { group: 'mcp:gh', kind: 'removed', added: [], removed: ['mcp__gh__search'], changed: [] },
    ]);
  });

  it('servers a.b and a_b: the first group in sort order keeps the name, the other gets a hash suffix, both reported', async () => {
    const registry = new ToolRegistry();
    registry.setGroup(mcpGroup('a_b'), serverTools('a_b', ['search']));
    registry.setGroup(mcpGroup('a.b'), serverTools('a.b', ['search']));

    const names = registry.tools().map(({ name }) => name);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(TOOL_NAME);
    // "." sorts before "_": mcp:a.b keeps the plain name.
    expect(await answer(registry, 'mcp__a_b__search')).toBe('a.b/search');
    const renamed = names.find((name) => name !== 'mcp__a_b__search') as string;
    expect(renamed).toMatch(/^mcp__a_b__search_[0-9a-f]{8}$/);
    expect(await answer(registry, renamed)).toBe('a_b/search');

    expect(registry.collisions()).toEqual([
      {
        code: 'tool_name_collision',
        severity: 'warning',
        name: 'mcp__a_b__search',
        kept: { group: 'mcp:a.b', tool: 'search' },
        renamed: { group: 'mcp:a_b', tool: 'search', name: renamed },
        message: expect.stringContaining('"mcp:a.b" keeps it'),
      },
    ]);
    const [collision] = registry.collisions();
    expect(collision?.message).toContain('group "mcp:a_b"');
    expect(collision?.message).toContain(renamed);
  });

  it('tools x.y and x_y of two groups get the same names in whichever order the groups arrive', async () => {
    const build = (order: readonly string[]) => {
      const registry = new ToolRegistry();
      const groups: Record<string, EpochTool[]> = {
        'mcp:s.1': serverTools('s.1', ['x.y']),
        'mcp:s_1': serverTools('s_1', ['x_y']),
        builtin: [builtin('ls')],
      };
      for (const group of order) registry.setGroup(group, groups[group] ?? []);
      return registry;
    };
    const first = await nameMap(build(['mcp:s.1', 'mcp:s_1', 'builtin']));
    const second = await nameMap(build(['builtin', 'mcp:s_1', 'mcp:s.1']));
    expect(second).toEqual(first);
    expect(first.mcp__s_1__x_y).toBe('s.1/x.y');
    expect(Object.values(first).sort()).toEqual(['builtin/ls', 's.1/x.y', 's_1/x_y']);
  });

  it('an MCP tool named like a host tool never takes its name, whichever was registered first', async () => {
    for (const mcpFirst of [true, false]) {
      const registry = new ToolRegistry();
      const register = [
        () => registry.setGroup(mcpGroup('gh'), serverTools('gh', ['search'])),
        () => registry.setGroup('builtin', [builtin('mcp__gh__search')]),
      ];
      for (const step of mcpFirst ? register : register.reverse()) step();
      expect(await answer(registry, 'mcp__gh__search')).toBe('builtin/mcp__gh__search');
      const [collision] = registry.collisions();
      expect(collision?.kept).toEqual({ group: 'builtin', tool: 'mcp__gh__search' });
      expect(collision?.renamed.group).toBe('mcp:gh');
      expect(await answer(registry, collision?.renamed.name ?? '')).toBe('gh/search');
    }
  });

  it('the renamed tool gets its plain name back when the other group is removed', async () => {
    const registry = new ToolRegistry();
    registry.setGroup(mcpGroup('a.b'), serverTools('a.b', ['t']));
    registry.setGroup(mcpGroup('a_b'), serverTools('a_b', ['t']));
    expect(registry.collisions()).toHaveLength(1);
    registry.removeGroup(mcpGroup('a.b'));
    expect(registry.collisions()).toEqual([]);
    expect(await answer(registry, 'mcp__a_b__t')).toBe('a_b/t');
  });

  it('a suffixed name stays within the length limit and the pattern', () => {
    const registry = new ToolRegistry({ toolNameMaxLength: 64 });
    // `mcp__a_b__` + 54 characters: exactly 64, so neither name is cut before they collide.
    const longTool = 'x'.repeat(54);
    for (const server of ['a.b', 'a_b']) {
      const tools = toEpochTools({
        server,
        source: 'user',
        tools: [{ name: longTool, inputSchema: { type: 'object' } }],
        resources: false,
        cap: CAP,
        backend: {
          callTool: async () => ({ content: [] }),
          listResources: async () => [],
          listResourceTemplates: async () => [],
          readResource: async () => ({ contents: [] }),
        },
        nameOptions: { maxLength: 64 },
      });
      registry.setGroup(mcpGroup(server), tools);
    }
    const names = registry.tools().map(({ name }) => name);
    expect(names).toContain(`mcp__a_b__${longTool}`);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(registry.collisions()).toHaveLength(1);
    expect(registry.collisions()[0]?.renamed.name).toHaveLength(64);
  });

  it('refuses a host tool whose name a provider would reject, and keeps the group as it was', () => {
    const registry = new ToolRegistry();
    registry.setGroup('builtin', [builtin('ls')]);
    let thrown: unknown;
    try {
      registry.setGroup('builtin', [builtin('ls'), builtin('skills:run')]);
    } catch (error) {
      thrown = error;
    }
    expect(isRuntimeError(thrown, 'invalid_tool_name')).toBe(true);
    expect(thrown).toMatchObject({ data: { group: 'builtin', tool: 'skills:run' } });
    expect((thrown as Error).message).toContain('^[a-zA-Z0-9_-]{1,128}$');
    expect(registry.tools().map(({ name }) => name)).toEqual(['ls']);
  });

  it('names are unique, valid and independent of registration order for any set of servers', () => {
    const part = fc.stringMatching(/^[a-z._-]{1,4}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(part, fc.uniqueArray(part, { minLength: 1, maxLength: 3 })), {
          minLength: 1,
          maxLength: 6,
          selector: ([server]) => server,
        }),
        fc.nat(),
        (servers, seed) => {
          const names = (order: typeof servers) => {
            const registry = new ToolRegistry();
            for (const [server, tools] of order) {
              registry.setGroup(mcpGroup(server), serverTools(server, tools));
            }
            return registry
              .entries()
              .map(({ group, tool, name }) => `${group} ${tool.name} ${name}`)
              .sort();
          };
          const shuffled = [...servers].sort(
            (a, b) =>
              ((a[0].charCodeAt(0) * 31 + seed) % 7) - ((b[0].charCodeAt(0) * 31 + seed) % 7),
          );
          const forward = names(servers);
          expect(names(shuffled)).toEqual(forward);
          expect(names([...servers].reverse())).toEqual(forward);
          const offered = forward.map((line) => line.split(' ')[2] as string);
          expect(new Set(offered).size).toBe(offered.length);
          for (const name of offered) expect(name).toMatch(TOOL_NAME);
        },
      ),
    );
  });

  it('prefixedName of the plugin and the registry agree for a server without collisions', () => {
    const registry = new ToolRegistry();
    registry.setGroup(mcpGroup('fs'), serverTools('fs', ['read.file']));
    expect(registry.tools().map(({ name }) => name)).toEqual([prefixedName('fs', 'read.file')]);
  });
});

describe('deferral', () => {
  it('refuses a host tool named like the two that stand for deferred tools', () => {
    const registry = new ToolRegistry();
    for (const name of ['mcp_search_tools', 'mcp_call_tool']) {
      const thrown = (() => {
        try {
          registry.setGroup('builtin', [builtin(name)]);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(isRuntimeError(thrown, 'invalid_tool_name')).toBe(true);
    }
    expect(registry.groups()).toEqual([]);
  });

  it('defers the same groups whatever order they were set in', () => {
    const groups = [
      ['big', Array.from({ length: 30 }, (_, i) => `tool_${i}`)],
      ['mid', Array.from({ length: 10 }, (_, i) => `tool_${i}`)],
      ['small', ['one']],
    ] as const;
    const deferredOf = (order: readonly (typeof groups)[number][]) => {
      const registry = new ToolRegistry({ toolBudgetTokens: 600 });
      for (const [server, tools] of order) {
        registry.setGroup(mcpGroup(server), serverTools(server, tools), { defer: 'auto' });
      }
      return registry
        .deferred()
        .map(({ group }) => group)
        .filter((group, index, all) => all.indexOf(group) === index);
    };
    expect(deferredOf(groups)).toEqual(['mcp:big']);
    expect(deferredOf([...groups].reverse())).toEqual(['mcp:big']);
  });
});
