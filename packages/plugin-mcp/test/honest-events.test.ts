// What a host hears from one server, counted exactly on the fixture server's real process: a
// list_changed whose list is the same as before is no new state (many servers send one right after
// initialize), and the registry's tools call the server's live client, whatever client they were
// made with. Counts are checked after a later event the test waits for, never after a sleep.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_SERVER, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import type { McpConnectionState } from '../src/connection/state.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';

const signal = new AbortController().signal;
let dir: string;
const closing: Array<() => Promise<unknown>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'epoch-honest-events-'));
});

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  rmSync(dir, { recursive: true, force: true });
});

function pidConfig(name: string, args: readonly string[], env: Record<string, string> = {}) {
  return stdioConfig(name, process.execPath, [FIXTURE_SERVER, ...args], {
    env,
    timeoutMs: 30_000,
    connectTimeoutMs: 20_000,
  });
}

function toolsLists(file: string): number {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"method":"tools/list"')).length;
  } catch {
    return 0;
  }
}

function pidIn(result: { content: readonly { type: string; text?: string }[] }): number {
  const [first] = result.content;
  return (JSON.parse(first?.text ?? '{}') as { pid: number }).pid;
}

describe('McpClient', () => {
  it('a list_changed right after initialize, with the same list, is not a second connected state', async () => {
    const record = join(dir, 'record.jsonl');
    const client = new McpClient({
      config: pidConfig('eager', ['--list-changed-at-start', '--mutable'], { RECORD_FILE: record }),
    });
    closing.push(() => client.close());
    const states: McpConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    await client.connect();
    await expect.poll(() => toolsLists(record), { timeout: 30_000 }).toBe(2);
    // The sync point: a real change after it, seen as its own state; the client reads the
    // server's answers in order.
    await client.callTool('touch', { description: 'changed' }, signal);
    await expect.poll(() => states.length, { timeout: 30_000 }).toBe(3);

    expect(states.map(({ kind }) => kind)).toEqual(['connecting', 'connected', 'connected']);
    const last = states[2];
    expect(
      last?.kind === 'connected' && last.tools.find(({ name }) => name === 'whoami')?.description,
    ).toBe('changed');
  });
});

describe('McpRegistry tools held across a reconfigure', () => {
  it("call the server's new process, and fail with a code once the server or the tool is gone", async () => {
    const registry = new McpRegistry({ schemaCache: null });
    closing.push(() => registry.disconnectAll());
    await registry.connectAll([pidConfig('held', ['--tool=extra'], { LEVEL: '1' })], 'user');
    const held = registry.toolsOf('held');
    const whoami = held.find(({ name }) => name === 'mcp__held__whoami');
    const extra = held.find(({ name }) => name === 'mcp__held__extra');
    if (whoami === undefined || extra === undefined) throw new Error('tools missing');
    const before = pidIn(await whoami.execute({}, { signal }));

    const reconfigured = registry.reconfigure(pidConfig('held', ['--tool=extra'], { LEVEL: '2' }));
    // Made while the old process is being closed and the new one not started: it waits for it.
    const during = whoami.execute({}, { signal });
    expect(await reconfigured).toMatchObject({ state: 'connected', toolCount: 2 });
    const fresh = registry.toolsOf('held').find(({ name }) => name === 'mcp__held__whoami');
    const after = pidIn(await whoami.execute({}, { signal }));
    expect(after).not.toBe(before);
    expect(pidIn(await during)).toBe(after);
    expect(after).toBe(pidIn((await fresh?.execute({}, { signal })) ?? { content: [] }));

    await registry.reconfigure(pidConfig('held', [], { LEVEL: '3' }));
    const gone = await extra.execute({}, { signal }).catch((error: unknown) => error);
    expect(isMcpError(gone) && gone.code).toBe('unknown_tool');
    expect((gone as Error).message).toContain('"extra"');

    await registry.disconnect('held');
    const unknown = await whoami.execute({}, { signal }).catch((error: unknown) => error);
    expect(isMcpError(unknown) && unknown.code).toBe('unknown_server');
  });
});
