// A task's id as its server sends it, read where the wire is read: one of up to 1,024 characters is
// followed and recorded; a longer one (a megabyte) or one holding control characters (line feeds,
// an escape sequence) fails the call as a server_error naming the server, and no record is
// written. Against testkit's task server (2026-07-28, over Streamable HTTP) made to send such ids,
// and a hand-written 2025-11-25 server on 127.0.0.1 that makes a task, or answers a look at one,
// with such an id.

import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  TASK_SERVER,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import { taskRecordsDir } from '../src/tasks/task-records.js';
import { answerMcp, type McpMessage, type McpReply } from './support/mcp-answers.js';
import { readBody } from './support/read-body.js';
import { type Cleanups, callTool, connectedRegistry } from './support/task-registry.js';
import { rejection } from './support/waiting.js';

const cleanups: Cleanups = [];

beforeEach(async () => {
  await rm(taskRecordsDir(), { recursive: true, force: true });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function taskServer(args: string[]): Promise<RunningModernServer> {
  const server = await startModernHttp(args, {}, TASK_SERVER);
  cleanups.push(() => server.stop());
  return server;
}

it('a 2026 task whose id has 1,024 characters is followed and recorded', async () => {
  const server = await taskServer(['--id-chars=1024']);
  const registry = await connectedRegistry(cleanups, remoteConfig('tasks', 'http', server.url));
  await callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10 });
  const [record] = await readTaskRecords();
  expect(record?.taskId).toHaveLength(1024);
});

it.each([
  [
    'a megabyte',
    ['--id-chars=1000000'],
    'taskId: 1,000,000 characters; a task id may have 1,024 at most',
  ],
  [
    'line feeds and an escape sequence',
    ['--id-chars=64', '--id-pad=\n\u001b[2J'],
    'taskId: holds control characters (U+000A); a task id may hold none',
  ],
])(
  'a 2026 task whose id is %s fails the call as a server_error, and is not recorded',
  async (_, args, said) => {
    const server = await taskServer(args);
    const registry = await connectedRegistry(cleanups, remoteConfig('tasks', 'http', server.url));
    const error = await rejection(callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10 }));
    expect(isMcpError(error, 'server_error'), String(error)).toBe(true);
    expect(error.message).toBe(
      `MCP server "tasks": tools/call "work" failed: the server's answer is not valid MCP: ${said}. Ask the server's maintainers to fix it.`,
    );
    expect(await readTaskRecords()).toEqual([]);
  },
);

/**
 * A 2025-11-25 server on 127.0.0.1 whose tool `work` runs as a task: its tools/call makes a task of
 * id `made`, tasks/get says it completed under the id `looked`, and tasks/result gives "done".
 */
async function legacyServer(made: string, looked: string): Promise<string> {
  const task = (taskId: string, status: string) => ({
    taskId,
    status,
    ttl: 60_000,
    pollInterval: 50,
  });
  const answer = (message: McpMessage): McpReply | undefined => {
    switch (message.method) {
      case 'tools/list': {
        const work = { name: 'work', inputSchema: { type: 'object' } };
        return { result: { tools: [{ ...work, execution: { taskSupport: 'required' } }] } };
      }
      case 'tools/call':
        return { result: { task: task(made, 'working') } };
      case 'tasks/get':
        return { result: task(looked, 'completed') };
      case 'tasks/result':
        return { result: { content: [{ type: 'text', text: 'done' }] } };
      default:
        return undefined;
    }
  };
  const server = createServer(async (req, res) => {
    const message =
      req.method === 'POST' ? (JSON.parse(await readBody(req)) as McpMessage) : undefined;
    answerMcp(req, res, message, {
      name: 'legacy-tasks',
      capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
      tools: ['work'],
      answer,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const MEGABYTE_ID = 'x'.repeat(1_000_000);
const MEGABYTE_SAID = 'taskId: 1,000,000 characters; a task id may have 1,024 at most';

it('a 2025-11-25 task made with a megabyte id fails the call as a server_error, and is not recorded', async () => {
  const registry = await connectedRegistry(
    cleanups,
    remoteConfig('legacy', 'http', await legacyServer(MEGABYTE_ID, MEGABYTE_ID)),
  );
  const error = await rejection(callTool(registry, 'mcp__legacy__work'));
  expect(isMcpError(error, 'server_error'), String(error)).toBe(true);
  expect(error.message).toBe(
    `MCP server "legacy": tools/call "work" failed: the server's answer is not valid MCP: Invalid result for tools/call: task.${MEGABYTE_SAID}. Ask the server's maintainers to fix it.`,
  );
  expect(await readTaskRecords()).toEqual([]);
});

it('a look at a 2025-11-25 task answered with a megabyte id fails the call; only the id made is recorded', async () => {
  const registry = await connectedRegistry(
    cleanups,
    remoteConfig('legacy', 'http', await legacyServer('task-1', MEGABYTE_ID)),
  );
  const error = await rejection(callTool(registry, 'mcp__legacy__work'));
  expect(isMcpError(error, 'server_error'), String(error)).toBe(true);
  expect(error.message).toBe(
    `MCP server "legacy": tools/call "work" failed: the server's answer is not valid MCP: Invalid result for tasks/get: ${MEGABYTE_SAID}. Ask the server's maintainers to fix it.`,
  );
  expect((await readTaskRecords()).map(({ taskId }) => taskId)).toEqual(['task-1']);
});
