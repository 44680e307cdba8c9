// Choosing what the model gets, on real server processes: a disabled server starts no process at
// all, and turning a server or single tools off and on in the user's mcp.json (the server's own
// entry, or `overrides` for a plugin's or the host's) takes effect in the running runtime without
// reconnecting anything else. Processes are found in /proc by a tag unique to the test, so "no
// process" is checked right after the one connectAll that would have spawned it.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isMcpError, prefixedName } from '@epoch-agent/plugin-mcp';
import type { McpToolsChangedEvent, Runtime } from '@epoch-agent/runtime';
import { describe, expect, it } from 'vitest';
import {
  approveEverything,
  isAlive,
  pidOf,
  pidServer,
  processesTagged,
  rejection,
  useRuntimeHome,
} from './runtime-helpers.js';

const t = useRuntimeHome();

function toolNames(runtime: Runtime, server: string): string[] {
  return runtime.mcp.toolsOf(server).map(({ name }) => name);
}

function recordToolChanges(runtime: Runtime): McpToolsChangedEvent[] {
  const events: McpToolsChangedEvent[] = [];
  runtime.mcp.onToolsChanged((event) => events.push(event));
  return events;
}

describe('a disabled server', () => {
  it('is never started: no process, status disabled, no tools, and calls say how to turn it on', async () => {
    const tag = `--tag=${randomUUID()}`;
    await t.home.writeUserConfig({
      off: { ...pidServer(tag, '--off'), enabled: false },
      alias: { ...pidServer(tag, '--alias'), disabled: true },
      on: pidServer(),
    });
    const runtime = await t.build({ registry: { schemaCache: null } });

    expect(processesTagged(tag)).toEqual([]);
    const states = Object.fromEntries(
      runtime.mcp.statuses().map((s) => [s.name, [s.state, s.toolCount, s.toolsOff]]),
    );
    expect(states).toEqual({
      off: ['disabled', 0, 0],
      alias: ['disabled', 0, 0],
      on: ['connected', 1, 0],
    });
    expect(runtime.mcp.tools().map(({ name }) => name)).toEqual([prefixedName('on', 'whoami')]);
    const error = await rejection(runtime.mcp.reconnect('off'));
    expect(isMcpError(error, 'server_disabled')).toBe(true);
    expect((error as Error).message).toContain('is turned off');
    expect((error as Error).message).not.toContain('epoch mcp');
  });

  it("of a plugin, turned off in the user's overrides: never started, and the plugin's file untouched", async () => {
    const tag = `--tag=${randomUUID()}`;
    const pluginFile = await t.home.writePluginConfig('weather', { forecast: pidServer(tag) });
    const pluginText = await readFile(pluginFile, 'utf8');
    await t.home.writeUserConfig(
      '{ "servers": {}, "overrides": { "weather__forecast": { "enabled": false } } }',
    );
    const runtime = await t.build({ registry: { schemaCache: null } });

    expect(processesTagged(tag)).toEqual([]);
    expect(runtime.mcp.statuses()).toMatchObject([
      { name: 'weather__forecast', source: 'plugin', state: 'disabled' },
    ]);
    expect(runtime.server('weather__forecast')?.config.choice.enabled).toBe(false);
    expect(await readFile(pluginFile, 'utf8')).toBe(pluginText);
  });
});

