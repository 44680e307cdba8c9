// The runtime as front ends use it (the `epoch` command, the connectors page): another user file,
// connecting only some servers, addServer / removeServer as one call that edits and applies, the
// refusals for host and plugin servers, and every field of a server with where it was written.
// Real pid-server processes, a temp EPOCH_HOME per test.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMcpConfigWriteError, isRuntimeError, serverFields } from '@epoch-agent/runtime';
import { describe, expect, it } from 'vitest';
import { isAlive, pidOf, pidServer, rejection, useRuntimeHome } from './runtime-helpers.js';

const t = useRuntimeHome();

describe('buildRuntime for a front end', () => {
  it('reads the user file it is given instead of the profile one', async () => {
    await t.home.writeUserConfig({ profile: pidServer() });
    const other = join(t.home.dir, 'other.json');
    await writeFile(other, JSON.stringify({ servers: { other: pidServer() } }));
    const runtime = await t.build({ configFile: other });
    expect(runtime.configFile).toBe(other);
    expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['other']);
  });

  it('connectOnly starts the named servers only; the others are known, with their origin, and never started', async () => {
    await t.home.writeUserConfig({ wanted: pidServer(), left: pidServer() });
    const pluginFile = await t.home.writePluginConfig('weather', { forecast: pidServer() });
    const seen: string[] = [];
    const runtime = await t.build({
      connectOnly: ['wanted'],
      onStatus: (status) => seen.push(`${status.name} ${status.state}`),
    });
    expect(runtime.mcp.statuses().map(({ name, state }) => `${name} ${state}`)).toEqual([
      'wanted connected',
    ]);
    // onStatus was registered before the first connect: it saw the start.
    expect(seen).toEqual(['wanted connecting', 'wanted connected']);
    expect(runtime.servers().map(({ config, origin }) => [config.name, origin])).toEqual([
      ['weather__forecast', { source: 'plugin', plugin: 'weather', file: pluginFile }],
      ['wanted', { source: 'user', file: runtime.configFile }],
      ['left', { source: 'user', file: runtime.configFile }],
    ]);
  });
});

describe('Runtime.addServer and removeServer', () => {
  it('add writes one insertion, connects the new server and leaves the running ones alone; remove gives back the original bytes and reaps it', async () => {
    const original = `// mine\n{\n  "servers": {\n    "kept": ${JSON.stringify(pidServer())}\n  }\n}\n`;
    await t.home.writeUserConfig(original);
    const runtime = await t.build();
    const keptPid = await pidOf(runtime, 'kept');

    const added = await runtime.addServer({
      name: 'fresh',
      transport: 'stdio',
      command: process.execPath,
      args: pidServer().args as string[],
      env: { TOKEN: 's3cret' },
    });
    expect(added.file).toBe(runtime.configFile);
    expect(added.applied).toMatchObject({ added: ['fresh'], unchanged: ['kept'], removed: [] });
    expect(added.status?.state).toBe('connected');
    expect(runtime.mcp.statuses().find(({ name }) => name === 'fresh')?.state).toBe('connected');
    const after = await readFile(runtime.configFile, 'utf8');
    const { offset, text } = added.inserted;
    expect(after).toBe(original.slice(0, offset) + text + original.slice(offset));
    const freshPid = await pidOf(runtime, 'fresh');
    expect(await pidOf(runtime, 'kept')).toBe(keptPid);

    const removed = await runtime.removeServer('fresh');
    expect(removed.applied).toMatchObject({ removed: ['fresh'], unchanged: ['kept'] });
    expect(await readFile(runtime.configFile, 'utf8')).toBe(original);
    expect(runtime.mcp.configOf('fresh')).toBeUndefined();
    expect(isAlive(freshPid)).toBe(false);
    expect(await pidOf(runtime, 'kept')).toBe(keptPid);
  });

  it('a runtime that connects one server connects a new server of that name when it is added, and no other', async () => {
    await t.home.writeUserConfig({ other: pidServer() });
    const runtime = await t.build({ connectOnly: ['fresh'] });
    expect(runtime.mcp.statuses()).toEqual([]);
    await runtime.addServer({ name: 'fresh', entry: pidServer() });
    expect(runtime.mcp.statuses().map(({ name, state }) => `${name} ${state}`)).toEqual([
      'fresh connected',
    ]);
    expect(runtime.server('fresh')?.origin).toEqual({ source: 'user', file: runtime.configFile });
  });

  it('refuses a name a plugin server holds, and a plugin server cannot be removed; the file is untouched', async () => {
    const original = JSON.stringify({ servers: { mine: pidServer() } });
    await t.home.writeUserConfig(original);
    const pluginFile = await t.home.writePluginConfig('weather', { forecast: pidServer() });
    const runtime = await t.build({ connectOnly: [] });

    const taken = await rejection(
      runtime.addServer({ name: 'weather__forecast', transport: 'http', url: 'https://x.example' }),
    );
    expect(isMcpConfigWriteError(taken, 'duplicate_server')).toBe(true);
    expect((taken as Error).message).toContain(`plugin "weather" (${pluginFile})`);

    const plugin = await rejection(runtime.removeServer('weather__forecast'));
    expect(isRuntimeError(plugin, 'not_user_server')).toBe(true);
    expect(plugin).toMatchObject({ data: { server: 'weather__forecast', source: 'plugin' } });
    expect((plugin as Error).message).toContain(pluginFile);
    expect((plugin as Error).message).toContain('Uninstall or change that plugin');

    const unknown = await rejection(runtime.removeServer('nope'));
    expect(isMcpConfigWriteError(unknown, 'unknown_server')).toBe(true);
    expect(await readFile(runtime.configFile, 'utf8')).toBe(original);
  });

  it('login and logout name what is wrong with the server asked for, before any network', async () => {
    await t.home.writeUserConfig({ local: pidServer() });
    const runtime = await t.build({ connectOnly: [] });
    const handlers = { onAuthorizationUrl: () => {}, openUrl: async () => {} };
    const stdio = await rejection(runtime.login('local', handlers));
    expect(isRuntimeError(stdio, 'not_remote_server')).toBe(true);
    const unknown = await rejection(runtime.logout('nope'));
    expect(isRuntimeError(unknown, 'unknown_server')).toBe(true);
    expect((unknown as Error).message).toContain('local');
  });
});

