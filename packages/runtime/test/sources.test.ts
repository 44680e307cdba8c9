// Where servers come from: the host's (buildRuntime's hostCapabilities), installed plugins'
// ($EPOCH_HOME/plugins/<plugin>/mcp.json) and the user's mcp.json — their names, their `source`,
// the checks on namespaces and plugin names, and the diagnostics of all three loads. Real
// pid-server processes, a temp EPOCH_HOME per test.
import { join, resolve } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { EpochTool } from '@epoch-agent/protocol';
import {
  buildRuntime,
  HOST_NAMESPACE_PATTERN,
  isRuntimeError,
  PLUGIN_NAME_PATTERN,
  type Runtime,
} from '@epoch-agent/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  approveEverything,
  pidOf,
  pidServer,
  rejection,
  type TempHome,
  useTempHome,
} from './runtime-helpers.js';

let home: TempHome;
let runtime: Runtime | undefined;

beforeEach(async () => {
  home = await useTempHome();
});

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await home.restore();
});

function sourceOf(name: string): string | undefined {
  return runtime?.mcp.statuses().find((status) => status.name === name)?.source;
}

describe('host servers', () => {
  it('are named <namespace>__<server>, connected with source host, and their tools are in group mcp:<name>', async () => {
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    const [status] = runtime.mcp.statuses();
    expect(status).toMatchObject({ name: 'acme__search', source: 'host', state: 'connected' });
    expect(runtime.tools.groups()).toEqual(['mcp:acme__search']);
    expect(await pidOf(runtime, 'acme__search')).toBeGreaterThan(0);
  });

  it('host entries are read like file entries: both spellings, seconds, and a relative cwd from the working directory', async () => {
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: { search: { ...pidServer(), connectTimeout: 7, timeout: 9, cwd: 'packages' } },
      },
    });
    expect(runtime.mcp.configOf('acme__search')).toMatchObject({
      name: 'acme__search',
      transport: 'stdio',
      connectTimeoutMs: 7_000,
      timeoutMs: 9_000,
      cwd: resolve('packages'),
    });
  });

  it.each(['acme:tools', 'acme tools', '', 'acmé', 'a/b'])(
    'namespace %j is refused when the runtime is built, with a code, the pattern and the reason',
    async (namespace) => {
      const error = await rejection(
        buildRuntime({
          approve: approveEverything,
          hostCapabilities: { namespace, mcpServers: { search: pidServer() } },
        }),
      );
      expect(isRuntimeError(error, 'invalid_host_namespace')).toBe(true);
      expect(error).toMatchObject({ data: { namespace } });
      const { message } = error as Error;
      expect(message).toContain(JSON.stringify(namespace));
      expect(message).toContain(HOST_NAMESPACE_PATTERN.source);
      expect(message).toContain('tools sent to model providers');
    },
  );

  it('a host server key outside [A-Za-z0-9_-] is refused when the runtime is built', async () => {
    const error = await rejection(
      buildRuntime({
        approve: approveEverything,
        hostCapabilities: { namespace: 'acme', mcpServers: { 'web.search': pidServer() } },
      }),
    );
    expect(isRuntimeError(error, 'invalid_host_server_name')).toBe(true);
    expect(error).toMatchObject({ data: { namespace: 'acme', server: 'web.search' } });
  });

  it("a host entry with a mistake is a host diagnostic; the host's other servers still connect", async () => {
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: { broken: { ...pidServer(), timeout: -1 }, ok: pidServer() },
      },
    });
    expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['acme__ok']);
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'host',
        severity: 'error',
        code: 'out_of_range',
        path: 'servers.broken.timeout',
        file: 'hostCapabilities.mcpServers (namespace "acme")',
      }),
    ]);
  });
});