describe('turning servers and tools on and off in a running runtime', () => {
  it('a server off and on again: its process goes and comes, the host hears the diff, the others are not reconnected', async () => {
    const tag = `--tag=${randomUUID()}`;
    const toggled = pidServer(tag, '--tool=alpha');
    await t.home.writeUserConfig({ toggled, other: pidServer() });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const events = recordToolChanges(runtime);
    const first = await pidOf(runtime, 'toggled');
    const other = await pidOf(runtime, 'other');

    await t.home.writeUserConfig({ toggled: { ...toggled, enabled: false }, other: pidServer() });
    expect(await runtime.applyMcpConfig()).toMatchObject({
      choiceChanged: ['toggled'],
      reconnected: [],
      unchanged: ['other'],
    });
    expect(isAlive(first)).toBe(false);
    expect(processesTagged(tag)).toEqual([]);
    expect(runtime.tools.get(prefixedName('toggled', 'whoami'))).toBeUndefined();
    expect(events.at(-1)).toMatchObject({
      server: 'toggled',
      reason: 'choice',
      added: [],
      removed: [prefixedName('toggled', 'whoami'), prefixedName('toggled', 'alpha')],
    });

    await t.home.writeUserConfig({ toggled, other: pidServer() });
    expect(await runtime.applyMcpConfig()).toMatchObject({ choiceChanged: ['toggled'] });
    const second = await pidOf(runtime, 'toggled');
    expect(second).not.toBe(first);
    expect(processesTagged(tag)).toEqual([second]);
    expect(events.at(-1)).toMatchObject({ server: 'toggled', reason: 'choice', removed: [] });
    expect(events.at(-1)?.added).toEqual([
      prefixedName('toggled', 'whoami'),
      prefixedName('toggled', 'alpha'),
    ]);
    expect(await pidOf(runtime, 'other')).toBe(other);
  });

  it('single tools: exclude_tools and include_tools (globs, camelCase) change the offered tools over the same process', async () => {
    const server = pidServer('--tool=read_a', '--tool=read_b', '--tool=write_a');
    await t.home.writeUserConfig({ files: server });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const events = recordToolChanges(runtime);
    const pid = await pidOf(runtime, 'files');

    await t.home.writeUserConfig({ files: { ...server, excludeTools: ['write_*'] } });
    await runtime.applyMcpConfig();
    expect(toolNames(runtime, 'files')).toEqual(
      ['whoami', 'read_a', 'read_b'].map((tool) => prefixedName('files', tool)),
    );
    expect(runtime.mcp.toolsOffOf('files').map(({ name }) => name)).toEqual([
      prefixedName('files', 'write_a'),
    ]);
    expect(runtime.mcp.statuses()).toMatchObject([{ toolCount: 3, toolsOff: 1 }]);
    expect(runtime.tools.get(prefixedName('files', 'write_a'))).toBeUndefined();
    expect(events.at(-1)).toMatchObject({
      reason: 'choice',
      added: [],
      removed: [prefixedName('files', 'write_a')],
    });

    // exclude wins over include
    await t.home.writeUserConfig({
      files: { ...server, include_tools: ['read_*', 'whoami'], exclude_tools: ['read_b'] },
    });
    await runtime.applyMcpConfig();
    expect(toolNames(runtime, 'files')).toEqual(
      ['whoami', 'read_a'].map((tool) => prefixedName('files', tool)),
    );
    expect(await pidOf(runtime, 'files')).toBe(pid);
  });

  it("a plugin's tool off through overrides, and back: live, the plugin's server not reconnected", async () => {
    await t.home.writePluginConfig('weather', { forecast: pidServer('--tool=alerts') });
    await t.home.writeUserConfig({});
    const runtime = await t.build({ approve: approveEverything, registry: { schemaCache: null } });
    const pid = await pidOf(runtime, 'weather__forecast');

    await t.home.writeUserConfig(
      '{ "servers": {}, "overrides": { "weather__forecast": { "exclude_tools": ["alerts"] } } }',
    );
    expect(await runtime.applyMcpConfig()).toMatchObject({ choiceChanged: ['weather__forecast'] });
    expect(toolNames(runtime, 'weather__forecast')).toEqual([
      prefixedName('weather__forecast', 'whoami'),
    ]);
    await t.home.writeUserConfig({});
    expect(await runtime.applyMcpConfig()).toMatchObject({ choiceChanged: ['weather__forecast'] });
    expect(toolNames(runtime, 'weather__forecast')).toHaveLength(2);
    expect(await pidOf(runtime, 'weather__forecast')).toBe(pid);
  });
});

describe("a plugin's server deferred by the user", () => {
  it('"defer": true in overrides: its tools are found on demand, applied live, the entry untouched', async () => {
    const pluginFile = await t.home.writePluginConfig('weather', {
      forecast: pidServer('--tool=alerts'),
    });
    const pluginText = await readFile(pluginFile, 'utf8');
    await t.home.writeUserConfig({});
    const runtime = await t.build({ approve: approveEverything, registry: { schemaCache: null } });
    expect(runtime.tools.deferred()).toEqual([]);

    await t.home.writeUserConfig(
      '{ "servers": {}, "overrides": { "weather__forecast": { "defer": true } } }',
    );
    expect(await runtime.applyMcpConfig()).toMatchObject({ choiceChanged: ['weather__forecast'] });
    expect(runtime.tools.deferred().map(({ name }) => name)).toEqual([
      prefixedName('weather__forecast', 'whoami'),
      prefixedName('weather__forecast', 'alerts'),
    ]);
    expect(runtime.diagnostics()).toEqual([]);
    expect(await readFile(pluginFile, 'utf8')).toBe(pluginText);
  });
});

