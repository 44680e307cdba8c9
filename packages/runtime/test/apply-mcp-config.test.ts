// applyMcpConfig on real server processes: an edited user mcp.json reconnects exactly the user
// servers that changed, connects the new, disconnects the removed, leaves the rest running — and
// never touches a host or plugin server. Who was restarted is told by process ids (each pid-server
// answers `whoami` with its pid), and every status event during the apply is recorded.
import type { McpServerStatus } from '@epoch-agent/plugin-mcp';
import { buildRuntime, type Runtime } from '@epoch-agent/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  approveEverything,
  isAlive,
  pidOf,
  pidServer,
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

const HOST = 'acme__search';
const PLUGIN = 'weather__forecast';

/** A runtime with one host server, one plugin server, and `user` in the user's mcp.json. */
async function start(user: Record<string, unknown>): Promise<Runtime> {
  await home.writeUserConfig(user);
  await home.writePluginConfig('weather', { forecast: pidServer() });
  runtime = await buildRuntime({
    approve: approveEverything,
    hostCapabilities: { namespace: 'acme', mcpServers: { search: pidServer() } },
  });
  return runtime;
}

async function pids(rt: Runtime): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { name } of rt.mcp.statuses()) out[name] = await pidOf(rt, name);
  return out;
}

/** Every status event until the returned function is called, which returns them. */
function recordStatuses(rt: Runtime): () => McpServerStatus[] {
  const seen: McpServerStatus[] = [];
  const stop = rt.mcp.onStatus((status) => seen.push(status));
  return () => {
    stop();
    return seen;
  };
}