describe('plugin servers', () => {
  it('are named <plugin>__<server> with source plugin; a directory with a bad plugin name is skipped with a diagnostic', async () => {
    await home.writePluginConfig('weather', { forecast: pidServer() });
    await home.writePluginConfig('Bad_Plugin', { forecast: pidServer() });
    runtime = await buildRuntime({ approve: approveEverything });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      ['weather__forecast', 'plugin'],
    ]);
    expect(runtime.tools.groups()).toEqual(['mcp:weather__forecast']);
    const [diagnostic] = runtime.diagnostics();
    expect(runtime.diagnostics()).toHaveLength(1);
    expect(diagnostic).toMatchObject({
      source: 'plugin',
      code: 'invalid_plugin_name',
      file: join(home.dir, 'plugins', 'Bad_Plugin'),
    });
    expect(diagnostic?.message).toContain(PLUGIN_NAME_PATTERN.source);
  });

  it('a plugin server key outside [A-Za-z0-9_-] is skipped with a diagnostic at its key', async () => {
    const file = await home.writePluginConfig('weather', {
      'fore.cast': pidServer(),
      daily: pidServer(),
    });
    runtime = await buildRuntime({ approve: approveEverything });
    expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['weather__daily']);
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'plugin',
        code: 'invalid_server_name',
        file,
        path: 'servers["fore.cast"]',
        line: 3,
        column: 5,
      }),
    ]);
  });

  it('a plugin named like the host namespace loses the name to the host server, with a diagnostic', async () => {
    const file = await home.writePluginConfig('acme', { search: pidServer() });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      ['acme__search', 'host'],
    ]);
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({ source: 'plugin', code: 'server_name_taken', file }),
    ]);
  });
});

describe('user servers', () => {
  it('keep their names as written, with source user; "source": "host" in the file does nothing but warn', async () => {
    await home.writeUserConfig({ 'my.tools': { ...pidServer(), source: 'host' } });
    runtime = await buildRuntime({ approve: approveEverything });
    expect(sourceOf('my.tools')).toBe('user');
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'user',
        code: 'source_field',
        file: mcpConfigPath(),
        path: 'servers["my.tools"].source',
      }),
    ]);
    expect(runtime.tools.groups()).toEqual(['mcp:my.tools']);
  });

  it('a user server named like a host server is left out with a diagnostic; the host one keeps its name and source', async () => {
    await home.writeUserConfig({ acme__search: pidServer(), mine: pidServer() });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      ['acme__search', 'host'],
      ['mine', 'user'],
    ]);
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'user',
        code: 'server_name_taken',
        path: 'servers.acme__search',
        line: 3,
        column: 5,
      }),
    ]);
  });

  it('all three sources together, diagnostics gathered host, plugin, user', async () => {
    await home.writeUserConfig({ mine: { ...pidServer(), conect_timeout: 5 } });
    await home.writePluginConfig('weather', { forecast: { ...pidServer(), bogus: 1 } });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: { search: { ...pidServer(), idle_timeout_seconds: -1 }, ok: pidServer() },
      },
    });
    expect(runtime.mcp.statuses().map(({ name, source, state }) => [name, source, state])).toEqual([
      ['acme__ok', 'host', 'connected'],
      ['weather__forecast', 'plugin', 'connected'],
      ['mine', 'user', 'connected'],
    ]);
    expect(runtime.diagnostics().map(({ source, code }) => [source, code])).toEqual([
      ['host', 'out_of_range'],
      ['plugin', 'unknown_field'],
      ['user', 'unknown_field'],
    ]);
    expect(runtime.tools.groups()).toEqual(['mcp:acme__ok', 'mcp:mine', 'mcp:weather__forecast']);
  });

  it('a user server whose name differs from a plugin server only in case is left out, naming both', async () => {
    await home.writePluginConfig('weather', { forecast: pidServer() });
    await home.writeUserConfig({ Weather__Forecast: pidServer(), mine: pidServer() });
    runtime = await buildRuntime({ approve: approveEverything });
    expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['weather__forecast', 'mine']);
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'user',
        code: 'name_case_conflict',
        file: mcpConfigPath(),
        path: 'servers.Weather__Forecast',
        line: 3,
        message: expect.stringContaining(
          '"Weather__Forecast" is not connected: its name differs from the plugin server "weather__forecast" only in case',
        ),
      }),
    ]);
    const refused = await runtime
      .addServer({ name: 'WEATHER__forecast', transport: 'stdio', command: 'x' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'duplicate_server',
      message: expect.stringContaining('server "weather__forecast" of plugin "weather"'),
    });
  });
});

