// A 2026-07-28 server (a real process over stdio, listen-server.mjs) whose subscriptions/listen is
// not acknowledged as it should be: it still connects and its tools are listed, with a warning
// naming the server; one that refuses the stream is told apart; one that acknowledges late has its
// tools listed again, so a change made before it listened is not missed. First connects (a probe)
// and remembered ones (no round trip before the stream) alike.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { LISTEN_ACK_WAIT_MS } from '../src/connection/list-changes.js';
import type { McpConnectionState } from '../src/connection/state.js';
import { memoryLogger } from './support/recording.js';

const SERVER = fileURLToPath(new URL('./fixtures/listen-server.mjs', import.meta.url));

let dir: string;
const clients: McpClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-listen-ack-'));
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await rm(dir, { recursive: true, force: true });
});

function client(args: readonly string[], logger = memoryLogger()) {
  const made = new McpClient({
    // connect_timeout well past the wait for the acknowledgement, so only a connect that waited
    // for it without end fails.
    config: stdioConfig('deaf', process.execPath, [SERVER, ...args], {
      env: { RECORD_FILE: join(dir, 'record.jsonl') },
      connectTimeoutMs: 4 * LISTEN_ACK_WAIT_MS,
    }),
    logger,
  });
  clients.push(made);
  return { client: made, logger };
}

function toolNames(state: McpConnectionState): string[] {
  return state.kind === 'connected' ? state.tools.map(({ name }) => name) : [];
}

async function methods(): Promise<string[]> {
  const text = await readFile(join(dir, 'record.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { method: string }).method);
}

describe('subscriptions/listen never acknowledged', () => {
  it('connects, lists its tools, answers a call, and warns naming the server and the stream', async () => {
    const { client: deaf, logger } = client(['--ack=never']);
    await deaf.connect();
    expect(deaf.state.kind).toBe('connected');
    expect(toolNames(deaf.state)).toEqual(['echo']);
    expect((await deaf.callTool('echo', {})).content).toEqual([{ type: 'text', text: 'echo' }]);
    const warnings = logger.lines.filter(({ level }) => level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain(
      'MCP server "deaf" has not acknowledged subscriptions/listen within 2 s, so it is connected without it',
    );
    // Asked for before the tools, so that no change falls between.
    expect(await methods()).toEqual([
      'server/discover',
      'subscriptions/listen',
      'tools/list',
      'tools/call',
    ]);
  });

  it('connects again from the remembered verdict (no discover), the same way', async () => {
    const { client: first } = client(['--ack=never']);
    await first.connect();
    const memory = first.memory;
    if (memory?.verdict.era !== 'modern') throw new Error('the first connect met no 2026 server');
    await first.close();
    const { client: again, logger } = client(['--ack=never']);
    again.remember({ tools: [], resources: false, prompts: false, memory });
    await again.connect();
    expect(toolNames(again.state)).toEqual(['echo']);
    expect(logger.lines.filter(({ level }) => level === 'warn')).toHaveLength(1);
    // The second process was not asked server/discover.
    expect((await methods()).filter((method) => method === 'server/discover')).toHaveLength(1);
  });
});

describe('subscriptions/listen refused or acknowledged late', () => {
  it('refused: connects at once, with the warning that says it was refused', async () => {
    const { client: refusing, logger } = client(['--ack=refuse']);
    await refusing.connect();
    expect(toolNames(refusing.state)).toEqual(['echo']);
    const [warning] = logger.lines.filter(({ level }) => level === 'warn');
    expect(warning?.message).toContain('MCP server "deaf" refused subscriptions/listen');
    expect(warning?.message).not.toContain('has not acknowledged');
  });

  it('acknowledged after the connect went on: the tools are listed again, so a change before it is seen', async () => {
    const release = join(dir, 'ack');
    const { client: slow } = client([`--ack-when=${release}`]);
    await slow.connect();
    expect(toolNames(slow.state)).toEqual(['echo']);
    const relisted = new Promise<string[]>((resolve) => {
      const stop = slow.onStateChange((state) => {
        const names = toolNames(state);
        if (!names.includes('late')) return;
        stop();
        resolve(names);
      });
    });
    // The server's list gains `late` now, and only then does it acknowledge the stream.
    await writeFile(release, '');
    expect(await relisted).toEqual(['echo', 'late']);
    expect((await methods()).filter((method) => method === 'tools/list')).toHaveLength(2);
  });
});
