// A runtime built with `connect: 'background'` (what the connectors page runs on): buildRuntime and
// each edit resolve with their servers connecting, whatever the servers do; the connects go on and
// are told by status events; close() ends them and leaves no process. Real fixture servers, one
// that never answers initialize and one that answers once the test creates a file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerState, Runtime } from '@epoch-agent/runtime';
import { FIXTURE_SERVER, waitUntil } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import { isAlive, pidServer, useRuntimeHome } from './runtime-helpers.js';

const t = useRuntimeHome();

/** A fixture server that records its pid in `pidFile`, with `args`. */
function recorded(pidFile: string, ...args: string[]) {
  return { command: process.execPath, args: [FIXTURE_SERVER, ...args], env: { PID_FILE: pidFile } };
}

/** The pids a server wrote to `pidFile`, once it has written one (it runs in its own process). */
function startedPids(pidFile: string): Promise<number[]> {
  return waitUntil(() => {
    const pids = readPids(pidFile);
    return pids.length > 0 && pids;
  }, `a pid in ${pidFile}`);
}

function readPids(pidFile: string): number[] {
  try {
    return readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resolves when server `name` is in `state`: now, or at the status event that says so. */
function reaches(runtime: Runtime, name: string, state: McpServerState): Promise<void> {
  const now = () => runtime.mcp.statuses().find((status) => status.name === name)?.state;
  if (now() === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = runtime.mcp.onStatus((status) => {
      if (status.name !== name || status.state !== state) return;
      stop();
      resolve();
    });
  });
}

describe("buildRuntime({ connect: 'background' })", () => {
  it('resolves while a server never answers, which is connecting since it began; close() ends the connect and reaps it', async () => {
    const pidFile = join(t.home.dir, 'pids');
    await t.home.writeUserConfig({ mute: recorded(pidFile, '--never-start') });
    const before = Date.now();
    const runtime = await t.build({ connect: 'background' });
    const [status] = runtime.mcp.statuses();
    expect(status).toMatchObject({ name: 'mute', state: 'connecting' });
    expect(status?.state === 'connecting' && status.since).toBeGreaterThanOrEqual(before);

    const pids = await startedPids(pidFile);
    await runtime.close();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(runtime.mcp.statuses()).toEqual([]);
  });

  it('a slow server goes from connecting to connected by itself, told by a status event', async () => {
    const ready = join(t.home.dir, 'ready');
    await t.home.writeUserConfig({ slow: pidServer(`--start-when=${ready}`) });
    const runtime = await t.build({ connect: 'background' });
    expect(runtime.mcp.statuses()).toMatchObject([{ name: 'slow', state: 'connecting' }]);
    const connected = reaches(runtime, 'slow', 'connected');
    writeFileSync(ready, '');
    await connected;
    expect(runtime.mcp.statuses()).toMatchObject([{ state: 'connected', toolCount: 1 }]);
  });

  it('addServer resolves with the file written while the new server connects; removing it then reaps it', async () => {
    await t.home.writeUserConfig({});
    const runtime = await t.build({ connect: 'background' });
    const pidFile = join(t.home.dir, 'pids');
    const entry = recorded(pidFile, '--never-start');
    const added = await runtime.addServer({
      name: 'mute',
      transport: 'stdio',
      command: entry.command,
      args: entry.args,
      env: entry.env,
    });
    expect(added.applied.added).toEqual(['mute']);
    expect(added.status?.state).toBe('connecting');
    expect(readFileSync(runtime.configFile, 'utf8')).toContain('"mute"');

    const pids = await startedPids(pidFile);
    await runtime.removeServer('mute');
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('a server turned on resolves connecting, and connects by itself', async () => {
    const ready = join(t.home.dir, 'ready');
    await t.home.writeUserConfig({
      later: { ...pidServer(`--start-when=${ready}`), enabled: false },
    });
    const runtime = await t.build({ connect: 'background' });
    expect(runtime.mcp.statuses()).toMatchObject([{ name: 'later', state: 'disabled' }]);
    const set = await runtime.setServerChoice('later', { kind: 'server', enabled: true });
    expect(set.status?.state).toBe('connecting');
    const connected = reaches(runtime, 'later', 'connected');
    writeFileSync(ready, '');
    await connected;
  });
});