describe("the host's tool prefix", () => {
  it('a plugin named like the host namespace never connects a server the host lacks: each is left out at its key', async () => {
    const file = await home.writePluginConfig('acme', { other: pidServer() });
    await home.writePluginConfig('tools', { fine: pidServer() });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      ['acme__search', 'host'],
      ['tools__fine', 'plugin'],
    ]);
    const [diagnostic] = runtime.diagnostics();
    expect(runtime.diagnostics()).toEqual([
      expect.objectContaining({
        source: 'plugin',
        severity: 'error',
        code: 'host_prefix_reserved',
        file,
        path: 'servers.other',
        line: 3,
        column: 5,
      }),
    ]);
    expect(diagnostic?.message).toContain('"acme__other"');
    expect(diagnostic?.message).toContain('"mcp__acme__"');
    expect(diagnostic?.message).toContain('Install plugin "acme" under another name');
  });

  it('user servers whose tools would start with mcp__<namespace>__ (any case, or once sanitized) are left out at their line, naming the prefix and what to do', async () => {
    await home.writeUserConfig({
      acme__lookalike: pidServer(),
      acme: pidServer(),
      'ACME._x': pidServer(),
      acmeish: pidServer(),
      'acme.x': pidServer(),
    });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    expect(runtime.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      ['acme__search', 'host'],
      ['acmeish', 'user'],
      ['acme.x', 'user'],
    ]);
    const diagnostics = runtime.diagnostics();
    expect(diagnostics.map(({ code, path, line, file }) => [code, path, line, file])).toEqual([
      ['host_prefix_reserved', 'servers.acme__lookalike', 3, mcpConfigPath()],
      ['host_prefix_reserved', 'servers.acme', 9, mcpConfigPath()],
      ['host_prefix_reserved', 'servers["ACME._x"]', 15, mcpConfigPath()],
    ]);
    expect(diagnostics[0]?.message).toBe(
      `MCP server "acme__lookalike" is not connected: its tools would be named "mcp__acme__lookalike__…", under "mcp__acme__", the prefix reserved for the host's own servers (namespace "acme"), so they would pass for the host's tools. Rename "acme__lookalike" in ${mcpConfigPath()} so that its tool names do not start with "mcp__acme__".`,
    );
    // No tool but the host's own carries its prefix.
    const hostPrefixed = runtime.tools
      .tools()
      .filter(({ name }) => name.toLowerCase().startsWith('mcp__acme__'));
    expect(hostPrefixed.map(({ source, server }) => [source, server])).toEqual([
      ['host', 'acme__search'],
    ]);
  });

  it('addServer refuses a name under the host prefix and writes nothing', async () => {
    await home.writeUserConfig({});
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: {} },
    });
    const error = await rejection(
      runtime.addServer({ name: 'Acme__x', transport: 'stdio', command: 'node' }),
    );
    expect(error).toMatchObject({ code: 'duplicate_server' });
    expect((error as Error).message).toContain('"mcp__acme__"');
    expect(runtime.mcp.statuses()).toEqual([]);
  });

  it('every MCP tool says its source and server, so a permission rule keys on them and not on the name', async () => {
    await home.writePluginConfig('tools', { helper: pidServer() });
    await home.writeUserConfig({ mine: pidServer() });
    runtime = await buildRuntime({
      approve: approveEverything,
      hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
    });
    const rt = runtime;
    // The host trusts its own servers' tools and asks about everything else.
    const trusted = (tool: EpochTool): boolean => tool.source === 'host';
    expect(
      rt.tools.tools().map((tool) => [tool.name, tool.source, tool.server, trusted(tool)]),
    ).toEqual([
      ['mcp__acme__search__whoami', 'host', 'acme__search', true],
      ['mcp__mine__whoami', 'user', 'mine', false],
      ['mcp__tools__helper__whoami', 'plugin', 'tools__helper', false],
    ]);
    // A tool offered under another name (a collision) is still judged by where it comes from.
    rt.tools.setGroup('builtin', [{ ...builtinTool, name: 'mcp__mine__whoami' }]);
    const renamed = rt.tools.entries().find(({ group }) => group === 'mcp:mine');
    expect(renamed?.name).toMatch(/^mcp__mine__whoami_[0-9a-f]{8}$/);
    expect(rt.tools.get(renamed?.name ?? '')).toMatchObject({ source: 'user', server: 'mine' });
    expect(trusted(rt.tools.get('mcp__mine__whoami') as EpochTool)).toBe(false);
    // Found on demand, a tool is judged as the one mcp_call_tool runs, with the same fields.
    rt.tools.setToolBudget(0);
    const call = rt.tools.get('mcp_call_tool');
    expect(call?.delegate?.({ name: 'mcp__acme__search__whoami' })).toMatchObject({
      source: 'host',
      server: 'acme__search',
    });
    expect(call?.delegate?.({ name: renamed?.name })).toMatchObject({ source: 'user' });
  });
});

const builtinTool: EpochTool = {
  name: 'builtin',
  description: 'a host tool',
  inputSchema: { type: 'object' },
  annotations: {},
  execute: async () => ({ content: [] }),
};