describe('applyMcpConfig', () => {
  it('reconnects only the changed user server, connects the new, removes the removed, leaves the rest and every host and plugin server alone', async () => {
    const rt = await start({ edited: pidServer(), removed: pidServer(), kept: pidServer() });
    const before = await pids(rt);
    expect(Object.keys(before)).toEqual([HOST, PLUGIN, 'edited', 'removed', 'kept']);

    await home.writeUserConfig({
      edited: pidServer('--tag=v2'),
      kept: pidServer(),
      added: pidServer(),
    });
    const stop = recordStatuses(rt);
    const applied = await rt.applyMcpConfig();
    const events = stop();

    expect(applied).toMatchObject({
      added: ['added'],
      removed: ['removed'],
      reconnected: ['edited'],
      unchanged: ['kept'],
      diagnostics: [],
    });
    const after = await pids(rt);
    expect(after[HOST]).toBe(before[HOST]);
    expect(after[PLUGIN]).toBe(before[PLUGIN]);
    expect(after.kept).toBe(before.kept);
    expect(after.edited).not.toBe(before.edited);
    expect(after.added).toBeGreaterThan(0);
    expect(after.removed).toBeUndefined();
    expect(isAlive(before.removed as number)).toBe(false);
    expect(isAlive(before.edited as number)).toBe(false);

    // Host, plugin and unchanged servers never reported anything: they never left `connected`.
    const touched = new Set(events.map(({ name }) => name));
    expect([...touched].sort()).toEqual(['added', 'edited', 'removed']);
    expect(events.filter(({ name }) => name === 'removed').map(({ state }) => state)).toEqual([
      'disconnected',
    ]);
    expect(rt.mcp.statuses().map(({ name, source, state }) => [name, source, state])).toEqual([
      [HOST, 'host', 'connected'],
      [PLUGIN, 'plugin', 'connected'],
      // Reconnected in place: never unregistered, so it keeps its place.
      ['edited', 'user', 'connected'],
      ['kept', 'user', 'connected'],
      ['added', 'user', 'connected'],
    ]);
    expect(rt.mcp.configOf('edited')).toMatchObject({ args: [expect.any(String), '--tag=v2'] });

    expect(rt.tools.groups()).toEqual([
      'mcp:acme__search',
      'mcp:added',
      'mcp:edited',
      'mcp:kept',
      'mcp:weather__forecast',
    ]);
  });

  it('a changed tool list follows into the tool group of the reconnected server', async () => {
    const rt = await start({ one: pidServer() });
    expect(rt.tools.get('mcp__one__extra')).toBeUndefined();
    await home.writeUserConfig({ one: pidServer('--tool=extra') });
    const applied = await rt.applyMcpConfig();
    expect(applied.reconnected).toEqual(['one']);
    expect(rt.tools.get('mcp__one__extra')).toBeDefined();
  });

  it('an unchanged file changes nothing: no server reports a status, every pid stays', async () => {
    // Key order and spelling differ; the configs do not.
    const rt = await start({ a: { ...pidServer(), timeout: 30 }, b: pidServer() });
    const before = await pids(rt);
    await home.writeUserConfig(
      JSON.stringify({ servers: { b: pidServer(), a: { timeout: 30, ...pidServer() } } }, null, 4),
    );
    const stop = recordStatuses(rt);
    const applied = await rt.applyMcpConfig();
    expect(stop()).toEqual([]);
    expect(applied).toMatchObject({
      added: [],
      removed: [],
      reconnected: [],
      unchanged: ['b', 'a'],
    });
    expect(await pids(rt)).toEqual(before);
  });

  it('an emptied file disconnects every user server but no host or plugin server', async () => {
    const rt = await start({ a: pidServer(), b: pidServer() });
    const before = await pids(rt);
    await home.writeUserConfig({});
    const stop = recordStatuses(rt);
    const applied = await rt.applyMcpConfig();
    const events = stop();
    expect(applied).toMatchObject({
      removed: ['a', 'b'],
      added: [],
      reconnected: [],
      unchanged: [],
    });
    expect(events.every(({ source }) => source === 'user')).toBe(true);
    expect(await pids(rt)).toEqual({ [HOST]: before[HOST], [PLUGIN]: before[PLUGIN] });
    expect(rt.tools.groups()).toEqual(['mcp:acme__search', 'mcp:weather__forecast']);
  });

  it('a file with a syntax error keeps every server running and reports the error', async () => {
    const rt = await start({ a: pidServer() });
    const before = await pids(rt);
    await home.writeUserConfig('{ "servers": { "a": { "command": "node" }, } ');
    const stop = recordStatuses(rt);
    const applied = await rt.applyMcpConfig();
    expect(stop()).toEqual([]);
    expect(applied).toMatchObject({ added: [], removed: [], reconnected: [], unchanged: ['a'] });
    expect(applied.diagnostics).toEqual([
      expect.objectContaining({ source: 'user', code: 'syntax_error', severity: 'error' }),
    ]);
    expect(rt.diagnostics()).toEqual(applied.diagnostics);
    expect(await pids(rt)).toEqual(before);
  });

  it('a new user server named like a host server is not connected and the host server is untouched', async () => {
    const rt = await start({});
    const before = await pids(rt);
    await home.writeUserConfig({ [HOST]: pidServer(), [PLUGIN]: pidServer() });
    const stop = recordStatuses(rt);
    const applied = await rt.applyMcpConfig();
    expect(stop()).toEqual([]);
    expect(applied.added).toEqual([]);
    expect(applied.diagnostics.map(({ code, path }) => [code, path])).toEqual([
      ['server_name_taken', `servers.${HOST}`],
      ['server_name_taken', `servers.${PLUGIN}`],
    ]);
    expect(rt.mcp.statuses().map(({ name, source }) => [name, source])).toEqual([
      [HOST, 'host'],
      [PLUGIN, 'plugin'],
    ]);
    expect(await pids(rt)).toEqual(before);
  });

  it('two applies at once run one after the other and agree', async () => {
    const rt = await start({ a: pidServer() });
    await home.writeUserConfig({ a: pidServer('--tag=2'), b: pidServer() });
    const [first, second] = await Promise.all([rt.applyMcpConfig(), rt.applyMcpConfig()]);
    expect(first).toMatchObject({ added: ['b'], reconnected: ['a'] });
    expect(second).toMatchObject({ added: [], reconnected: [], unchanged: ['a', 'b'] });
    expect(rt.mcp.statuses().map(({ name }) => name)).toEqual([HOST, PLUGIN, 'a', 'b']);
  });
});
