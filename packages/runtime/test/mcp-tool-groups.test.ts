// The runtime keeps each MCP server's tools in the ToolRegistry group `mcp:<server>`: set when it
// connects and when its tool list changes, removed when it fails or is disconnected. Real
// pid-server processes, a temp EPOCH_HOME per test.
import { buildRuntime, type Runtime } from '@epoch-agent/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pidServer, type TempHome, useTempHome } from './runtime-helpers.js';

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

describe('tool groups', () => {
  it('a server whose tool list changes (notifications/tools/list_changed) gets its group set anew', async () => {
    // A new tool is withheld until approved (tool-pins.test.ts); here it is taken at once.
    await home.writeUserConfig({ live: { ...pidServer('--growable'), pin_tools: false } });
    runtime = await buildRuntime();
    const rt = runtime;
    expect(rt.tools.get('mcp__live__grown')).toBeUndefined();
    const grown = new Promise<void>((resolve) => {
      rt.tools.onChange(() => {
        if (rt.tools.get('mcp__live__grown') !== undefined) resolve();
      });
    });
    await rt.tools.get('mcp__live__grow')?.execute({}, { signal: new AbortController().signal });
    await grown;
    expect(rt.tools.groups()).toEqual(['mcp:live']);
  });

  it('a server that fails has no tool group, and a disconnected one loses its group', async () => {
    await home.writeUserConfig({
      ok: pidServer(),
      missing: { command: 'epoch-no-such-command-for-test' },
    });
    runtime = await buildRuntime();
    expect(runtime.mcp.statuses().map(({ name, state }) => [name, state])).toEqual([
      ['ok', 'connected'],
      ['missing', 'failed'],
    ]);
    expect(runtime.tools.groups()).toEqual(['mcp:ok']);
    await runtime.mcp.disconnect('ok');
    expect(runtime.tools.groups()).toEqual([]);
    expect(runtime.tools.tools()).toEqual([]);
  });
});