describe('warnings about the choice', () => {
  it('a name no tool of the connected server has: a warning at its line, with a did-you-mean', async () => {
    await t.home.writeUserConfig(
      [
        '{ "servers": {',
        '  "files": {',
        `    "command": ${JSON.stringify(process.execPath)},`,
        `    "args": ${JSON.stringify(pidServer('--tool=delete_file').args)},`,
        '    "exclude_tools": ["delete_fle", "nothing_*"]',
        '  }',
        '} }',
      ].join('\n'),
    );
    const runtime = await t.build({ registry: { schemaCache: null } });
    const warnings = runtime.diagnostics().filter(({ code }) => code === 'unknown_tool');
    expect(warnings).toMatchObject([
      { severity: 'warning', path: 'servers.files.exclude_tools[0]', line: 5, column: 23 },
      { severity: 'warning', path: 'servers.files.exclude_tools[1]', line: 5, column: 37 },
    ]);
    expect(warnings[0]?.message).toContain('Did you mean "delete_file"?');
    expect(warnings[1]?.message).toContain('Its tools are: "whoami", "delete_file".');
  });

  it('an override naming no plugin or host server, or one of your own: a warning, with a did-you-mean', async () => {
    await t.home.writePluginConfig('weather', { forecast: pidServer() });
    await t.home.writeUserConfig(
      [
        '{',
        '  "servers": { "mine": { "command": "x", "enabled": false } },',
        '  "overrides": {',
        '    "weather__forcast": { "enabled": false },',
        '    "mine": { "enabled": false }',
        '  }',
        '}',
      ].join('\n'),
    );
    const runtime = await t.build({ connectOnly: [] });
    const warnings = runtime.diagnostics().filter(({ path }) => path.startsWith('overrides.'));
    expect(warnings).toMatchObject([
      { code: 'unknown_override', source: 'user', line: 4, column: 5 },
      { code: 'override_of_user_server', source: 'user', line: 5, column: 5 },
    ]);
    expect(warnings[0]?.message).toContain('Did you mean "weather__forecast"?');
  });

  it('an override whose name differs from a plugin server only in case says so', async () => {
    await t.home.writePluginConfig('weather', { forecast: pidServer() });
    await t.home.writeUserConfig(
      JSON.stringify({ overrides: { Weather__Forecast: { enabled: false } } }),
    );
    const runtime = await t.build({ connectOnly: [] });
    const [warning] = runtime.diagnostics().filter(({ path }) => path.startsWith('overrides.'));
    expect(warning).toMatchObject({
      code: 'unknown_override',
      path: 'overrides.Weather__Forecast',
    });
    expect(warning?.message).toContain('"weather__forecast" differs from it only in case');
    expect(runtime.server('weather__forecast')?.config.choice.enabled).toBe(true);
  });
});

describe('Runtime.setServerChoice', () => {
  it('edits the entry (or overrides) and applies it at once; off then on gives back the bytes', async () => {
    const text = `{\n  // mine\n  "servers": { "mine": ${JSON.stringify(pidServer('--tool=extra'))} }\n}\n`;
    await t.home.writeUserConfig(text);
    const pluginFile = await t.home.writePluginConfig('weather', { forecast: pidServer() });
    const pluginText = await readFile(pluginFile, 'utf8');
    const runtime = await t.build({ approve: approveEverything, registry: { schemaCache: null } });
    const pid = await pidOf(runtime, 'mine');

    const off = await runtime.setServerChoice('mine', {
      kind: 'tools',
      tools: ['extra'],
      enabled: false,
    });
    expect(off).toMatchObject({ changed: true, line: 3, status: { toolCount: 1, toolsOff: 1 } });
    expect(off.applied.choiceChanged).toEqual(['mine']);
    expect(toolNames(runtime, 'mine')).toEqual([prefixedName('mine', 'whoami')]);

    const plugin = await runtime.setServerChoice('weather__forecast', {
      kind: 'server',
      enabled: false,
    });
    expect(plugin.status?.state).toBe('disabled');
    expect(await readFile(pluginFile, 'utf8')).toBe(pluginText);

    await runtime.setServerChoice('weather__forecast', { kind: 'server', enabled: true });
    await runtime.setServerChoice('mine', { kind: 'tools', tools: ['extra'], enabled: true });
    expect(await readFile(runtime.configFile, 'utf8')).toBe(text);
    expect(toolNames(runtime, 'mine')).toHaveLength(2);
    expect(runtime.mcp.statuses().map(({ state }) => state)).toEqual(['connected', 'connected']);
    expect(await pidOf(runtime, 'mine')).toBe(pid);
  });

  it('a name no source has: unknown_server with a did-you-mean, nothing written', async () => {
    await t.home.writeUserConfig({ github: pidServer() });
    const runtime = await t.build({ connectOnly: [] });
    const before = await readFile(runtime.configFile, 'utf8');
    const error = await rejection(
      runtime.setServerChoice('githb', { kind: 'server', enabled: false }),
    );
    expect(error).toMatchObject({ code: 'unknown_server' });
    expect((error as Error).message).toContain('did you mean "github"?');
    expect(await readFile(runtime.configFile, 'utf8')).toBe(before);
  });
});
