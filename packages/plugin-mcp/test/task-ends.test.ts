// What a recorded task's server says of it, believed: against real servers of both revisions (the
// reference server's `simulate-research-query`, 2025-11-25 over stdio; testkit's task server,
// 2026-07-28 over Streamable HTTP), a cancel of a task that has already ended is `task_ended`
// naming it (no tasks/cancel sent, its record says how it ended, not `cancelled`); a cancel of a
// running one gives the status the server reports; a task its server no longer knows (a new
// server process) is `task_gone` and its record is removed; and a record keeps the time its server
// said it keeps the task (`ttl`, `ttlMs`), past which reading the records removes it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVERYTHING_ENTRY,
  type RunningModernServer,
  remoteConfig,
  startModernHttp,
  stdioConfig,
  TASK_SERVER,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import { taskRecordsDir } from '../src/tasks/task-records.js';
import { type Cleanups, callTool, connectedRegistry } from './support/task-registry.js';
import { rejection } from './support/waiting.js';

let dir: string;
let events: string;
const cleanups: Cleanups = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-task-ends-'));
  events = join(dir, 'events.jsonl');
  await rm(taskRecordsDir(), { recursive: true, force: true });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function taskServer(args: string[] = []): Promise<RunningModernServer> {
  const server = await startModernHttp(args, { RECORD_FILE: events }, TASK_SERVER);
  cleanups.push(() => server.stop());
  return server;
}

async function cancelsSent(): Promise<unknown[]> {
  const lines = (await readFile(events, 'utf8').catch(() => '')).split('\n');
  return lines.filter(Boolean).flatMap((line) => {
    const event = JSON.parse(line) as { cancelled?: string };
    return event.cancelled === undefined ? [] : [event.cancelled];
  });
}

async function onlyRecord() {
  const [found, ...others] = await readTaskRecords();
  expect(others).toEqual([]);
  if (found === undefined) throw new Error('no task recorded');
  return found;
}

describe('a 2026-07-28 server (testkit task server over HTTP)', () => {
  it('cancel of a task that completed is task_ended naming it; no tasks/cancel sent, the record says completed', async () => {
    const registry = await connectedRegistry(
      cleanups,
      remoteConfig('tasks', 'http', (await taskServer()).url),
    );
    await callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10 });
    const task = await onlyRecord();
    expect(task.status).toBe('completed');
    const error = await rejection(registry.cancelTask('tasks', task.taskId));
    expect(isMcpError(error, 'task_ended'), String(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Task "${task.taskId}" of MCP server "tasks" had already completed, its server says: nothing was cancelled.`,
    );
    expect(await cancelsSent()).toEqual([]);
    expect((await onlyRecord()).status).toBe('completed');
  });

  it('cancel of a task that failed is task_ended: "had already failed"; the record says failed', async () => {
    const registry = await connectedRegistry(
      cleanups,
      remoteConfig('tasks', 'http', (await taskServer()).url),
    );
    const failed = await rejection(
      callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10, fail: true }),
    );
    expect(failed.code).toBe('server_error');
    const task = await onlyRecord();
    expect(task.status).toBe('failed');
    const error = await rejection(registry.cancelTask('tasks', task.taskId));
    expect(isMcpError(error, 'task_ended'), String(error)).toBe(true);
    expect((error as Error).message).toContain('had already failed');
    expect((await onlyRecord()).status).toBe('failed');
  });

  it('cancel of a running task gives the status its server reports after it: cancelled', async () => {
    const registry = await connectedRegistry(
      cleanups,
      remoteConfig('tasks', 'http', (await taskServer()).url),
    );
    const running = callTool(registry, 'mcp__tasks__work', { steps: 300, stepMs: 100 });
    running.catch(() => {});
    const task = await waitUntil(async () => (await readTaskRecords())[0], 'the task recorded');
    const state = await registry.cancelTask('tasks', task.taskId);
    expect(state).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect(await cancelsSent()).toEqual([task.taskId]);
    await running.catch(() => {});
    expect((await onlyRecord()).status).toBe('cancelled');
  });

  it('a task its server no longer knows (a new server process): task_gone, and its record is removed', async () => {
    const first = await taskServer();
    const registry = await connectedRegistry(cleanups, remoteConfig('tasks', 'http', first.url));
    await callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10 });
    const task = await onlyRecord();
    await registry.disconnectAll();
    await first.stop();
    const later = await connectedRegistry(
      cleanups,
      remoteConfig('tasks', 'http', (await taskServer()).url),
    );
    const error = await rejection(later.taskResult(task));
    expect(isMcpError(error, 'task_gone'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^MCP server "tasks" no longer knows task "${task.taskId}": .* Its record is removed\\.$`,
      ),
    );
    expect(await readTaskRecords()).toEqual([]);
  });

  it("keeps the server's ttlMs in the record, and reading the records past it removes the record", async () => {
    const registry = await connectedRegistry(
      cleanups,
      remoteConfig('tasks', 'http', (await taskServer(['--ttl-ms=120000'])).url),
    );
    await callTool(registry, 'mcp__tasks__work', { steps: 1, stepMs: 10 });
    const task = await onlyRecord();
    expect(task.ttlMs).toBe(120_000);
    const expiry = Date.parse(task.startedAt) + 120_000;
    expect(await readTaskRecords({ now: expiry - 1 })).toEqual([task]);
    expect(await readTaskRecords({ now: expiry })).toEqual([]);
    expect(await readdir(taskRecordsDir())).toEqual([]);
  });
});

describe('a 2025-11-25 server (the reference server over stdio)', () => {
  const everything = () => stdioConfig('everything', process.execPath, [EVERYTHING_ENTRY, 'stdio']);

  it("keeps the task's ttl; cancel once it completed is task_ended, the record says completed", async () => {
    const registry = await connectedRegistry(cleanups, everything());
    await callTool(registry, 'mcp__everything__simulate-research-query', { topic: 'tides' });
    const task = await onlyRecord();
    expect(task).toMatchObject({ status: 'completed', ttlMs: 300_000 });
    const error = await rejection(registry.cancelTask('everything', task.taskId));
    expect(isMcpError(error, 'task_ended'), String(error)).toBe(true);
    expect((error as Error).message).toContain(
      `Task "${task.taskId}" of MCP server "everything" had already completed`,
    );
    expect((await onlyRecord()).status).toBe('completed');
  });

  it('cancel of a task a former server process made: task_gone, and its record is removed', async () => {
    const first = await connectedRegistry(cleanups, everything());
    await callTool(first, 'mcp__everything__simulate-research-query', { topic: 'tides' });
    const task = await onlyRecord();
    await first.disconnectAll();
    const later = await connectedRegistry(cleanups, everything());
    const error = await rejection(later.cancelTask('everything', task.taskId));
    expect(isMcpError(error, 'task_gone'), String(error)).toBe(true);
    expect((error as Error).message).toContain(
      `MCP server "everything" no longer knows task "${task.taskId}"`,
    );
    expect(await readTaskRecords()).toEqual([]);
  });
});
