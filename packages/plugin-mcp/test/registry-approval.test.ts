// A server held for approval in the registry, on the recording fixture server (each process it
// starts writes a `start` record with its pid): held at connectAll it starts no process and offers
// nothing; a request to it says `needs_approval`; turned off it is `disabled`, turned on again still
// held; released it starts; held again its process is reaped and its tools, cached ones included,
// are gone; reconfigure decides the hold of the new config.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpSchemaCache } from '../src/cache.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpToolsChangedEvent } from '../src/registry/types.js';
import type { StdioServerConfig } from '../src/types.js';
import { recordDir, recordingConfig, records } from './support/recording.js';

let dir: ReturnType<typeof recordDir>;
let reg: McpRegistry | undefined;

beforeEach(() => {
  dir = recordDir();
});

afterEach(async () => {
  await reg?.disconnectAll();
  reg = undefined;
  dir.remove();
});

function server(name: string, overrides: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return recordingConfig(name, join(dir.path, `${name}.jsonl`), {}, overrides);
}

function starts(name: string): number[] {
  return records(join(dir.path, `${name}.jsonl`))
    .filter((record) => record.event === 'start')
    .map((record) => record.pid ?? 0);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a held server', () => {
  it('starts nothing and offers nothing until released; held again, its process is reaped and no tool is left', async () => {
    reg = new McpRegistry({ schemaCache: new McpSchemaCache({ dir: join(dir.path, 'cache') }) });
    const events: McpToolsChangedEvent[] = [];
    reg.onToolsChanged((event) => events.push(event));
    const config = server('h');
    const [status] = await reg.connectAll([config], 'plugin', { held: new Map([['h', 'new']]) });

    expect(status).toMatchObject({
      state: 'needsApproval',
      reason: 'new',
      source: 'plugin',
      toolCount: 0,
      launch: { transport: 'stdio', command: [config.command, ...config.args] },
    });
    expect(starts('h')).toEqual([]);
    expect(reg.tools()).toEqual([]);
    await expect(reg.reconnect('h')).rejects.toMatchObject({ code: 'needs_approval' });

    // Turned off it is disabled (it would not start even once approved); on again, still held.
    expect(
      (await reg.update({ ...config, choice: { ...config.choice, enabled: false } })).state,
    ).toBe('disabled');
    expect((await reg.update(config)).state).toBe('needsApproval');
    expect(starts('h')).toEqual([]);

    expect((await reg.release('h')).state).toBe('connected');
    const [pid = 0] = starts('h');
    expect(pid).toBeGreaterThan(0);
    expect(reg.toolsOf('h').length).toBeGreaterThan(0);

    const held = await reg.hold('h', 'changed');
    expect(held).toMatchObject({ state: 'needsApproval', reason: 'changed', toolCount: 0 });
    expect(alive(pid)).toBe(false);
    expect(reg.tools()).toEqual([]);
    expect(events.at(-1)).toMatchObject({ server: 'h', reason: 'choice', added: [] });
    expect(events.at(-1)?.removed.length).toBeGreaterThan(0);

    // Its tools are in the cache now; a new registry holding it offers none of them.
    await reg.disconnectAll();
    reg = new McpRegistry({ schemaCache: new McpSchemaCache({ dir: join(dir.path, 'cache') }) });
    await reg.connectAll([config], 'plugin', { held: new Map([['h', 'new']]) });
    expect(reg.tools()).toEqual([]);
    expect(starts('h')).toEqual([pid]);
  });

  it('reconfigure holds the new config, or releases it, as told', async () => {
    reg = new McpRegistry({ schemaCache: null });
    const config = server('r');
    await reg.connectAll([config], 'user');
    const [first = 0] = starts('r');

    const changed = server('r', { args: [...config.args, '--changed'] });
    expect((await reg.reconfigure(changed, { held: 'changed' })).state).toBe('needsApproval');
    expect(alive(first)).toBe(false);
    expect(starts('r')).toEqual([first]);

    expect((await reg.reconfigure(changed)).state).toBe('connected');
    expect(starts('r')).toHaveLength(2);
  });
});
