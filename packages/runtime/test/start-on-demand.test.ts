// buildRuntime starts servers on demand by default (HOST_START): the first build of a home learns
// each server's tools, the next offers them from the cache with no process until a tool is called;
// a host that wants them all running says `start: 'at_start'`, and an entry's own `start` (also
// under the user's `overrides` for a plugin's server) wins over either. `get`'s row says it.
import { randomUUID } from 'node:crypto';
import { HOST_START } from '@epoch-agent/runtime';
import { serverFields } from '@epoch-agent/runtime/config';
import { describe, expect, it } from 'vitest';
import { pidOf, pidServer, processesTagged, useRuntimeHome } from './runtime-helpers.js';

const test = useRuntimeHome();

function stateOf(
  runtime: { mcp: { statuses(): { name: string; state: string }[] } },
  name: string,
) {
  return runtime.mcp.statuses().find((status) => status.name === name)?.state;
}

describe('when buildRuntime starts servers', () => {
  it('on demand by default: a second build offers the cached tools with no process, and the first call starts the server', async () => {
    expect(HOST_START).toBe('on_demand');
    const tag = `--tag=${randomUUID()}`;
    await test.home.writeUserConfig({ lazy: pidServer(tag) });
    const first = await test.build();
    // Never seen before: connected once, to learn its tools.
    expect(stateOf(first, 'lazy')).toBe('connected');
    await first.close();

    const second = await test.build();
    expect(stateOf(second, 'lazy')).toBe('notStarted');
    expect(second.tools.get('mcp__lazy__whoami')).toBeDefined();
    expect(processesTagged(tag)).toEqual([]);
    const pid = await pidOf(second, 'lazy');
    expect(processesTagged(tag)).toEqual([pid]);
    expect(stateOf(second, 'lazy')).toBe('connected');
  });

  it("at start when the host says so, and an entry's own start wins over the default", async () => {
    const tag = `--tag=${randomUUID()}`;
    await test.home.writeUserConfig({
      eager: pidServer(`${tag}-eager`),
      own: { ...pidServer(`${tag}-own`), start: 'on_demand' },
    });
    await (await test.build({ registry: { start: 'at_start' } })).close();
    const runtime = await test.build({ registry: { start: 'at_start' } });
    expect(stateOf(runtime, 'eager')).toBe('connecting');
    expect(stateOf(runtime, 'own')).toBe('notStarted');
    expect(processesTagged(`${tag}-own`)).toEqual([]);
  });

  it("a plugin's server started on demand from the user's overrides, and get shows the setting", async () => {
    const tag = `--tag=${randomUUID()}`;
    await test.home.writePluginConfig('kit', { tool: pidServer(tag) });
    await test.home.writeUserConfig(
      JSON.stringify({ servers: {}, overrides: { kit__tool: { start: 'on_demand' } } }),
    );
    const approve = async () => true;
    await (await test.build({ registry: { start: 'at_start' }, approve })).close();
    const runtime = await test.build({ registry: { start: 'at_start' }, approve });
    expect(stateOf(runtime, 'kit__tool')).toBe('notStarted');
    const server = runtime.servers().find(({ config }) => config.name === 'kit__tool');
    if (server === undefined) throw new Error('no kit__tool');
    const row = serverFields(server, runtime.configFile).fields.find((f) => f.field === 'start');
    expect(row?.value).toBe('on_demand');
    expect(row?.from).toMatchObject({ kind: 'override', key: 'start' });
  });
});
