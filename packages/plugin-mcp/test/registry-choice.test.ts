// The registry's side of choosing what the model gets, on the reference server over stdio: which
// tools it offers by include_tools / exclude_tools (the resource pair by its names too), what it
// says is off, and update() changing that over the same connection — no new `connecting`, a
// tools-changed event with the diff — or stopping and starting the server.
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../src/config/index.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpToolsChangedEvent } from '../src/registry/types.js';
import type { McpServerConfig, McpServerStatus } from '../src/types.js';

let registry: McpRegistry | undefined;

afterEach(async () => {
  await registry?.disconnectAll();
  registry = undefined;
});

/** The reference server as an mcp.json entry with these extra fields. */
function everything(fields: string): McpServerConfig {
  const entry = `"command": ${JSON.stringify(process.execPath)}, "args": ${JSON.stringify([EVERYTHING_ENTRY, 'stdio'])}`;
  const load = parseMcpConfig(
    `{ "servers": { "everything": { ${entry}${fields === '' ? '' : `, ${fields}`} } } }`,
    'mcp.json',
  );
  const [config] = load.servers;
  if (config === undefined) throw new Error(JSON.stringify(load.diagnostics));
  return config;
}

function names(tools: readonly { readonly name: string }[]): string[] {
  return tools.map(({ name }) => name);
}

async function connect(config: McpServerConfig): Promise<McpRegistry> {
  registry = new McpRegistry({ schemaCache: null });
  await registry.connectAll([config], 'user');
  return registry;
}

describe('include_tools and exclude_tools on the reference server', () => {
  it('offers only the chosen tools; the rest, the resource pair included, are off', async () => {
    const mcp = await connect(everything('"exclude_tools": ["get-*", "read_resource"]'));
    const offered = names(mcp.toolsOf('everything'));
    const off = names(mcp.toolsOffOf('everything'));
    expect(offered).toContain('mcp__everything__echo');
    expect(offered).toContain('mcp__everything__list_resources');
    expect(offered.some((name) => name.includes('get-'))).toBe(false);
    expect(off).toContain('mcp__everything__get-sum');
    expect(off).toContain('mcp__everything__read_resource');
    expect(names(mcp.tools())).toEqual(offered);
    const [status] = mcp.statuses();
    expect(status).toMatchObject({ state: 'connected', toolCount: offered.length });
    expect(status?.toolsOff).toBe(off.length);
  });

  it('include_tools lets only its matches through, and exclude wins over it', async () => {
    const mcp = await connect(
      everything(
        '"includeTools": ["echo", "get-sum", "list_resources"], "excludeTools": ["get-sum"]',
      ),
    );
    expect(names(mcp.toolsOf('everything'))).toEqual([
      'mcp__everything__echo',
      'mcp__everything__list_resources',
    ]);
  });
});

describe('update with another choice', () => {
  it('a new exclude list: the same connection, a tools-changed event with the diff', async () => {
    const config = everything('');
    const mcp = await connect(config);
    const all = names(mcp.toolsOf('everything'));
    const statuses: McpServerStatus[] = [];
    const events: McpToolsChangedEvent[] = [];
    mcp.onStatus((status) => statuses.push(status));
    mcp.onToolsChanged((event) => events.push(event));

    const status = await mcp.update(everything('"exclude_tools": ["echo"]'));
    expect(status).toMatchObject({ state: 'connected', toolCount: all.length - 1, toolsOff: 1 });
    expect(events).toEqual([
      {
        server: 'everything',
        source: 'user',
        reason: 'choice',
        added: [],
        removed: ['mcp__everything__echo'],
        changed: [],
        withheld: [],
      },
    ]);
    expect(statuses.map(({ state }) => state)).toEqual(['connected']);
    expect(mcp.configOf('everything')?.choice.excludeTools).toHaveLength(1);

    await mcp.update(config);
    expect(names(mcp.toolsOf('everything'))).toEqual(all);
    expect(events.at(-1)).toMatchObject({ added: ['mcp__everything__echo'], removed: [] });
  });

  it('off: closed, disabled, nothing offered; on again: connected, its tools announced', async () => {
    const config = everything('');
    const mcp = await connect(config);
    const all = names(mcp.toolsOf('everything'));
    const events: McpToolsChangedEvent[] = [];
    mcp.onToolsChanged((event) => events.push(event));

    const off = await mcp.update({ ...config, choice: { ...config.choice, enabled: false } });
    expect(off).toMatchObject({ state: 'disabled', toolCount: 0, toolsOff: 0 });
    expect(mcp.tools()).toEqual([]);
    expect(mcp.toolsOffOf('everything')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ reason: 'choice', added: [], removed: all });
    await expect(mcp.getPrompt('everything', 'simple-prompt')).rejects.toMatchObject({
      code: 'server_disabled',
    });

    const on = await mcp.update(config);
    expect(on.state).toBe('connected');
    expect(names(mcp.toolsOf('everything'))).toEqual(all);
    expect(events.at(-1)).toMatchObject({ reason: 'choice', added: all, removed: [] });
  });
});