describe('serverFields', () => {
  it('every field of the transport: where it is written (as spelled), its default, the inferred transport; secrets redacted', async () => {
    const text = [
      '{',
      '  "servers": {',
      '    "far": {',
      '      "url": "https://user:pw@mcp.example/sse?key=abc",',
      '      "headers": { "Authorization": "Bearer t0ken" },',
      '      "connectTimeout": 7,',
      '      "oauth": { "client_id": "cid", "client_secret": "shh" }',
      '    }',
      '  }',
      '}',
    ].join('\n');
    await t.home.writeUserConfig(text);
    const runtime = await t.build({ connectOnly: [] });
    const server = runtime.server('far');
    if (server === undefined) throw new Error('far is not read');
    const { at, fields } = serverFields(server, runtime.configFile);
    expect(at).toEqual({ file: runtime.configFile, line: 3, column: 5 });
    const byName = Object.fromEntries(fields.map((f) => [f.field, f]));
    expect(Object.keys(byName)).toEqual([
      'transport',
      'url',
      'headers',
      'headers_helper',
      'oauth',
      'timeout',
      'max_total_timeout',
      'connect_timeout',
      'keepalive_interval',
      'idle_timeout_seconds',
      'max_lifetime_seconds',
      'supports_parallel',
      'skip_preflight',
      'enabled',
      'include_tools',
      'exclude_tools',
      'max_output_tokens',
      'defer',
      'pin_tools',
      'elicitation',
      'start',
      'log_level',
      'task_calls',
    ]);
    expect(byName.log_level).toEqual({
      field: 'log_level',
      value: 'info',
      from: { kind: 'default' },
    });
    expect(byName.pin_tools).toEqual({
      field: 'pin_tools',
      value: true,
      from: { kind: 'default' },
    });
    // A user's own server is asked unless its entry says otherwise.
    expect(byName.elicitation).toEqual({
      field: 'elicitation',
      value: 'ask',
      from: { kind: 'default' },
    });
    // The `epoch` command's and the page's default: every server started with the others.
    expect(byName.start).toEqual({ field: 'start', value: 'at_start', from: { kind: 'default' } });
    expect(byName.max_output_tokens).toEqual({
      field: 'max_output_tokens',
      value: 25_000,
      from: { kind: 'default' },
    });
    expect(byName.enabled).toEqual({ field: 'enabled', value: true, from: { kind: 'default' } });
    expect(byName.transport).toEqual({
      field: 'transport',
      value: 'sse',
      from: { kind: 'inferred' },
    });
    expect(byName.connect_timeout).toEqual({
      field: 'connect_timeout',
      value: 7,
      from: { kind: 'file', key: 'connectTimeout', line: 6, column: 7 },
    });
    expect(byName.timeout).toEqual({ field: 'timeout', value: 300, from: { kind: 'default' } });
    const shown = JSON.stringify(fields);
    for (const secret of ['pw', 'abc', 't0ken', 'shh']) expect(shown).not.toContain(secret);
    expect(shown).toContain('Authorization');
  });

  it('a plugin server points into its plugin file under its key there; `type` is where the transport is written', async () => {
    const pluginFile = await t.home.writePluginConfig('weather', {
      forecast: { type: 'http', url: 'https://w.example/mcp' },
    });
    const runtime = await t.build({ connectOnly: [] });
    const server = runtime.server('weather__forecast');
    if (server === undefined) throw new Error('not read');
    const { at, fields } = serverFields(server, runtime.configFile);
    expect(at).toMatchObject({ file: pluginFile, line: 3 });
    expect(fields[0]).toMatchObject({
      field: 'transport',
      value: 'http',
      from: { kind: 'file', key: 'type' },
    });
  });

  it("a plugin server's choice written in the user's overrides points there, as spelled", async () => {
    await t.home.writePluginConfig('weather', {
      forecast: { command: 'x', exclude_tools: ['a'] },
    });
    await t.home.writeUserConfig(
      [
        '{',
        '  "servers": {},',
        '  "overrides": {',
        '    "weather__forecast": { "disabled": true,',
        '      "excludeTools": ["b"] }',
        '  }',
        '}',
      ].join('\n'),
    );
    const runtime = await t.build({ connectOnly: [] });
    const server = runtime.server('weather__forecast');
    if (server === undefined) throw new Error('not read');
    const { fields } = serverFields(server, runtime.configFile);
    const byName = Object.fromEntries(fields.map((f) => [f.field, f]));
    const file = runtime.configFile;
    expect(byName.enabled).toEqual({
      field: 'enabled',
      value: false,
      from: { kind: 'override', file, key: 'disabled', line: 4, column: 28 },
    });
    expect(byName.exclude_tools).toEqual({
      field: 'exclude_tools',
      value: ['a', 'b'],
      from: { kind: 'override', file, key: 'excludeTools', line: 5, column: 7 },
    });
    expect(byName.include_tools?.from).toEqual({ kind: 'default' });
  });
});
