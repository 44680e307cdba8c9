// How a task is followed, against real servers: the status a server pushes moves the task on at once
// (the reference server's 2025-11-25 `notifications/tasks/status`, unasked; the testkit's
// task-server.mjs with --notify, the tasks extension's `notifications/tasks` on a subscription to
// the task), the polls staying the fallback; on a server that takes one call at a time the task
// gives up the call's turn, so another call goes while it runs; a 2026-07-28 server's task tools
// are marked as a 2025 server's are.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolProgress } from '@epoch-agent/protocol';
import {
  EVERYTHING_ENTRY,
  remoteConfig,
  startModernHttp,
  stdioConfig,
  TASK_SERVER,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpEpochTool } from '../src/tools/epoch-tools.js';
import { createTransport } from '../src/transport/create.js';
import type { McpServerConfig } from '../src/types.js';
import { rejection } from './support/waiting.js';

let dir: string;
let record: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-task-follow-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** A client of `config` whose requests are counted by method as they go out on the real transport. */
async function counted(config: McpServerConfig): Promise<{ client: McpClient; sent: string[] }> {
  const sent: string[] = [];
  const client = new McpClient({
    config,
    createTransport: async (server, options) => {
      const handle = await createTransport(server, options);
      const send = handle.transport.send.bind(handle.transport);
      handle.transport.send = (message, sendOptions) => {
        if ('method' in message && 'id' in message) sent.push(message.method);
        return send(message, sendOptions);
      };
      return handle;
    },
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, sent };
}

async function recorded(): Promise<Record<string, unknown>[]> {
  const lines = await readFile(record, 'utf8').catch(() => '');
  return lines
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

function text(result: { content: readonly unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

const taskServer = (args: readonly string[] = []) =>
  stdioConfig('tasks', process.execPath, [TASK_SERVER, ...args], { env: { RECORD_FILE: record } });

async function httpTaskServer(args: readonly string[]): Promise<McpServerConfig> {
  const server = await startModernHttp(args, { RECORD_FILE: record }, TASK_SERVER);
  cleanups.push(() => server.stop());
  return remoteConfig('tasks', 'http', server.url);
}

describe('status the server pushes', () => {
  it('2025-11-25: the reference server pushes each stage, so the task is never polled', async () => {
    const everything = stdioConfig('everything', process.execPath, [EVERYTHING_ENTRY, 'stdio']);
    const { client, sent } = await counted(everything);
    const reports: ToolProgress[] = [];
    const result = await client.callTool(
      'simulate-research-query',
      { topic: 'tides' },
      undefined,
      (report) => reports.push(report),
    );
    expect(text(result)).toContain('# Research Report: tides');
    // Its poll interval is a second, one stage a second: polled, it would be asked four times.
    expect(sent.filter((method) => method === 'tasks/get')).toEqual([]);
    expect(sent.filter((method) => method === 'tasks/result')).toHaveLength(1);
    const said = reports.map(({ message }) => message);
    for (const stage of ['Gathering sources...', 'Analyzing content...', 'Generating report...'])
      expect(said).toContain(stage);
  });

  it.each(['stdio', 'http'] as const)(
    '2026-07-28 over %s: a subscription to the task, each step pushed as it happens, the result inlined',
    async (transport) => {
      // Asked to be polled every 10 s (the most epoch waits): every step in between is pushed.
      const args = ['--notify', '--poll-ms=60000'];
      const { client } = await counted(
        transport === 'stdio' ? taskServer(args) : await httpTaskServer(args),
      );
      const reports: ToolProgress[] = [];
      const result = await client.callTool('work', { steps: 3, stepMs: 100 }, undefined, (report) =>
        reports.push(report),
      );
      expect(text(result)).toBe('done 3');
      const said = reports.map(({ message }) => message);
      expect(said).toEqual(expect.arrayContaining(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']));
      const events = await recorded();
      const created = events.find((event) => 'created' in event)?.created;
      expect(events).toContainEqual({ listen: [created] });
      expect(events).toContainEqual({ notified: created, status: 'completed' });
    },
  );

  it('2026-07-28: a server that does not push is polled as before', async () => {
    const { client, sent } = await counted(taskServer());
    const result = await client.callTool('work', { steps: 2, stepMs: 100 });
    expect(text(result)).toBe('done 2');
    expect(sent).toContain('tasks/get');
  });
});

describe('a server that takes one call at a time', () => {
  it('runs another call while a task runs: the task gave its turn up once it was made', async () => {
    const { client } = await counted(taskServer());
    expect(client.config.supportsParallel).toBe(false);
    const stop = new AbortController();
    let taskEnded = false;
    const task = client.callTool('work', { steps: 300, stepMs: 100 }, stop.signal).finally(() => {
      taskEnded = true;
    });
    const failed = rejection(task);
    // Sent once the task is made: behind the call that makes it, not behind the whole task.
    const plain = await client.callTool('plain', { steps: 1, stepMs: 10 });
    expect(text(plain)).toBe('done 1');
    expect(taskEnded).toBe(false);
    stop.abort(new Error('done with it'));
    expect(isMcpError(await failed, 'aborted')).toBe(true);
  });
});

describe('task tools marked', () => {
  it("a 2026-07-28 server's task tool is marked from its list, its other tools not", async () => {
    const registry = new McpRegistry({ schemaCache: null });
    cleanups.push(() => registry.disconnectAll());
    await registry.connectAll([taskServer()], 'user');
    const support = (name: string) =>
      (registry.tools().find((tool) => tool.name === `mcp__tasks__${name}`) as McpEpochTool)
        .taskSupport;
    expect(support('work')).toBe('required');
    expect(support('plain')).toBeUndefined();
  });
});
